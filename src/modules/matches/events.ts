import type { ChangeFeed, FeedEvent } from '../../../db/change-feed'
import type { Database } from '../../../db/client'
import { statement } from '../../../db/statements'
import { LiveTopic } from '../../http/live-topic'

/**
 * Whose inbox may have changed: `created` holds the entries announced to them (unseen at birth). `'any'`: possibly
 * everyone's (changes were missed, a listing was deleted, a city's tolerance moved), so every stream counts again.
 */
export type MatchNews = { userId: number | 'any'; created: number[] }

/**
 * Tells open event streams whose unseen matches changed, wherever the write was made. The feed's 'match' rows
 * (migration 0017) name the entry's owner: an entry announced, seen or dismissed. An edit of a listing can also make
 * an entry hold or stop holding (on hold, a new price): the owners of its unseen entries hear of it too.
 */
export class MatchEvents extends LiveTopic<MatchNews> {
  constructor(
    feed: ChangeFeed,
    private readonly db: Database,
  ) {
    super(feed)
  }

  protected onFeed(event: FeedEvent) {
    if ('reset' in event) return this.emit({ userId: 'any', created: [] })
    const news = new Map<number, number[]>()
    const edited: number[] = []
    let everyone = false
    for (const c of event.changes) {
      if (c.topic === 'match') {
        const row = (c.after ?? c.before)!
        const created = news.get(row.user_id as number) ?? []
        news.set(row.user_id as number, created)
        if (!c.before && c.after && !c.after.seen && !c.after.dismissed) created.push(c.after.id as number)
      } else if (c.topic === 'listing' && c.before && this.listening) {
        // A deleted listing's entries went with it (a cascade, no trigger), so whose they were is not known.
        if (c.after) edited.push(c.after.id as number)
        else everyone = true
      } else if (c.topic === 'geography' && this.listening) everyone = true
    }
    if (!everyone && edited.length > 0) for (const userId of ownersOfUnseen(this.db, edited)) if (!news.has(userId)) news.set(userId, [])
    // Each owner's own news first, so the ids of new entries reach them even when everyone counts again after.
    for (const [userId, created] of news) this.emit({ userId, created })
    if (everyone) this.emit({ userId: 'any', created: [] })
  }
}

/** The owners of unseen, undismissed entries of these listings (on either side of the pair). */
function ownersOfUnseen(db: Database, listingIds: number[]): number[] {
  const open = 'seen_at is null and dismissed_at is null'
  return statement<{ user_id: number }, [string]>(
    db.$client,
    `select user_id from listing_matches where listing_id in (select value from json_each(?1)) and ${open}
     union select user_id from listing_matches where match_id in (select value from json_each(?1)) and ${open}`,
  )
    .all(JSON.stringify(listingIds))
    .map((r) => r.user_id)
}
