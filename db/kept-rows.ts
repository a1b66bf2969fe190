import type { Change, Feed } from './change-feed'
import type { Queryable } from './sql'

/** Which kept rows a change makes wrong: these ids, or every row ('all'); none for a change they do not show. */
export type RowsDroppedBy = (change: Change) => readonly number[] | 'all'

/**
 * Rows read by id, kept per process until the change feed says they changed (issue 36,
 * docs/decisions/075-kept-rows.md). A cached answer made of rows (a page of listings) is dropped by any write that
 * moves it, and a new listing moves every page of every list it enters. Its rows are mostly the ones it showed
 * before, one place further down: the answer is computed again from ids it already knows (kept windows), and the rows
 * come from here, not from one more statement with joins.
 *
 * A row read while the feed moved on is not kept: a change handed out meanwhile may be newer than what was read, and
 * dropping it came too early. Nothing is kept or served while the feed cannot be trusted (`sync()` false), or through
 * a handle that reads a moment of the past (`pinned`). As for SnapshotCache, reads go through the root handle only:
 * rows a transaction read of its own writes must not be kept for everyone. Least recently used rows go past `limit`.
 */
export class KeptRows<R extends { id: number }> {
  private readonly rows = new Map<number, R>()

  constructor(
    private readonly feed: Feed,
    private readonly droppedBy: RowsDroppedBy,
    // 4,096: the rows one write of bench:http's writer sends a broker's dashboard mix back for (about 100 pages of 25,
    // ~2,500 rows) fit with room to spare, where 2,048 dropped each just before it was wanted; about 4 MB more heap
    // (docs/decisions/081-kept-rows-4096.md).
    private readonly limit = 4096,
  ) {
    feed.subscribe((event) => {
      if (!('changes' in event)) return this.rows.clear()
      for (const c of event.changes) {
        const ids = this.droppedBy(c)
        if (ids === 'all') return this.rows.clear()
        for (const id of ids) this.rows.delete(id)
      }
    })
  }

  /** The rows of these ids, in their order (ids without a row left out): kept ones, the rest through `read`. */
  async byIds(db: Queryable, ids: readonly number[], read: (ids: number[]) => Promise<R[]>): Promise<R[]> {
    if (ids.length === 0) return []
    if (this.feed.pinned(db) || !this.feed.sync()) return inOrder(ids, await read([...ids]))
    const found = new Map<number, R>()
    const missing: number[] = []
    for (const id of ids) {
      const row = this.rows.get(id)
      if (row === undefined) missing.push(id)
      else {
        // Most recently used last: the Map's order is the eviction order.
        this.rows.delete(id)
        this.rows.set(id, row)
        found.set(id, row)
      }
    }
    if (missing.length) {
      const at = this.feed.seq
      const read_ = await read(missing)
      const keep = this.feed.seq === at
      for (const row of read_) {
        const id = Number(row.id)
        found.set(id, row)
        if (keep) this.rows.set(id, row)
      }
      for (let over = this.rows.size - this.limit; over > 0; over--) this.rows.delete(this.rows.keys().next().value!)
    }
    return ids.flatMap((id) => found.get(id) ?? [])
  }
}

function inOrder<R extends { id: number }>(ids: readonly number[], rows: R[]): R[] {
  const byId = new Map(rows.map((r) => [Number(r.id), r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}
