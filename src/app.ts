import { Elysia } from 'elysia'
import { assetRoutes } from './platform/http/assets'
import { bodyLimit } from './platform/http/body-limit'
import { compression } from './platform/http/compression'
import { headLimit } from './platform/http/head-limit'
import type { AppContext } from './platform/context'
import { errorHandler } from './platform/http/errors'
import { requestLog } from './platform/http/request-log'
import { requestMetrics } from './platform/http/request-metrics'
import { securityHeaders } from './platform/http/security'
import { writeLane } from './platform/http/write-lane'
import { analyticsFeature } from './modules/analytics/plugin'
import { auditFeature } from './modules/audit/plugin'
import { authFeature } from './modules/auth/plugin'
import { dashboardFeature } from './modules/dashboard/plugin'
import { dealsFeature } from './modules/deals/plugin'
import { docsFeature } from './modules/docs/plugin'
import { eventsFeature } from './modules/events/plugin'
import { geographyFeature } from './modules/geography/plugin'
import { healthFeature } from './modules/health/plugin'
import { intakeFeature } from './modules/intake/plugin'
import { listingsFeature } from './modules/listings/plugin'
import { matchesFeature } from './modules/matches/plugin'
import { photosFeature } from './modules/photos/plugin'
import { metricsFeature } from './modules/metrics/plugin'
import { notificationsFeature } from './modules/notifications/plugin'
import { publicFeature } from './modules/public/plugin'
import { pwaFeature } from './modules/pwa/plugin'
import { shareLinksFeature } from './modules/share-links/plugin'
import { savedSearchesFeature } from './modules/saved-searches/plugin'
import { secondFactorFeature } from './modules/second-factor/plugin'
import { systemFeature } from './modules/system/plugin'
import { usersFeature } from './modules/users/plugin'

/**
 * The whole application: the platform's plugins, then one plugin per feature (docs/decisions/033-feature-plugins.md).
 * Each feature builds its own services over the platform's (`ctx`) and registers its reactions there; what one feature
 * needs of another is handed to it here. Tests call `createApp(ctx).handle(request)`; the server starts the reactions
 * (`ctx.features.start`).
 */
export function createApp(ctx: AppContext) {
  // Built in this order, the features register the user's stream's events in the order its document lists them.
  const notifications = notificationsFeature(ctx)
  const matches = matchesFeature(ctx)
  matches.onAnnounced(notifications.matchesAnnounced)
  const photos = photosFeature(ctx)
  const shareLinks = shareLinksFeature(ctx, { photos: photos.service })
  const listings = listingsFeature(ctx, { announcer: matches.announcer, push: notifications, parts: [photos.parts, shareLinks.links.parts] })
  const savedSearches = savedSearchesFeature(ctx)
  const users = usersFeature(ctx)
  const deals = dealsFeature(ctx, { written: listings.written, push: notifications.raise })
  return new Elysia({ name: 'brokernet' })
    .use(requestLog(ctx.logger))
    .use(requestMetrics(ctx.metrics))
    .use(securityHeaders)
    .use(errorHandler)
    .use(headLimit)
    .use(bodyLimit)
    .use(writeLane(ctx.config.writeLane))
    .use(compression)
    .use(assetRoutes())
    .use(docsFeature().plugin)
    .use(pwaFeature().plugin)
    .use(healthFeature(ctx).plugin)
    .use(metricsFeature(ctx).plugin)
    .use(authFeature(ctx, { push: notifications.raise }).plugin)
    .use(dashboardFeature(ctx).plugin)
    .use(geographyFeature(ctx).plugin)
    .use(users.plugin)
    .use(intakeFeature(ctx, { publicLink: (user, listing) => shareLinks.links.linkIfAllowed(user, listing) }).plugin)
    .use(listings.plugin)
    .use(photos.plugin)
    .use(shareLinks.plugin)
    .use(matches.plugin)
    .use(savedSearches.plugin)
    .use(deals.plugin)
    .use(eventsFeature(ctx).plugin)
    .use(analyticsFeature(ctx).plugin)
    .use(auditFeature(ctx).plugin)
    .use(systemFeature(ctx).plugin)
    .use(secondFactorFeature(ctx).plugin)
    .use(notifications.plugin)
    .use(publicFeature().plugin)
}

export type App = ReturnType<typeof createApp>
