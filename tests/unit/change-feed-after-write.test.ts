// The change feed reads this process's own writes right after them, on a timer, not only when the next request asks
// (issue 36, docs/decisions/073-single-insert.md): a POST's feed rows were read, and the caches told, at the start of
// the next request, whose answer waited for them. A single write and a transaction alike; nothing after close.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/client'
import { sqliteSource, type DataSource } from '../../db/open'
import type { FeedEvent } from '../../db/change-feed'

const dir = mkdtempSync(join(tmpdir(), 'brokernet-feed-after-write-'))
let source: DataSource
const heard: FeedEvent[] = []

beforeAll(() => {
  source = sqliteSource(openDatabase(join(dir, 'feed.db')), { readThreads: 0 })
  source.feed.subscribe((e) => heard.push(e))
})
afterAll(async () => {
  await source.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Waits (generously) for the listener to have heard `count` geography changes, with no read asking meanwhile. */
async function heardGeography(count: number): Promise<number> {
  const n = () => heard.flatMap((e) => ('changes' in e ? e.changes : [])).filter((c) => c.topic === 'geography').length
  for (const deadline = performance.now() + 10_000; n() < count && performance.now() < deadline; ) await Bun.sleep(5)
  return n()
}

test('a single write and a transaction are read by the feed after them, without a request', async () => {
  await source.db.run('insert into countries (name, code) values (?, ?)', ['Feedland', 'FL'])
  expect(await heardGeography(1)).toBe(1)
  await source.db.tx(async (tx) => {
    await tx.run('insert into countries (name, code) values (?, ?)', ['Feedland Two', 'F2'])
    await tx.run('insert into countries (name, code) values (?, ?)', ['Feedland Three', 'F3'])
  })
  expect(await heardGeography(3)).toBe(3)
})
