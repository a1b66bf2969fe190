// Work a timer does besides answering requests runs in turns (src/platform/turns.ts, issue 36): a request that
// arrives while the primary sends a backlog of expiry reminders, or expires listings that ended while it was stopped,
// is answered before that work ends, not after it. On the 1,000,000-listing bench database the first reminder run held
// the primary's thread for minutes (a health check waited 29 s): on SQLite a loop of transactions never let the event
// loop read a socket.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runExpiryReminders } from '../../src/modules/listings/reminders'
import { EXPIRE_BATCH, expireDue } from '../../src/modules/listings/store/expiry'
import type { Queryable } from '../../db/sql'
import { createTestApp } from '../support/app'
import { eventually } from '../support/eventually'
import { fixtureHash, insertListing, insertUser, seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())

const DAY = 86_400_000
/** Owners due a reminder: enough that sending to all of them takes far longer than a few turns of the event loop. */
const OWNERS = 1000
let city: number
let seq = 0

async function listing(db: Queryable, ownerUserId: number, expiresAt: number) {
  seq++
  return insertListing(db, {
    entryId: `AVL-TRN-${String(seq).padStart(6, '0')}`,
    postType: 'AVL',
    saleOrRent: 'RENT',
    propertyType: '2 BHK',
    contactValue: '9876543210',
    contactName: 'x',
    status: 'ACTIVE',
    date: new Date().toISOString().slice(0, 10),
    ownerUserId,
    cityId: city,
    expiresAt,
  })
}

/**
 * A plain HTTP server in this process, on the same event loop as the work: how long its answer takes to come back is
 * how long a request of the app would wait. Answers `done()` at the moment it answered.
 */
async function askedDuring(work: Promise<unknown>, done: () => Promise<number>): Promise<{ atAnswer: number; atEnd: number }> {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') })
  try {
    const answered = fetch(server.url).then(async (r) => (await r.text(), done()))
    const atAnswer = await answered
    await work
    return { atAnswer, atEnd: await done() }
  } finally {
    server.stop(true)
  }
}

beforeAll(async () => {
  city = (await seedPlace(h.ctx.db, ['Nashik'])).cities[0]!.id
  const passwordHash = await fixtureHash('Broker@123')
  const ends = Date.now() + 2 * DAY
  await h.ctx.db.tx(async (tx) => {
    for (let i = 0; i < OWNERS; i++) {
      const owner = await insertUser(tx, { email: `turns-${i}@example.test`, passwordHash, fullName: `Owner ${i}`, role: 'BROKER', cityId: city, isActive: true, registrationStatus: 'APPROVED' })
      await listing(tx, owner.id, ends + i)
    }
  })
}, 300_000)

describe('background work in turns', () => {
  test(`a request arriving while ${OWNERS} owners are reminded is answered before the reminders end`, async () => {
    const reminded = async () => Number((await h.ctx.db.get<{ n: number }>('select count(*) as n from listing_reminders'))!.n)
    const run = runExpiryReminders(h.ctx)
    const { atAnswer, atEnd } = await askedDuring(run, reminded)
    expect((await run).users).toBe(OWNERS)
    expect(atEnd).toBe(OWNERS)
    // Answered in the middle: some owners reminded (the work had begun), not all of them.
    expect(atAnswer).toBeLessThan(OWNERS)
  }, 300_000)

  test(`listings past their end are expired in batches of ${EXPIRE_BATCH}, every one of them, with requests answered between the batches`, async () => {
    const owner = await insertUser(h.ctx.db, { email: 'turns-expiry@example.test', passwordHash: await fixtureHash('Broker@123'), fullName: 'Expiry', role: 'BROKER', cityId: city, isActive: true, registrationStatus: 'APPROVED' })
    const past = Date.now() - DAY
    const count = EXPIRE_BATCH * 4 + 7
    await h.ctx.db.tx(async (tx) => {
      for (let i = 0; i < count; i++) await listing(tx, owner.id, past + i)
    })
    const expired = async () =>
      Number((await h.ctx.db.get<{ n: number }>(`select count(*) as n from listings where owner_user_id = ? and status = 'EXPIRED'`, [owner.id]))!.n)
    const run = expireDue(h.ctx.db, Date.now())
    const { atAnswer, atEnd } = await askedDuring(run, expired)
    // The server's own sweep may take some of them meanwhile (against the binary, or its timer in process): each
    // listing is expired once, by one of the two (decision 068: on PostgreSQL a sweep passes over the rows another
    // holds). Seen once on PostgreSQL against the binary, at load 20 (issue 37): 922 of 1,031 here, the rest there.
    const done = await run
    expect(done).toBeGreaterThan(0)
    expect(done).toBeLessThanOrEqual(count)
    if (done === count) expect(atEnd).toBe(count)
    else await eventually('every listing expired, by this sweep or the server’s', async () => (await expired()) === count)
    expect(await expired()).toBe(count)
    expect(atAnswer).toBeLessThan(count) // SQLite: between two batches; PostgreSQL expires one by one, over the network
    // The kept counts followed every one of them (the triggers ran per row, batch or not).
    const counted = await h.ctx.db.get<{ n: number }>(`select coalesce(sum(n), 0) as n from listing_counts where city_id = ? and status = 'EXPIRED'`, [city])
    expect(Number(counted!.n)).toBe(count)
  }, 300_000)
})
