// Every row of every table of a PostgreSQL database (the app's tables in `public`, drizzle's in `drizzle`), in the
// form tests/support/sqlite-rows.ts gives a SQLite file's, so lostOrChanged compares either.
import postgres from 'postgres'
import type { TableRows } from './sqlite-rows'

/** Dates as ISO text, bytea as hex: rows compare (and print) as plain JSON. */
const plain = (v: unknown) => (v instanceof Date ? v.toISOString() : v instanceof Uint8Array ? `\\x${Buffer.from(v).toString('hex')}` : v)

/** A connection to `url` (a Unix-socket URL as tests/support/postgres.ts gives works too). */
export function connect(url: string) {
  const socket = new URL(url).searchParams.get('host')
  return postgres(url.replace(/\?.*$/, ''), { max: 1, onnotice: () => {}, ...(socket ? { host: socket } : {}) })
}

/** Tables by name (schema left out: no name is in both). */
export async function readPgTables(url: string): Promise<Map<string, TableRows>> {
  const sql = connect(url)
  try {
    const tables = await sql<{ schema: string; name: string }[]>`
      select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by table_name`
    const result = new Map<string, TableRows>()
    for (const { schema, name } of tables) {
      const columns = (
        await sql<{ name: string }[]>`select column_name as name from information_schema.columns
          where table_schema = ${schema} and table_name = ${name} order by ordinal_position`
      ).map((c) => c.name)
      const key = (
        await sql<{ name: string }[]>`select k.column_name as name from information_schema.table_constraints c
          join information_schema.key_column_usage k on k.constraint_schema = c.constraint_schema and k.constraint_name = c.constraint_name
          where c.constraint_type = 'PRIMARY KEY' and c.table_schema = ${schema} and c.table_name = ${name} order by k.ordinal_position`
      ).map((c) => c.name)
      const rows = (await sql.unsafe(`select * from "${schema}"."${name}"`)).map((r: Record<string, unknown>) =>
        Object.fromEntries(columns.map((c) => [c, plain(r[c])])),
      )
      result.set(name, { columns, key, rows })
    }
    return result
  } finally {
    await sql.end()
  }
}
