import { existsSync, readdirSync } from 'node:fs'
import { connectPostgres } from '../../../db/postgres'
import { migrationJournal } from '../../../db/pg/migrations'
import { MARK_RESTORED_RUNS } from './runs'
import { levelOf, RestoreRefused, type DatabaseFacts } from './sqlite'

/**
 * PostgreSQL's own tools do its backups: pg_dump reads one consistent snapshot of a live database and pg_restore loads
 * it; identity documents are rows of the `documents` table there, so the dump holds them. On PATH first, then where
 * Debian installs each server version (newest first): pg_dump must be at least as new as the server.
 */
export function findPgTool(name: 'pg_dump' | 'pg_restore'): string {
  const onPath = Bun.which(name)
  if (onPath) return onPath
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : []
  for (const v of versions) if (existsSync(`${root}/${v}/bin/${name}`)) return `${root}/${v}/bin/${name}`
  throw new Error(`${name} was not found: install PostgreSQL's client programs (Debian: apt-get install postgresql-client) to back up or restore a PostgreSQL database`)
}

/**
 * How pg_dump and pg_restore are told the database: the URL without its password, which goes in PGPASSWORD instead, so
 * no other user of the machine reads it in the process list. (libpq reads postgres.js's `?host=/socket/dir` as its own.)
 */
function connection(url: string): { dbname: string; env: Record<string, string | undefined> } {
  const parsed = new URL(url)
  const password = decodeURIComponent(parsed.password)
  parsed.password = ''
  return { dbname: `--dbname=${parsed.toString()}`, env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } }
}

/**
 * Dumps the database into `into` (pg_dump's custom format). The counts are read in the very snapshot pg_dump dumps:
 * a repeatable-read transaction exports it, and pg_dump joins it with --snapshot while the transaction stays open.
 */
export async function dumpPostgres(url: string, into: string): Promise<DatabaseFacts> {
  const pgDump = findPgTool('pg_dump')
  const sql = connectPostgres(url, { max: 1 })
  try {
    await sql`select 1`
    const held = await sql.reserve()
    try {
      await held.unsafe('begin isolation level repeatable read read only')
      const [{ id }] = await held.unsafe<{ id: string }[]>('select pg_export_snapshot() as id')
      const facts = await factsOf((text) => held.unsafe(text))
      const { dbname, env } = connection(url)
      const dump = Bun.spawn([pgDump, '--format=custom', '--no-owner', '--no-privileges', `--snapshot=${id}`, `--file=${into}`, dbname], {
        env,
        stdout: 'ignore',
        stderr: 'pipe',
      })
      const [code, errors] = await Promise.all([dump.exited, new Response(dump.stderr).text()])
      if (code !== 0) throw new Error(`pg_dump failed: ${errors.trim().split('\n').at(-1) ?? `exit code ${code}`}`)
      await held.unsafe('commit')
      return facts
    } finally {
      held.release()
    }
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/**
 * Loads a dump into the database of `url`. It must hold no tables unless `force` (then pg_restore drops what the dump
 * replaces first), and no other connection may be open on it (a server would go on with a database changed under it).
 */
export async function restorePostgres(url: string, dumpFile: string, force: boolean): Promise<void> {
  const pgRestore = findPgTool('pg_restore')
  const sql = connectPostgres(url, { max: 1 })
  let filled: boolean
  try {
    const [{ others }] = await sql.unsafe<{ others: number }[]>(
      'select count(*)::int as others from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    )
    if (others > 0) throw new RestoreRefused(`${others} other connection(s) are open on this database (a running Brokernet?): stop them first`)
    const [{ tables }] = await sql.unsafe<{ tables: number }[]>("select count(*)::int as tables from pg_tables where schemaname in ('public', 'drizzle')")
    filled = tables > 0
  } finally {
    await sql.end({ timeout: 5 })
  }
  if (filled && !force)
    throw new RestoreRefused('the database of DATABASE_URL already holds tables: restore into an empty database, or add --force to replace them')
  const { dbname, env } = connection(url)
  const args = [pgRestore, '--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dbname]
  if (filled) args.push('--clean', '--if-exists')
  const restore = Bun.spawn([...args, dumpFile], { env, stdout: 'ignore', stderr: 'pipe' })
  const [code, errors] = await Promise.all([restore.exited, new Response(restore.stderr).text()])
  if (code !== 0) throw new Error(`pg_restore failed: ${errors.trim().split('\n').at(-1) ?? `exit code ${code}`}`)
}

/** Counts and migration level of the database of `url`, as a restore checks them. */
export async function factsOfPostgres(url: string): Promise<DatabaseFacts> {
  const sql = connectPostgres(url, { max: 1 })
  try {
    return await factsOf((text) => sql.unsafe(text))
  } finally {
    await sql.end({ timeout: 5 })
  }
}

async function factsOf(query: (text: string) => Promise<any[]>): Promise<DatabaseFacts> {
  const tables = (await query("select tablename as name from pg_tables where schemaname = 'public' order by tablename")) as { name: string }[]
  const counts: Record<string, number> = {}
  for (const { name } of tables) counts[name] = Number((await query(`select count(*) as n from "${name.replaceAll('"', '""')}"`))[0].n)
  let migrations: DatabaseFacts['migrations'] = { count: 0, last: null, lastWhen: null }
  // Asked first, not tried: an error would end the transaction whose snapshot pg_dump is about to join.
  const [{ migrated }] = await query("select to_regclass('drizzle.__drizzle_migrations') is not null as migrated")
  if (migrated) {
    const [row] = await query('select count(*) as n, max(created_at) as last from drizzle.__drizzle_migrations')
    migrations = levelOf(Number(row.n), row.last === null ? null : Number(row.last), migrationJournal)
    counts.__drizzle_migrations = Number(row.n)
  }
  // The documents travel inside the dump: their count is enough (names are what SQLite's archive needs).
  return { counts, migrations, documents: [] }
}

/** Marks the runs the dump caught under way as interrupted (runs.ts MARK_RESTORED_RUNS). */
export async function markRestoredRunsPostgres(url: string): Promise<void> {
  const sql = connectPostgres(url, { max: 1 })
  try {
    const [{ present }] = await sql.unsafe<{ present: boolean }[]>("select to_regclass('public.backup_runs') is not null as present")
    if (present) await sql.unsafe(MARK_RESTORED_RUNS)
  } finally {
    await sql.end({ timeout: 5 })
  }
}
