import type { Db } from '../../../db/sql'
import { inOrder } from '../../platform/http/live-topic'
import type { SendEvent } from '../../platform/http/sse'
import type { MatchEvents } from './events'
import { unseenCount } from './read'

/**
 * Follows the user's inbox of matches: sends `matches` with `{ unseen, new }` now (`new` empty) and whenever an entry
 * of theirs is announced (its id in `new`), seen or dismissed, or an edit elsewhere changes how many unseen ones still
 * hold. An event that would repeat the last count with nothing new is not sent.
 */
export function followMatches(db: Db, events: MatchEvents, userId: number, send: SendEvent, end: () => void): () => void {
  let last: number | null = null
  const report = inOrder(async (created: number[]) => {
    const unseen = await unseenCount(db, userId)
    if (created.length === 0 && unseen === last) return
    last = unseen
    send('matches', { unseen, new: created })
  })
  const unsubscribe = events.subscribe((news) => {
    if (news.userId === userId) report(news.created)
    else if (news.userId === 'any') report([])
  }, end)
  report([])
  return unsubscribe
}
