import type { Database as SQLite, SQLQueryBindings, Statement } from 'bun:sqlite'

const MAX_STATEMENTS = 256
const caches = new WeakMap<SQLite, Map<string, Statement>>()

/**
 * A compiled statement for this SQL text, kept for the next request: compiling costs more than running most of the
 * hot reads. Least recently used statements are finalized past a few hundred (filter combinations vary the text).
 */
export function statement<Row = unknown, Params extends SQLQueryBindings[] = SQLQueryBindings[]>(client: SQLite, sql: string): Statement<Row, Params> {
  let cache = caches.get(client)
  if (!cache) caches.set(client, (cache = new Map()))
  let st = cache.get(sql)
  if (st) cache.delete(sql)
  else {
    st = client.prepare(sql)
    if (cache.size >= MAX_STATEMENTS) {
      const [oldest, evicted] = cache.entries().next().value!
      cache.delete(oldest)
      evicted.finalize()
    }
  }
  cache.set(sql, st)
  return st as Statement<Row, Params>
}

/** How many compiled statements are kept for this connection, and their SQL's length (the memory probe's reading). */
export function keptStatements(client: SQLite): { count: number; sqlChars: number } {
  const cache = caches.get(client)
  let sqlChars = 0
  for (const sql of cache?.keys() ?? []) sqlChars += sql.length
  return { count: cache?.size ?? 0, sqlChars }
}

/** Finalizes every kept statement of this connection (they are compiled again at their next use): the memory probe's. */
export function forgetStatements(client: SQLite): void {
  const cache = caches.get(client)
  for (const st of cache?.values() ?? []) st.finalize()
  cache?.clear()
}
