import { Elysia } from 'elysia'
import { assetRoutes } from './platform/http/assets'
import { bodyLimit } from './platform/http/body-limit'
import { headLimit } from './platform/http/head-limit'
import type { AppContext } from './platform/http/context'
import { errorHandler } from './platform/http/errors'
import { requestLog } from './platform/http/request-log'
import { requestMetrics } from './platform/http/request-metrics'
import { securityHeaders } from './platform/http/security'
import { authPages } from './modules/auth'
import { authApi } from './modules/auth/api'
import { dashboardRoutes } from './modules/dashboard'
import { eventsApi } from './modules/events'
import { docsRoutes } from './modules/docs'
import { geographyRoutes } from './modules/geography'
import { healthRoutes } from './modules/health'
import { publicPages } from './modules/public'
import { analyticsApi } from './modules/analytics'
import { auditApi } from './modules/audit'
import { insightsPages } from './modules/analytics/pages'
import { intakeApi } from './modules/intake'
import { intakePages } from './modules/intake/pages'
import { listingsApi } from './modules/listings'
import { listingsPages } from './modules/listings/pages'
import { metricsRoutes } from './modules/metrics'
import { renewPages } from './modules/listings/renew'
import { matchesApi } from './modules/matches'
import { matchesPages } from './modules/matches/pages'
import { savedSearchesApi } from './modules/saved-searches'
import { secondFactorRoutes } from './modules/second-factor/routes'
import { systemApi } from './modules/system'
import { systemPages } from './modules/system/pages'
import { usersApi } from './modules/users'
import { usersPages } from './modules/users/pages'

/** The whole application, composed from feature modules. Tests call `createApp(ctx).handle(request)`. */
export function createApp(ctx: AppContext) {
  return new Elysia({ name: 'brokernet' })
    .use(requestLog(ctx.logger))
    .use(requestMetrics(ctx.metrics))
    .use(securityHeaders)
    .use(errorHandler)
    .use(headLimit)
    .use(bodyLimit)
    .use(docsRoutes())
    .use(assetRoutes())
    .use(healthRoutes(ctx))
    .use(metricsRoutes(ctx))
    .use(authApi(ctx))
    .use(dashboardRoutes(ctx))
    .use(geographyRoutes(ctx))
    .use(usersApi(ctx))
    .use(intakeApi(ctx))
    .use(intakePages(ctx))
    .use(listingsApi(ctx))
    .use(matchesApi(ctx))
    .use(savedSearchesApi(ctx))
    .use(eventsApi(ctx))
    .use(listingsPages(ctx))
    .use(renewPages(ctx))
    .use(matchesPages(ctx))
    .use(analyticsApi(ctx))
    .use(auditApi(ctx))
    .use(insightsPages(ctx))
    .use(systemApi(ctx))
    .use(systemPages(ctx))
    .use(secondFactorRoutes(ctx))
    .use(usersPages(ctx))
    .use(publicPages)
    .use(authPages(ctx))
}

export type App = ReturnType<typeof createApp>
