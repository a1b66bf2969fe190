// The change feed's glance at the wal-index header (db/wal-index.ts, issue 36, docs/decisions/074-sync-gate.md): it may
// skip asking SQLite only while nothing has committed. Another connection's commits (another process, as far as SQLite
// can tell), this connection's own, and a log restarted after a checkpoint must each be seen by the very next look;
// and the feed built on it must hand another connection's write to its listeners at the next sync.
import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/client'
import { sqliteSource } from '../../db/open'
import type { FeedEvent } from '../../db/change-feed'
import { WalIndexGate } from '../../db/wal-index'

const dir = mkdtempSync(join(tmpdir(), 'brokernet-wal-index-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function walPair(name: string): [Database, Database] {
  const a = new Database(join(dir, name), { create: true })
  a.run('PRAGMA journal_mode = WAL')
  a.run('create table t (id integer primary key, v text)')
  const b = new Database(join(dir, name))
  b.run('PRAGMA busy_timeout = 5000')
  return [a, b]
}

test("every commit of another connection, of the gate's own, and a restarted log are seen at the next look", () => {
  const [a, b] = walPair('gate.db')
  const gate = WalIndexGate.open(a)!
  expect(gate).not.toBeNull()
  expect(gate.unchanged()).toBe(false) // the first look has nothing to compare with
  expect(gate.unchanged()).toBe(true)
  // Reads, of either connection, change nothing.
  a.query('select count(*) from t').get()
  b.query('select count(*) from t').get()
  expect(gate.unchanged()).toBe(true)
  for (let i = 0; i < 500; i++) {
    b.run('insert into t (v) values (?)', [`b${i}`])
    expect(gate.unchanged()).toBe(false)
    expect(gate.unchanged()).toBe(true)
  }
  a.run('insert into t (v) values (?)', ['own'])
  expect(gate.unchanged()).toBe(false)
  // A checkpoint that empties the log, then a write that starts it again from its first frame (new salts).
  b.run('PRAGMA wal_checkpoint(TRUNCATE)')
  gate.unchanged()
  b.run('insert into t (v) values (?)', ['after the restart'])
  expect(gate.unchanged()).toBe(false)
  // A transaction rolled back commits nothing.
  expect(gate.unchanged()).toBe(true)
  b.run('begin immediate')
  b.run('insert into t (v) values (?)', ['rolled back'])
  b.run('rollback')
  expect(gate.unchanged()).toBe(true)
  b.close()
  a.close()
})

test('no gate where there is no wal-index file: an in-memory database, a rollback journal', () => {
  const memory = new Database(':memory:')
  expect(WalIndexGate.open(memory)).toBeNull()
  memory.close()
  const journal = new Database(join(dir, 'journal.db'), { create: true })
  journal.run('PRAGMA journal_mode = DELETE')
  journal.run('create table t (id integer primary key)')
  expect(WalIndexGate.open(journal)).toBeNull()
  journal.close()
})

test("the feed hands another connection's write to its listeners at the next sync, and skips SQLite while nothing committed", async () => {
  const path = join(dir, 'feed.db')
  const source = sqliteSource(openDatabase(path), { readThreads: 0 })
  const other = new Database(path)
  other.run('PRAGMA busy_timeout = 5000')
  const heard: FeedEvent[] = []
  source.feed.subscribe((e) => heard.push(e))
  // A country's change carries no row (migration 0011): each insert is one geography change, heard once.
  const geography = () => heard.flatMap((e) => ('changes' in e ? e.changes : [])).filter((c) => c.topic === 'geography').length
  try {
    expect(source.feed.sync()).toBe(true)
    for (let i = 0; i < 50; i++) {
      other.run('insert into countries (name, code) values (?, ?)', [`Elsewhere ${i}`, `E${i}`])
      expect(source.feed.sync()).toBe(true)
      expect(geography()).toBe(i + 1)
    }
    // Nothing committed: the statement that reads the feed's rows is not run (a listener would hear a repeat).
    const before = heard.length
    for (let i = 0; i < 100; i++) source.feed.sync()
    expect(heard.length).toBe(before)
  } finally {
    other.close()
    await source.close()
  }
})
