import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { secondFactorApi } from './api'
import { securityPages } from './pages'

/** Two-factor sign-in for admins (issue 29; docs/decisions/025-admin-second-factor.md): its API and the Security page. */
export const secondFactorFeature = (ctx: AppContext) => ({ plugin: new Elysia({ name: 'second-factor' }).use(secondFactorApi(ctx)).use(securityPages(ctx)) })
