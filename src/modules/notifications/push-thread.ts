// The push sender's thread (issue 33; src/platform/push/thread.ts): a Worker's entry file, listed as a second entry
// point of the compiled binary (scripts/build-binary.ts). It makes what only this feature knows, the guard that judges
// scope at the send, over the thread's own database connection, and the task the server hands it: a listing's
// saved-search alerts, judged and queued here rather than on the event loop that answers requests
// (docs/decisions/055-burst-off-thread.md).
import { servePushThread } from '../../platform/push/serve-thread'
import { PushAlerts } from './alerts'
import { pushGuard } from './guard'
import { LISTING_NEWS, SAVED_SEARCH_BURST_MS, savedSearchAlerts, type ListingNewsTask } from './reactions'

servePushThread(
  (db) => ({ guard: pushGuard(db) }),
  (db, sender) => ({
    [LISTING_NEWS]: (data) => {
      const { listingId, timeZone, at } = data as ListingNewsTask
      return savedSearchAlerts(db, new PushAlerts(db, sender, timeZone, at + SAVED_SEARCH_BURST_MS).raise)(listingId)
    },
  }),
)
