// Writes first (issue 36, src/platform/http/write-lane.ts): reads wait their turn, one per turn of the event loop; a
// write is worked as soon as it is read. In process, where the order is deterministic: every request below is handed to
// the app in one go, as a turn of the loop hands it the requests its sockets hold. (The lane is the platform's first
// plugin after the request log in src/app.ts; WRITE_LANE=0 leaves it out.)
import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { ReadLane, writeLane } from '../../src/platform/http/write-lane'
import { loadConfig, ConfigError } from '../../src/platform/config'

describe('ReadLane', () => {
  test('once reads wait, lets them through in their order, the loop turning in between', async () => {
    const lane = new ReadLane(0) // no budget: every read waits
    const order: string[] = []
    const reads = [1, 2, 3].map((n) => lane.turn()!.then(() => void order.push(`read ${n}`)))
    // Scheduled after the lane's first turn: it runs before the lane's second, as a poll of the sockets does.
    setImmediate(() => order.push('next turn'))
    await Promise.all(reads)
    expect(order).toEqual(['read 1', 'next turn', 'read 2', 'read 3'])
    expect(lane.length).toBe(0)
  })

  test('within the turn’s budget a read goes at once; a read behind waiting ones waits', async () => {
    const lane = new ReadLane(60_000)
    expect(lane.turn()).toBeNull()
    expect(lane.turn()).toBeNull()
    const strict = new ReadLane(0)
    const first = strict.turn()
    expect(first).not.toBeNull()
    await first
    // Ran dry: the next one waits again (no budget), and is let through.
    await strict.turn()
    expect(strict.length).toBe(0)
  })
})

test('WRITE_LANE is 0 (the default) or 1', () => {
  expect(loadConfig({ DATA_DIR: '/tmp/x' }).writeLane).toBe(false)
  expect(loadConfig({ DATA_DIR: '/tmp/x', WRITE_LANE: '1' }).writeLane).toBe(true)
  expect(loadConfig({ DATA_DIR: '/tmp/x', WRITE_LANE: '0' }).writeLane).toBe(false)
  expect(() => loadConfig({ DATA_DIR: '/tmp/x', WRITE_LANE: 'yes' })).toThrow(ConfigError)
})

const READS = 60

/**
 * READS reads and then one write handed to an Elysia app with the lane (no budget: every read waits, as in a turn whose
 * budget slow reads have spent), all at once: how many reads were answered before the write was.
 */
async function readsBeforeTheWrite(lane: ReturnType<typeof writeLane>): Promise<number> {
  const done: string[] = []
  let n = 0
  const app = new Elysia()
    .use(lane)
    // A read answered at once, as a cached answer is (a write reads its body first).
    .get('/r', () => ({ n: ++n }))
    .post('/w', async ({ body }) => ({ got: body }))
  const reads = Array.from({ length: READS }, () => app.handle(new Request('http://localhost/r')).then((r) => (expect(r.status).toBe(200), void done.push('read'))))
  const write = app
    .handle(new Request('http://localhost/w', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }))
    .then((r) => (expect(r.status).toBe(200), void done.push('write')))
  await Promise.all([...reads, write])
  return done.indexOf('write')
}

test('with the lane, a write is answered before the reads it came behind', async () => {
  expect(await readsBeforeTheWrite(writeLane(true, new ReadLane(0)))).toBeLessThanOrEqual(1)
})

test('without it (WRITE_LANE=0), after them: the order of arrival', async () => {
  expect(await readsBeforeTheWrite(writeLane(false))).toBe(READS)
})
