import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/http/context'
import { secondFactorApi } from '.'
import { securityPages } from './pages'

/** The API and the Security page of issue 29, as one plugin: the app's chain of plugins stays within TypeScript's depth. */
export const secondFactorRoutes = (ctx: AppContext) => new Elysia({ name: 'second-factor' }).use(secondFactorApi(ctx)).use(securityPages(ctx))
