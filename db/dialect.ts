import { UniqueViolation } from './faults'
import type { Clause, Dialect } from './sql'

// The few SQL forms the stores need that the two dialects spell differently (docs/decisions/012-async-data-layer.md).

/** `column` is one of `ids`: one parameter (a JSON array) whatever the count, so the statement text stays the same. */
export function idsIn(dialect: Dialect, column: string, ids: readonly number[]): Clause {
  const list = JSON.stringify(ids)
  return dialect === 'postgres'
    ? // Typed text, then cast: a parameter postgres.js knows as json it would encode again (a JSON string of the list).
      { sql: `${column} in (select value::bigint from json_array_elements_text(cast(?::text as json)))`, params: [list] }
    : { sql: `${column} in (select value from json_each(?))`, params: [list] }
}

/**
 * SQLite's `indexed by` where its planner, without statistics of a range, would pick the wrong index (each use says
 * why); PostgreSQL plans from its statistics and has no such clause.
 */
export const indexedBy = (dialect: Dialect, index: string): string => (dialect === 'sqlite' ? `indexed by ${index}` : '')


/**
 * A transaction failed because a concurrent one changed what it read or wrote (PostgreSQL: a serialization failure,
 * a deadlock, or a unique key another transaction took meanwhile): running it again sees that change and succeeds.
 * SQLite's transactions of one process never conflict (one at a time); other processes wait on its lock.
 */
export function isConflict(e: unknown): boolean {
  if (e instanceof UniqueViolation) return e.driverCode === '23505'
  const code = (e as { code?: unknown } | null)?.code
  return code === '40001' || code === '40P01' || code === '23505'
}
