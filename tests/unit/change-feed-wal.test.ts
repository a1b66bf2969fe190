// Issue 36: the change feed skips its statement while the WAL index's header is unchanged (db/change-feed.ts). Every
// commit of any connection must still reach the next sync: other connections' (other processes'), this one's, and
// those after a checkpoint has let the log start over (new salts, frame count back to zero).
import { afterAll, expect, test } from 'bun:test'
import { Database as SQLite } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChangeFeed, type Change } from '../../db/change-feed'
import { closeDatabase, openDatabase } from '../../db/client'

const dir = mkdtempSync(join(tmpdir(), 'brokernet-feed-wal-'))
const path = join(dir, 'feed.db')
const db = openDatabase(path)
db.$client.exec('PRAGMA wal_autocheckpoint = 0')
const other = openDatabase(path)
const checkpointer = new SQLite(path)
const feed = new ChangeFeed(db.$client)
const seen: Change[] = []
feed.subscribe((event) => {
  if ('changes' in event) seen.push(...event.changes)
})
afterAll(() => {
  feed.close()
  checkpointer.close()
  closeDatabase(other)
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

let n = 0
const addCountry = (via: SQLite) => via.run('INSERT INTO countries (name, code) VALUES (?, ?)', [`Land ${++n}`, `L${n}`])
const countries = () => seen.filter((c) => c.topic === 'geography').length

test('the database is in WAL mode, as the server runs it', () => {
  expect((db.$client.query('pragma journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal')
})

test("every commit is in the next sync, whoever made it, across checkpoints that restart the log; nothing is delivered twice", () => {
  expect(feed.sync()).toBe(true)
  const before = countries()
  let expected = before
  for (let round = 0; round < 60; round++) {
    // Nothing new: a sync delivers nothing.
    expect(feed.sync()).toBe(true)
    expect(countries()).toBe(expected)
    addCountry(round % 3 === 0 ? db.$client : other.$client)
    expected++
    if (round % 7 === 3) checkpointer.query('PRAGMA wal_checkpoint(TRUNCATE)').get()
    expect(feed.sync()).toBe(true)
    expect(countries()).toBe(expected)
  }
})

test('a checkpoint alone (no commit) delivers nothing and loses nothing', () => {
  feed.sync()
  const before = countries()
  checkpointer.query('PRAGMA wal_checkpoint(TRUNCATE)').get()
  expect(feed.sync()).toBe(true)
  expect(countries()).toBe(before)
  addCountry(other.$client)
  expect(feed.sync()).toBe(true)
  expect(countries()).toBe(before + 1)
})
