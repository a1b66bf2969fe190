import { afterAll, describe, expect, test } from 'bun:test'
import { closeDatabase, openDatabase } from '../../db/client'
import { SnapshotCache } from '../../db/snapshot-cache'

const db = openDatabase(':memory:')
afterAll(() => closeDatabase(db))

describe('SnapshotCache', () => {
  test('computes once until the database changes', () => {
    const cache = new SnapshotCache()
    let runs = 0
    const read = () => cache.get(db, 'k', () => ++runs)
    expect([read(), read()]).toEqual([1, 1])
    db.$client.exec("INSERT INTO countries (name, code) VALUES ('Snapshotland', 'SN')")
    expect(read()).toBe(2)
  })

  test('past its entry limit the least recently used entry goes', () => {
    const cache = new SnapshotCache({ entries: 2 })
    const runs: string[] = []
    const read = (k: string) => cache.get(db, k, () => (runs.push(k), k))
    read('a')
    read('b')
    read('a') // a is now the most recent
    read('c') // evicts b
    read('a')
    read('b')
    expect(runs).toEqual(['a', 'b', 'c', 'b'])
  })

  test('keeps within its weight, and never keeps an entry heavier than all of it', () => {
    const cache = new SnapshotCache({ weight: 10, weigh: (v) => String(v).length })
    let runs = 0
    const read = (k: string, v: string) => cache.get(db, k, () => (runs++, v))
    read('a', '123456')
    read('b', '12345') // 11 > 10: a goes
    expect(cache.size).toBe(1)
    read('b', 'x')
    expect(runs).toBe(2)
    read('huge', 'x'.repeat(11))
    read('huge', 'x'.repeat(11))
    expect(runs).toBe(4)
    expect(cache.size).toBe(1)
  })
})
