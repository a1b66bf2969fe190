// A process that writes transaction after transaction keeps the write-ahead log bounded by itself (docs/decisions/
// 0XX-wal.md). The server's checkpointer thread needs the write lock for a moment to let the log start over, and such
// a process never leaves it one (bench:wal: a batch of reminder mails took the log to 838 MB). Here no checkpointer
// runs at all, as if it were starved, and SQLite's own is off, as in the server: 120 MB of transactions go through
// the data layer back to back, with reads in between, and the log file never passes WRITER_TRUNCATE_BYTES by more than
// one transaction.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { sqliteDb, type SqliteDb } from '../../db/sqlite'
import { walFileSize, WRITER_TRUNCATE_BYTES } from '../../db/wal'

const MB = 1024 * 1024
const dir = mkdtempSync(join(tmpdir(), 'brokernet-wal-writer-'))
const path = join(dir, 'wal.db')
let db: Database
let layer: SqliteDb

beforeAll(() => {
  db = openDatabase(path)
  db.$client.exec('PRAGMA wal_autocheckpoint = 0')
  db.$client.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)')
  layer = sqliteDb(db)
})
afterAll(async () => {
  await layer.close()
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

test('120 MB of back-to-back transactions: the log file stays within WRITER_TRUNCATE_BYTES and one transaction', async () => {
  const body = new Uint8Array(256 * 1024).fill(7) // 64 pages, and a few of the table's b-tree
  const transactions = (120 * MB) / body.length
  let largest = 0
  for (let i = 0; i < transactions; i++) {
    await layer.tx(async (tx) => {
      await tx.run('INSERT INTO blobs (body) VALUES (?)', [body])
      // Keeps the table from growing the file: the log holds the pages all the same.
      await tx.run('DELETE FROM blobs WHERE id < (SELECT max(id) FROM blobs) - 4')
    })
    await layer.get('SELECT count(*) AS n FROM blobs')
    largest = Math.max(largest, walFileSize(path))
  }
  expect(largest).toBeGreaterThan(WRITER_TRUNCATE_BYTES / 2) // the writes did go through the log
  expect(largest).toBeLessThanOrEqual(WRITER_TRUNCATE_BYTES + 2 * MB)
})
