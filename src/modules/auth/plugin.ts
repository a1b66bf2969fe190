import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { authApi } from './api'
import type { RaisePush } from '../notifications/kinds'
import { authPages } from './pages'

/** Accounts (SPEC section 8): sign-in, registration, password reset, the caller's own session; their pages. */
export const authFeature = (ctx: AppContext, uses: { push?: RaisePush } = {}) => ({ plugin: new Elysia({ name: 'auth' }).use(authApi(ctx, uses.push)).use(authPages(ctx)) })
