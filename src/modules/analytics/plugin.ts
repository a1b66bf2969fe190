import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { analyticsApi } from './api'
import { analyticsPages } from './pages'

/** Analytics (SPEC section 7): the dashboard's statistics, trends and top brokers; the Analytics page. */
export const analyticsFeature = (ctx: AppContext) => ({ plugin: new Elysia({ name: 'analytics' }).use(analyticsApi(ctx)).use(analyticsPages(ctx)) })
