import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { PushSender, PushStats } from '../../platform/push'
import { PushAlerts } from './alerts'
import { notificationsApi } from './api'
import { pushGuard } from './guard'
import { listingNews, matchesAnnounced } from './reactions'
import { registerPushMetrics } from './metrics'
import { notificationsPages } from './pages'

/**
 * Push alerts (issue 33; docs/decisions/035-web-push.md): the devices a user takes alerts on, their settings, and the
 * alerts the other features raise (handed `raise` in src/app.ts): a new match, an INSTANT saved search's hit, a listing
 * ending soon, a registration waiting for an admin. This process's push sender sends them, asking ./guard.ts first.
 */
export function notificationsFeature(ctx: AppContext) {
  const stats = new PushStats()
  // The sending runs in a thread of its own (./push-thread.ts): nothing of it on the event loop that serves requests;
  // a burst is spread over PUSH_RATE a second (src/platform/push/pace.ts), so the thread takes a share of the CPU only.
  const sender = new PushSender(ctx.db, ctx.config, { guard: pushGuard(ctx.db), stats, thread: pushThreadEntry(), rate: ctx.config.pushRate })
  registerPushMetrics(ctx, stats)
  const alerts = new PushAlerts(ctx.db, sender, ctx.config.timeZone)
  // Every process sends: each message is claimed by one (the outbox's claims), so instances share the work.
  ctx.features.react({ name: 'notifications: push sender', runs: 'every', start: () => sender.resume(), stop: () => sender.close() })
  // Quiet hours' ends: every process looks; each held alert is taken by one (a delete in the summary's transaction).
  ctx.features.schedule('notifications: quiet hours', 'primary', () => alerts.startReleasing())
  return {
    alerts,
    sender,
    raise: alerts.raise,
    /** For matches' announcer: the entries it made, inside its transaction. */
    matchesAnnounced: matchesAnnounced(alerts.raise),
    /** For listings' after-write: a listing with news, once committed in the process that wrote it (judged in the push thread). */
    listingNews: listingNews(ctx.db, alerts.raise, sender, ctx.config.timeZone),
    plugin: new Elysia({ name: 'notifications' }).use(notificationsApi(ctx)).use(notificationsPages(ctx)),
  }
}

/**
 * The thread's entry file: from source, next to this one; inside the compiled binary, where the build put it (the
 * folder of src/server.ts is the binary's root: scripts/build-binary.ts lists this file as a second entry point).
 */
const pushThreadEntry = () => (Bun.isStandaloneExecutable ? './modules/notifications/push-thread.ts' : new URL('./push-thread.ts', import.meta.url).href)
