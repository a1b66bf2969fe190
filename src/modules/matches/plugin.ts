import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { startMatchDigests } from './digest'
import { MatchEvents } from './events'
import { matchesApi } from './api'
import { matchesPages } from './pages'
import { unseenCount } from './read'
import { Announcer } from './service'
import { followMatches } from './stream'

/**
 * Matches (issue 15; docs/decisions/010-matching.md): requirements meeting availabilities, each owner's inbox of them
 * and its digest mail. Owns the announcer (what a listing write queued, announced once committed: listings/after-write.ts
 * hands it the writes) and the inbox's news for the user's event stream.
 */
export function matchesFeature(ctx: AppContext) {
  const announcer = new Announcer(ctx.db)
  const events = new MatchEvents(ctx.feed)
  // The primary also sweeps what a stopped process left queued.
  ctx.features.react({ name: 'matches: sweep the queue', runs: 'primary', start: () => announcer.sweep(2000), stop: () => announcer.close() })
  // The digest mail, from the primary only: one timer across the processes (the mail itself is guarded in the database
  // too, so a second sender would still mail each user once).
  ctx.features.schedule('matches: digest mail', 'primary', () => startMatchDigests(ctx))
  ctx.features.stream({
    event: 'matches',
    description:
      '`matches` `{"unseen": N, "new": [ids]}` for everyone: on connect (`new` empty), and within a second of any change to your inbox made through any process: an entry announced to you (its id in `new`), seen or dismissed, or a listing edit that changes how many of your unseen matches still hold.',
    topic: events,
    follow: (user, send, end) => followMatches(ctx.db, events, user.id, send, end),
  })
  ctx.features.badge('/dashboard/matches', async (user) => ({ name: 'MatchesBadge', props: { initial: await unseenCount(ctx.db, user.id) } }))
  return { announcer, events, plugin: new Elysia({ name: 'matches' }).use(matchesApi(ctx)).use(matchesPages(ctx)) }
}
