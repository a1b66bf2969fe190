import { announceMatches } from '../../src/modules/matches/service'
import type { Database } from '../client'
import { sqliteDb } from '../sqlite'

/**
 * Announces the newest `count` active listings oldest first, as the API would have when each was posted, so the inboxes
 * (and the navigation's unseen badge) hold what a live network's do: for the demo and the bench databases, whose
 * listings are written straight into the table. Done once: a database with inbox rows is left as it is. Returns the
 * number of inbox rows made.
 */
export async function announceAsPosted(database: Database, count: number, onProgress: (m: string) => void = () => {}): Promise<number> {
  const sqlite = database.$client
  if (sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM listing_matches').get()!.n > 0) return 0
  const ids = sqlite
    .query<{ id: number }, [number]>("SELECT id FROM (SELECT id FROM listings WHERE status = 'ACTIVE' ORDER BY id DESC LIMIT ?) ORDER BY id")
    .all(count)
    .map((r) => r.id)
  const started = performance.now()
  const db = sqliteDb(database)
  for (let i = 0; i < ids.length; i += 500) {
    await db.tx(async (tx) => {
      for (const id of ids.slice(i, i + 500)) await announceMatches(tx, id)
    })
    if (ids.length > 500) onProgress(`matches: ${Math.min(i + 500, ids.length)} of ${ids.length} listings announced (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  }
  await db.close()
  return sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM listing_matches').get()!.n
}
