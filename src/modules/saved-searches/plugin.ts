import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { followSavedSearches, SavedSearchAlerts } from './alerts'
import { startSavedSearchDigests } from './digest'
import { savedSearchesApi } from './api'

/** Saved searches (issue 17; docs/decisions/018-saved-searches.md): named filters, their new counts, INSTANT and DAILY alerts. */
export function savedSearchesFeature(ctx: AppContext) {
  // The daily mails, from the primary: each search's mail is claimed in the database too.
  ctx.features.schedule('saved searches: daily mail', 'primary', () => startSavedSearchDigests(ctx))
  const alerts = new SavedSearchAlerts(ctx.db, ctx.feed)
  ctx.features.stream({
    event: 'saved_search',
    description:
      '`saved_search` `{"id", "name", "listing": {"id", "entry_id"}}` for everyone with an INSTANT saved search: a listing you may see (not yours) was posted, repriced or put back on the market and that search lets it through, within a second of the write made through any process.',
    topic: alerts,
    follow: (user, send, end) => followSavedSearches(alerts, user, send, end),
  })
  return { alerts, plugin: new Elysia({ name: 'saved-searches' }).use(savedSearchesApi(ctx)) }
}
