import { announceMatches } from '../../src/modules/matches/service'
import type { Database } from '../client'

/**
 * Announces the newest `count` active listings oldest first, as the API would have when each was posted, so the inboxes
 * (and the navigation's unseen badge) hold what a live network's do: for the demo and the bench databases, whose
 * listings are written straight into the table. Done once: a database with inbox rows is left as it is. Returns the
 * number of inbox rows made.
 */
export function announceAsPosted(db: Database, count: number, onProgress: (m: string) => void = () => {}): number {
  const sqlite = db.$client
  if (sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM listing_matches').get()!.n > 0) return 0
  const ids = sqlite
    .query<{ id: number }, [number]>("SELECT id FROM (SELECT id FROM listings WHERE status = 'ACTIVE' ORDER BY id DESC LIMIT ?) ORDER BY id")
    .all(count)
    .map((r) => r.id)
  const started = performance.now()
  for (let i = 0; i < ids.length; i += 500) {
    db.transaction(() => {
      for (const id of ids.slice(i, i + 500)) announceMatches(db, id)
    })
    if (ids.length > 500) onProgress(`matches: ${Math.min(i + 500, ids.length)} of ${ids.length} listings announced (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  }
  return sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM listing_matches').get()!.n
}
