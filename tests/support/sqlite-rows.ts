// Every row of every table of a SQLite file, read-only, in a form two databases can be compared in.
import { Database } from 'bun:sqlite'

export type TableRows = {
  /** Stored and generated columns, in table order. */
  columns: string[]
  /** The primary key's columns (none for a table without one). */
  key: string[]
  rows: Record<string, unknown>[]
}

/** Blobs as hex and big integers as text, so rows compare (and print) as plain JSON. */
const plain = (v: unknown) => (v instanceof Uint8Array ? `x'${Buffer.from(v).toString('hex')}'` : typeof v === 'bigint' ? v.toString() : v)

/** Tables of a database file by name, with SQLite's own (sqlite_*) left out. Opened read-only and closed again. */
export function readTables(path: string): Map<string, TableRows> {
  const db = new Database(path, { readonly: true, safeIntegers: true })
  try {
    const names = db
      .query(`select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`)
      .all() as { name: string }[]
    const tables = new Map<string, TableRows>()
    for (const { name } of names) {
      const info = db.query(`select name, pk, hidden from pragma_table_xinfo(?)`).all(name) as { name: string; pk: bigint; hidden: bigint }[]
      // hidden 1: a virtual table's hidden column (FTS5's rank and the table's own name), not data.
      const columns = info.filter((c) => c.hidden !== 1n).map((c) => c.name)
      const key = info.filter((c) => c.pk > 0n).sort((a, b) => Number(a.pk - b.pk)).map((c) => c.name)
      const list = columns.map((c) => `"${c}"`).join(', ')
      const rows = (db.query(`select ${list} from "${name}"`).all() as Record<string, unknown>[]).map((r) =>
        Object.fromEntries(columns.map((c) => [c, plain(r[c])])),
      )
      tables.set(name, { columns, key, rows })
    }
    return tables
  } finally {
    db.close()
  }
}

/** The value of `integrity_check` (`ok`, or the first problems found). */
export function integrityCheck(path: string): string {
  const db = new Database(path, { readonly: true })
  try {
    return (db.query('pragma integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check).join('\n')
  } finally {
    db.close()
  }
}

/**
 * The rows of `before` missing from `after` or changed there, in the columns `before` had: by primary key, or, for a
 * table without a usable one, as a multiset of whole rows. Rows only in `after` are not differences (a newer program adds rows).
 */
export function lostOrChanged(before: TableRows, after: TableRows): { row: Record<string, unknown>; now?: Record<string, unknown> }[] {
  const pick = (r: Record<string, unknown>) => JSON.stringify(before.columns.map((c) => r[c]))
  const problems: { row: Record<string, unknown>; now?: Record<string, unknown> }[] = []
  // SQLite lets a primary key other than an INTEGER one hold NULLs (drizzle's `id SERIAL PRIMARY KEY` does): such a
  // table is compared as whole rows too.
  const keyed = before.key.length > 0 && before.rows.every((r) => before.key.every((c) => r[c] !== null))
  if (keyed) {
    const keyOf = (r: Record<string, unknown>) => JSON.stringify(before.key.map((c) => r[c]))
    const byKey = new Map(after.rows.map((r) => [keyOf(r), r]))
    for (const row of before.rows) {
      const now = byKey.get(keyOf(row))
      if (!now || pick(now) !== pick(row)) problems.push({ row, now })
    }
  } else {
    const left = new Map<string, number>()
    for (const r of after.rows) left.set(pick(r), (left.get(pick(r)) ?? 0) + 1)
    for (const row of before.rows) {
      const n = left.get(pick(row)) ?? 0
      if (n === 0) problems.push({ row })
      else left.set(pick(row), n - 1)
    }
  }
  return problems
}
