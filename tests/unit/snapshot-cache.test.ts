import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChangeFeed, touches } from '../../db/change-feed'
import { closeDatabase, openDatabase } from '../../db/client'
import { SnapshotCache } from '../../db/snapshot-cache'
import { sqliteDb } from '../../db/sqlite'

// A real file, opened twice: the second connection is "another process" writing to the same database.
const dir = mkdtempSync(join(tmpdir(), 'brokernet-cache-'))
const db = openDatabase(join(dir, 'cache.db'))
const other = openDatabase(join(dir, 'cache.db'))
const feed = new ChangeFeed(db.$client)
const handle = sqliteDb(db)
afterAll(async () => {
  await handle.close()
  closeDatabase(other)
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})
let n = 0
const addCountry = (via = db) => via.$client.run('INSERT INTO countries (name, code) VALUES (?, ?)', [`Land ${++n}`, `L${n}`])

describe('SnapshotCache', () => {
  test('computes once until a change in the feed; writes the feed does not carry (sessions, audit) keep it', async () => {
    const cache = new SnapshotCache(feed)
    let runs = 0
    const read = () => cache.get('k', async () => ++runs)
    expect([await read(), await read()]).toEqual([1, 1])
    db.$client.run("INSERT INTO rate_limits (bucket, key, count, reset_at) VALUES ('b', 'k', 1, 0)")
    expect(await read()).toBe(1)
    addCountry()
    expect(await read()).toBe(2)
  })

  test("another connection's write is seen at the next lookup", async () => {
    const cache = new SnapshotCache(feed)
    let runs = 0
    const read = () => cache.get('k', async () => ++runs)
    await read()
    addCountry(other)
    expect(await read()).toBe(2)
  })

  test('drops only the entries a change affects', async () => {
    const cache = new SnapshotCache(feed)
    const runs: string[] = []
    const read = (k: string, affected: (c: Parameters<typeof touches>[0]) => boolean) => cache.get(k, async () => (runs.push(k), k), affected)
    const users = (c: Parameters<typeof touches>[0]) => touches(c, 'user')
    const places = (c: Parameters<typeof touches>[0]) => c.topic === 'geography'
    await read('users', users)
    await read('places', places)
    addCountry()
    await read('users', users)
    await read('places', places)
    expect(runs).toEqual(['users', 'places', 'places'])
  })

  test('changes of topics the cache is not computed from pass it by, even for entries any change would drop', async () => {
    const cache = new SnapshotCache(feed, { topics: ['user', 'listing'] })
    let runs = 0
    const read = () => cache.get('k', async () => ++runs)
    await read()
    addCountry() // geography: not this cache's
    expect(await read()).toBe(1)
    db.$client.run("INSERT INTO users (email, password_hash, full_name, role) VALUES (?, 'x', 'Topic Test', 'BROKER')", [`topic${n}@example.com`])
    expect(await read()).toBe(2)
  })

  test('inside a transaction nothing is cached or served from the cache', async () => {
    const cache = new SnapshotCache(feed)
    let runs = 0
    const read = () => cache.get('k', async () => ++runs)
    await read()
    db.$client.run('begin')
    expect(await read()).toBe(2)
    expect(await read()).toBe(3)
    db.$client.run('commit')
    expect(await read()).toBe(1)
  })

  test('a process that fell behind the kept feed forgets everything', async () => {
    const behind = new ChangeFeed(db.$client)
    const cache = new SnapshotCache(behind)
    let runs = 0
    const read = () => cache.get('k', async () => ++runs, () => false)
    await read()
    // The feed keeps the newest 10,000 changes (migration 0011): 10,001 more leave a gap for this follower.
    db.$client.transaction(() => {
      for (let i = 0; i < 10_001; i++) addCountry()
    })()
    expect(await read()).toBe(2)
  })

  test('past its entry limit the least recently used entry goes', async () => {
    const cache = new SnapshotCache(feed, { entries: 2 })
    const runs: string[] = []
    const read = (k: string) => cache.get(k, async () => (runs.push(k), k))
    await read('a')
    await read('b')
    await read('a') // a is now the most recent
    await read('c') // evicts b
    await read('a')
    await read('b')
    expect(runs).toEqual(['a', 'b', 'c', 'b'])
  })

  test('keeps within its weight, and never keeps an entry heavier than all of it', async () => {
    const cache = new SnapshotCache(feed, { weight: 10, weigh: (v) => String(v).length })
    let runs = 0
    const read = (k: string, v: string) => cache.get(k, async () => (runs++, v))
    await read('a', '123456')
    await read('b', '12345') // 11 > 10: a goes
    expect(cache.size).toBe(1)
    await read('b', 'x')
    expect(runs).toBe(2)
    await read('huge', 'x'.repeat(11))
    await read('huge', 'x'.repeat(11))
    expect(runs).toBe(4)
    expect(cache.size).toBe(1)
  })

  test('an adjustable answer is weighed again as changes grow it, and goes once the cache is over its weight', async () => {
    // Weight = the length of the kept list: each geography change appends 4 items to it.
    const cache = new SnapshotCache(feed, { weight: 10, weigh: (v) => (v as number[]).length })
    let runs = 0
    const read = () =>
      cache.adjustable(
        'window',
        handle,
        async () => (runs++, [1, 2]),
        (c) => c.topic === 'geography',
        (list) => [...list, 0, 0, 0, 0],
      )
    await read()
    addCountry()
    expect(await read()).toEqual([1, 2, 0, 0, 0, 0]) // 6: kept
    expect(cache.describe().weight).toBe(6)
    expect(runs).toBe(1)
    addCountry()
    await read() // 10: still kept
    expect(runs).toBe(1)
    addCountry()
    // 14 > 10: evicted as the change is applied, so computed again.
    expect(await read()).toEqual([1, 2])
    expect(runs).toBe(2)
    expect(cache.describe().weight).toBe(2)
  })

  test('a change weighs again only the adjustable answers it moved (weighing walks a window of ids)', async () => {
    const weighed: string[] = []
    const cache = new SnapshotCache(feed, { weight: 1000, weigh: (v) => (weighed.push(String(v)), (v as number[]).length) })
    const read = (key: string, moves: boolean) =>
      cache.adjustable(
        key,
        handle,
        async () => [1, 2],
        (c) => c.topic === 'geography',
        // One answer grows with each change; the other is told of it and stays as it is (the same value back).
        (list) => (moves ? [...list, 0] : list),
      )
    await read('moves', true)
    await read('stays', false)
    weighed.length = 0
    addCountry()
    addCountry()
    expect(await read('moves', true)).toEqual([1, 2, 0, 0])
    expect(await read('stays', false)).toEqual([1, 2])
    expect(weighed).toEqual(['1,2,0,0'])
    expect(cache.describe().weight).toBe(6)
  })

  test('an adjustable answer is kept up to date change by change, each change counted once, even one committed while it was computed', async () => {
    const cache = new SnapshotCache(feed)
    const countries = () => db.$client.query<{ n: number }, []>('select count(*) as n from countries').get()!.n
    let runs = 0
    let writeDuring = true
    let adjustable = true
    const read = () =>
      cache.adjustable(
        'countries',
        handle,
        async () => {
          runs++
          // Another process commits while this one computes: either in the answer and its feed position, or neither.
          if (writeDuring) addCountry(other)
          writeDuring = false
          return countries()
        },
        (c) => c.topic === 'geography',
        // Geography changes carry no rows: in this test each is one more country, until it says it cannot tell.
        (n) => (adjustable ? n + 1 : undefined),
      )
    // A change committed while it computed may or may not be in the answer: it is computed again, at a quiet moment.
    expect(await read()).toBe(countries())
    expect(runs).toBe(2)
    expect(await read()).toBe(countries())
    addCountry()
    addCountry(other)
    expect(await read()).toBe(countries())
    expect(runs).toBe(2)
    // A change the adjustment cannot take drops it: computed again.
    adjustable = false
    other.$client.run("UPDATE countries SET name = name || '!' WHERE id = (SELECT max(id) FROM countries)")
    expect(await read()).toBe(countries())
    expect(runs).toBe(3)
  })

  test('an answer computed while another request synced the feed is served but not kept (the changes handed out then would miss it)', async () => {
    const cache = new SnapshotCache(feed)
    let runs = 0
    const read = () =>
      cache.get('k', async () => {
        runs++
        if (runs === 1) {
          await Promise.resolve()
          addCountry(other)
          feed.sync() // another request's lookup, between this one's statements
        }
        return runs
      })
    expect(await read()).toBe(1)
    expect(await read()).toBe(2)
    expect(await read()).toBe(2)
  })

  test('…unless none of the changes handed out meanwhile could alter it', async () => {
    const cache = new SnapshotCache(feed)
    let runs = 0
    const read = () =>
      cache.get(
        'k',
        async () => {
          runs++
          await Promise.resolve()
          addCountry(other)
          feed.sync()
          return runs
        },
        (c) => c.topic === 'user',
      )
    expect(await read()).toBe(1)
    expect(await read()).toBe(1)
  })
})
