// Writes first (issue 36, src/platform/http/write-lane.ts): reads wait their turn, one per turn of the event loop; a
// write is worked as soon as it is read. In process, where the order is deterministic: every request below is handed to
// the app in one go, as a turn of the loop hands it the requests its sockets hold.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, type TestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'
import { ReadLane } from '../../src/platform/http/write-lane'
import { loadConfig, ConfigError } from '../../src/platform/config'

describe('ReadLane', () => {
  test('lets reads through in their order, one per turn of the event loop', async () => {
    const lane = new ReadLane()
    const order: string[] = []
    const reads = [1, 2, 3].map((n) => lane.turn().then(() => void order.push(`read ${n}`)))
    // Scheduled after the lane's first turn: it runs before the lane's second, as a poll of the sockets does.
    setImmediate(() => order.push('next turn'))
    await Promise.all(reads)
    expect(order).toEqual(['read 1', 'next turn', 'read 2', 'read 3'])
    expect(lane.length).toBe(0)
  })

  test('keeps working after it ran dry', async () => {
    const lane = new ReadLane()
    await lane.turn()
    const order: number[] = []
    await Promise.all([4, 5].map((n) => lane.turn().then(() => void order.push(n))))
    expect(order).toEqual([4, 5])
  })
})

test('WRITE_LANE is 1 (the default) or 0', () => {
  expect(loadConfig({ DATA_DIR: '/tmp/x' }).writeLane).toBe(true)
  expect(loadConfig({ DATA_DIR: '/tmp/x', WRITE_LANE: '0' }).writeLane).toBe(false)
  expect(() => loadConfig({ DATA_DIR: '/tmp/x', WRITE_LANE: 'yes' })).toThrow(ConfigError)
})

/** 40 list reads and then one post, all handed over at once: how many reads were answered before the post was. */
async function readsBeforeThePost(h: TestApp, broker: SignedIn): Promise<number> {
  const done: string[] = []
  const reads = Array.from({ length: 40 }, (_, i) =>
    h.request(`/api/listings?page=${i + 1}`, { headers: broker.browser }).then((r) => {
      expect(r.status).toBe(200)
      done.push('read')
    }),
  )
  const post = h
    .request('/api/listings', withJson(broker.browser, { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: '2BHK', location: 'West', details: 'Written while 40 reads wait', confirm_duplicate: true }))
    .then((r) => {
      expect(r.status).toBe(201)
      done.push('write')
    })
  await Promise.all([...reads, post])
  return done.indexOf('write')
}

describe.each([
  ['on', '1'],
  ['off', '0'],
])('a write behind 40 reads, WRITE_LANE %s', (lane, value) => {
  let h: TestApp
  let broker: SignedIn
  beforeAll(async () => {
    h = await createTestApp({ WRITE_LANE: value }, {}, { backend: 'sqlite' })
    const place = await seedPlace(h.ctx.db, ['Mumbai'])
    broker = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })
  })
  afterAll(() => h.close())

  test(lane === 'on' ? 'is answered before the reads it came behind' : 'is answered after them (the order of arrival)', async () => {
    const before = await readsBeforeThePost(h, broker)
    if (lane === 'on') expect(before).toBeLessThan(2)
    else expect(before).toBeGreaterThan(20)
  })
})
