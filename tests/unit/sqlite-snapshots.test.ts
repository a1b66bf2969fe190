// No read of the data layer leaves a snapshot open (docs/decisions/030-wal.md). A statement stepped and not reset keeps
// its connection's read transaction, and with it the log: a checkpoint can then neither copy what was committed after
// that snapshot nor let the log start over, and the write-ahead log grows for as long as the statement lies in the
// cache (db/statements.ts). bun:sqlite resets a statement after get(), all(), values() and run(), also when one fails
// midway; this holds it to that, through the data layer's own paths.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database as SQLite } from 'bun:sqlite'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChangeFeed } from '../../db/change-feed'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { sqliteDb, type SqliteDb } from '../../db/sqlite'

const dir = mkdtempSync(join(tmpdir(), 'brokernet-snapshots-'))
const path = join(dir, 'snapshots.db')
let db: Database
let layer: SqliteDb
let feed: ChangeFeed
/** A third connection, as the checkpointer's: TRUNCATE without waiting for anyone. */
let checkpointer: SQLite

beforeAll(() => {
  db = openDatabase(path)
  db.$client.exec('PRAGMA wal_autocheckpoint = 0')
  layer = sqliteDb(db)
  feed = new ChangeFeed(layer.reader)
  checkpointer = new SQLite(path)
  checkpointer.exec('PRAGMA busy_timeout = 0')
})
afterAll(async () => {
  checkpointer.close()
  feed.close()
  await layer.close()
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

let n = 0
const write = () => layer.run('INSERT INTO countries (name, code) VALUES (?, ?)', [`Land ${++n}`, `L${n}`])

/** Commits a write, then TRUNCATE from another connection: whether the log could start over (and its file is empty). */
async function logCanStartOver(): Promise<boolean> {
  await write()
  const { busy } = checkpointer.query('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number }
  return busy === 0 && statSync(`${path}-wal`).size === 0
}

test('a statement left stepped holds the log (the probe sees a held snapshot)', async () => {
  for (let i = 0; i < 5; i++) await write()
  const held = layer.reader.prepare('SELECT id FROM countries')
  const rows = held.iterate()
  rows.next()
  expect(await logCanStartOver()).toBe(false)
  rows.return?.()
  held.finalize()
  expect(await logCanStartOver()).toBe(true)
})

test('after every kind of read the data layer makes, the log can start over', async () => {
  const reads: [string, () => Promise<unknown>][] = [
    ['all', () => layer.all('SELECT id, name FROM countries')],
    ['get of one row', () => layer.get('SELECT count(*) AS n FROM countries')],
    ['get of a query with many rows', () => layer.get('SELECT id FROM countries ORDER BY id')],
    ['a read that fails midway', () => layer.all("SELECT json(CASE WHEN id = 3 THEN '{bad' ELSE '1' END) FROM countries").catch(() => null)],
    ['a write with RETURNING', () => layer.run("UPDATE countries SET name = name WHERE id <= 3 RETURNING id")],
    ['a transaction that reads', () => layer.tx(async (tx) => [await tx.get('SELECT id FROM countries ORDER BY id'), await tx.all('SELECT id FROM countries')])],
    ['a transaction that fails', () => layer.tx(async (tx) => (await tx.get('SELECT id FROM countries'), Promise.reject(new Error('no')))).catch(() => null)],
    ['the change feed catching up', async () => feed.sync()],
  ]
  const held: string[] = []
  for (const [what, read] of reads) {
    await read()
    if (!(await logCanStartOver())) held.push(what)
  }
  expect(held).toEqual([])
})
