import { Database as SQLite } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate as drizzleMigrate } from 'drizzle-orm/bun-sqlite/migrator'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { readFileSync } from 'node:fs'
import { openDatabase } from '../../db/client'
import { embeddedMigrations } from '../../db/migrate'

const folder = new URL('../../db/migrations', import.meta.url).pathname

test('the embedded migrations are exactly what drizzle reads from disk (statements, time, hash)', () => {
  const fromDisk = readMigrationFiles({ migrationsFolder: folder })
  expect(embeddedMigrations()).toEqual(fromDisk)
})

test('db/migrations/index.ts embeds every migration of the journal (run bun run db:generate after a schema change)', () => {
  const journal = JSON.parse(readFileSync(`${folder}/meta/_journal.json`, 'utf8'))
  const index = readFileSync(`${folder}/index.ts`, 'utf8')
  for (const entry of journal.entries) expect(index).toContain(`'${entry.tag}': `)
})

test("a database migrated by the app is up to date for drizzle's own migrator, and the reverse", () => {
  const ours = openDatabase(':memory:')
  drizzleMigrate(ours, { migrationsFolder: folder }) // nothing left to apply: would throw on re-creating tables
  expect(ours.$client.query('select count(*) as n from __drizzle_migrations').get()).toEqual({ n: embeddedMigrations().length })

  const path = `${require('node:os').tmpdir()}/brokernet-migrate-${process.pid}.db`
  const theirs = new SQLite(path, { create: true })
  drizzleMigrate(drizzle({ client: theirs }), { migrationsFolder: folder })
  theirs.close()
  const reopened = openDatabase(path) // applies nothing twice
  expect(reopened.$client.query('select count(*) as n from __drizzle_migrations').get()).toEqual({ n: embeddedMigrations().length })
  reopened.$client.close()
  require('node:fs').rmSync(path, { force: true })
})

test('the database runs with WAL, foreign keys and a busy timeout', () => {
  const db = openDatabase(`${require('node:os').tmpdir()}/brokernet-pragmas-${process.pid}.db`)
  const q = (p: string) => Object.values(db.$client.query(`PRAGMA ${p}`).get() as object)[0]
  expect(q('journal_mode')).toBe('wal')
  expect(q('foreign_keys')).toBe(1)
  expect(q('busy_timeout')).toBe(5000)
  expect(q('synchronous')).toBe(1) // NORMAL
  db.$client.close()
})
