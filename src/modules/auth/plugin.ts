import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { authApi } from './api'
import { authPages } from './pages'

/** Accounts (SPEC section 8): sign-in, registration, password reset, the caller's own session; their pages. */
export const authFeature = (ctx: AppContext) => ({ plugin: new Elysia({ name: 'auth' }).use(authApi(ctx)).use(authPages(ctx)) })
