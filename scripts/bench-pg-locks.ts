// Who waits for whom on PostgreSQL while a benchmark runs (bench:http --pg-stats): pg_stat_statements counts a lock's
// wait in the waiting statement's time, and says nothing of who held the lock. Every `everyMs` this samples the
// sessions waiting for a lock (pg_stat_activity, pg_blocking_pids, pg_locks), with what each blocker was doing then:
// running a statement, waiting itself, or idle in its transaction (its process busy elsewhere before it sends the
// next statement). A sample is `everyMs` of one session's wait, so the counts add up to waiting time.
import { connectPostgres } from '../db/postgres'

type Sample = { waiter: string; lock: string; blocker: string; state: string; held: number }

const SAMPLE = `
  select left(regexp_replace(w.query, '\\s+', ' ', 'g'), 90) as waiter,
    coalesce((select l.locktype || coalesce(' ' || l.relation::regclass::text, '') || case when l.locktype = 'advisory' then ' ' || l.classid || ',' || l.objid else '' end || ' ' || l.mode
              from pg_locks l where l.pid = w.pid and not l.granted limit 1), w.wait_event) as lock,
    left(regexp_replace(b.query, '\\s+', ' ', 'g'), 90) as blocker,
    b.state || coalesce(' (' || b.wait_event_type || ': ' || b.wait_event || ')', '') as state,
    extract(epoch from now() - b.xact_start) * 1000 as held
  from pg_stat_activity w
    cross join lateral unnest(pg_blocking_pids(w.pid)) as bp(pid)
    join pg_stat_activity b on b.pid = bp.pid
  where w.wait_event_type = 'Lock'`

/** Starts sampling; `stop` ends it and returns the waits as text lines, most waited-for first. */
export function watchLockWaits(url: string, everyMs = 50): { stop(): Promise<string[]> } {
  const sql = connectPostgres(url, { max: 1 })
  const seen = new Map<string, { samples: number; maxHeld: number }>()
  let running = true
  let samples = 0
  const loop = (async () => {
    while (running) {
      const at = performance.now()
      try {
        const rows = await sql.unsafe<Sample[]>(SAMPLE)
        samples++
        for (const r of rows) {
          const key = `${r.lock}\n    waiter: ${r.waiter}\n    blocker (${r.state}): ${r.blocker}`
          const s = seen.get(key) ?? { samples: 0, maxHeld: 0 }
          s.samples++
          s.maxHeld = Math.max(s.maxHeld, Number(r.held))
          seen.set(key, s)
        }
      } catch {
        // The server stopping at the end of a run: nothing more to see.
      }
      await Bun.sleep(Math.max(0, everyMs - (performance.now() - at)))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      await sql.end()
      const lines = [...seen].sort((a, b) => b[1].samples - a[1].samples).slice(0, 20)
      return [
        `${samples} samples every ${everyMs} ms; lock waits (≈ ms waited = samples × ${everyMs}; the blocker's transaction open for up to):`,
        ...lines.map(([key, s]) => `${String(s.samples * everyMs).padStart(8)} ms (blocker's transaction up to ${Math.round(s.maxHeld)} ms)  ${key}`),
      ]
    },
  }
}
