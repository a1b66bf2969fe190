// A process that writes transaction after transaction keeps the write-ahead log bounded by itself (docs/decisions/
// 030-wal.md). The server's checkpointer thread needs the write lock for a moment to let the log start over, and such
// a process never leaves it one (bench:wal: a batch of reminder mails took the log to 838 MB). SQLite's own
// checkpoint is off, as in the server: 120 MB of transactions go through the data layer back to back, with reads in
// between, and the log file never passes WRITER_TRUNCATE_BYTES by more than one transaction, with no checkpointer at
// all (as if it were starved) and with the server's checkpointer thread running beside (neither in the other's way).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startCheckpointer } from '../../db/checkpointer'
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

async function backToBack(megabytes: number): Promise<number> {
  const body = new Uint8Array(256 * 1024).fill(7) // 64 pages, and a few of the table's b-tree
  let largest = 0
  for (let i = 0; i < (megabytes * MB) / body.length; i++) {
    await layer.tx(async (tx) => {
      await tx.run('INSERT INTO blobs (body) VALUES (?)', [body])
      // Keeps the table from growing the file: the log holds the pages all the same.
      await tx.run('DELETE FROM blobs WHERE id < (SELECT max(id) FROM blobs) - 4')
    })
    await layer.get('SELECT count(*) AS n FROM blobs')
    largest = Math.max(largest, walFileSize(path))
  }
  return largest
}

test('120 MB of back-to-back transactions and no checkpointer: the log file stays within WRITER_TRUNCATE_BYTES and one transaction', async () => {
  const largest = await backToBack(120)
  expect(largest).toBeGreaterThan(WRITER_TRUNCATE_BYTES / 2) // the writes did go through the log
  expect(largest).toBeLessThanOrEqual(WRITER_TRUNCATE_BYTES + 2 * MB)
})

test('the same with the checkpointer thread running', async () => {
  const checkpointer = startCheckpointer(path)
  try {
    expect(await backToBack(120)).toBeLessThanOrEqual(WRITER_TRUNCATE_BYTES + 2 * MB)
  } finally {
    await checkpointer.stop()
  }
})
