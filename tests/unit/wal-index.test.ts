// The change feed's glance at the wal-index header (db/wal-index.ts, issue 36, docs/decisions/074-sync-gate.md): it may
// skip asking SQLite only while nothing has committed. Another connection's commits (another process, as far as SQLite
// can tell), this connection's own, and a log restarted after a checkpoint must each be seen by the very next look;
// the feed built on it must hand another connection's write to its listeners at the next sync; and setting it up must
// leave SQLite's locks on the file as they were (the first version's `Bun.mmap` closed a descriptor, which released
// them, and a connection opened later by another process took itself for the first and truncated the wal-index).
import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs'
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

/** The `fcntl` locks this process holds on a file, as the kernel lists them (Linux). */
function locksHeld(path: string): number {
  const inode = String(statSync(path).ino)
  return readFileSync('/proc/locks', 'utf8').split('\n').filter((line) => {
    const f = line.trim().split(/\s+/)
    // "1: POSIX  ADVISORY  READ 1234 08:01:5678 128 128": the pid, then major:minor:inode.
    return f[1] === 'POSIX' && f[4] === String(process.pid) && f[5]?.split(':')[2] === inode
  }).length
}

/** This process's open descriptors of a file. */
function descriptorsOf(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try { return readlinkSync(`/proc/self/fd/${fd}`) === path } catch { return false }
  }).length
}

test.if(process.platform === 'linux')("setting up and using the gate keeps SQLite's locks on the wal-index, and one descriptor serves every gate on a file", () => {
  const [a, b] = walPair('locks.db')
  const shm = join(dir, 'locks.db-shm')
  b.run('insert into t (v) values (?)', ['first'])
  const locks = locksHeld(shm)
  // SQLite's shared lock on the file (its "DMS" lock), held while this process has the database open.
  expect(locks).toBeGreaterThanOrEqual(1)
  const gates = [WalIndexGate.open(a)!, WalIndexGate.open(b)!, WalIndexGate.open(a)!]
  for (let i = 0; i < 100; i++) {
    for (const gate of gates) gate.unchanged()
    if (i % 10 === 0) b.run('insert into t (v) values (?)', [`w${i}`])
  }
  expect(locksHeld(shm)).toBe(locks)
  expect(descriptorsOf(shm)).toBeLessThanOrEqual(2) // SQLite's own and the gates' one
  b.close()
  a.close()
})

test.if(process.platform === 'linux')('a connection another process opens after the gate is set up neither truncates the wal-index nor goes unheard', async () => {
  const path = join(dir, 'other-process.db')
  const source = sqliteSource(openDatabase(path), { readThreads: 0 })
  const heard: FeedEvent[] = []
  source.feed.subscribe((e) => heard.push(e))
  const geography = () => heard.flatMap((e) => ('changes' in e ? e.changes : [])).filter((c) => c.topic === 'geography').length
  try {
    expect(source.feed.sync()).toBe(true)
    source.feed.sync()
    const shm = `${path}-shm`
    const locks = locksHeld(shm)
    expect(locks).toBeGreaterThanOrEqual(1)
    // Another process that writes a country and closes: it must find the wal-index in use, not start it afresh (a
    // first connection truncates the file and rebuilds it from the log, under this process's readers). It reads the
    // header's count of write transactions (\`iChange\`, the third word) before it opens and after it closed: one more
    // on the same count, where a rebuilt wal-index starts counting again. (Read there: a descriptor closed here would
    // release this process's locks, which is what is being tested.)
    const code = `
      import { Database } from 'bun:sqlite'
      import { closeSync, openSync, readSync } from 'node:fs'
      const writes = () => { const fd = openSync(${JSON.stringify(shm)}, 'r'); const w = new Uint32Array(3); readSync(fd, w, 0, 12, 0); closeSync(fd); return w[2] }
      const before = writes()
      const db = new Database(${JSON.stringify(path)})
      db.run('PRAGMA busy_timeout = 5000')
      db.run("insert into countries (name, code) values ('Elsewhere', 'EW')")
      db.close()
      console.log(JSON.stringify({ more: writes() - before }))`
    const child = Bun.spawnSync([process.execPath, '-e', code], { stdout: 'pipe', stderr: 'pipe' })
    expect(child.stderr.toString()).toBe('')
    expect(JSON.parse(child.stdout.toString())).toEqual({ more: 1 })
    expect(locksHeld(shm)).toBe(locks)
    expect(source.feed.sync()).toBe(true)
    expect(geography()).toBe(1)
  } finally {
    await source.close()
  }
})
