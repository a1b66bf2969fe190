import type { Db } from '../../../db/sql'
import { newestActiveIds } from '../listings/store'
import { announceMatches } from './service'
import { entryCount } from './store'

/**
 * The matches feature's part of a seed (db/seed/ writes listings straight into the table and knows no feature): announces the newest `count` active listings oldest first, as the API would have when each was posted, so the inboxes
 * (and the navigation's unseen badge) hold what a live network's do: for the demo and the bench databases, whose
 * listings are written straight into the table. Done once: a database with inbox rows is left as it is. Returns the
 * number of inbox rows made.
 */
export async function announceAsPosted(db: Db, count: number, onProgress: (m: string) => void = () => {}): Promise<number> {
  const made = () => entryCount(db)
  if ((await made()) > 0) return 0
  const ids = await newestActiveIds(db, count)
  const started = performance.now()
  for (let i = 0; i < ids.length; i += 500) {
    await db.tx(async (tx) => {
      for (const id of ids.slice(i, i + 500)) await announceMatches(tx, id)
    })
    if (ids.length > 500) onProgress(`matches: ${Math.min(i + 500, ids.length)} of ${ids.length} listings announced (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  }
  return made()
}
