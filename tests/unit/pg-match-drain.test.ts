// The match drain on PostgreSQL (src/modules/matches/service.ts) with two processes draining one queue, each its own
// database handle as two instances' processes are. The interleavings tests/ops/shared-queues.test.ts meets by chance
// under its load are made to happen here, in order: a third connection holds the drain's advisory lock while the
// drains start, so each does what it does before that lock and then waits for it, and PostgreSQL grants the lock to
// its waiters in the order they came.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { migratePostgres } from '../../db/pg/migrate'
import { connectPostgres, PostgresDb, postgresDb } from '../../db/postgres'
import { drainAnnouncements } from '../../src/modules/matches/service'
import { queueListing } from '../../src/modules/matches/store'
import { signIn, type SignedIn } from '../support/auth'
import { insertListing, seedPlace } from '../support/fixtures'
import { sharedCluster } from '../support/postgres'

let db: PostgresDb
/** Two processes' handles, and a connection of the test's own that takes the drain's lock. */
let one: PostgresDb
let two: PostgresDb
let holder: PostgresDb
let city: number
let asha: SignedIn
let ravi: SignedIn

beforeAll(async () => {
  const url = await (await sharedCluster()).createDatabase()
  const sql = connectPostgres(url)
  await migratePostgres(sql)
  db = new PostgresDb(sql)
  ;[one, two, holder] = [postgresDb(url, { max: 3 }), postgresDb(url, { max: 3 }), postgresDb(url, { max: 1 })]
  city = (await seedPlace(db, ['Drainpur'])).cities[0]!.id
  ;[asha, ravi] = [await signIn(db, 'BROKER', { cityId: city }), await signIn(db, 'BROKER', { cityId: city })]
}, 60_000)
afterAll(async () => {
  await Promise.all([one, two, holder].map((h) => h?.close()))
  await db?.close()
})

// The drain's advisory lock, its two keys ("Mtch", 1): src/modules/matches/store.ts.
const LOCK = `${0x4d746368}, 1`
const waiting = async () =>
  Number((await db.get<{ n: number }>(`select count(*) as n from pg_locks where locktype = 'advisory' and (classid, objid) = (${LOCK}) and not granted`))!.n)
async function untilWaiting(n: number): Promise<void> {
  const deadline = Date.now() + 30_000
  while ((await waiting()) < n) {
    if (Date.now() > deadline) throw new Error(`not ${n} drains waiting for the drain lock within 30 s`)
    await Bun.sleep(10)
  }
}

let kinds = 0
/** A requirement (budget 100,000) or an availability (90,000) of a property kind of the test's own: they match. */
const listing = (owner: SignedIn, postType: 'REQ' | 'AVL', kind: string, budget = postType === 'REQ' ? 100_000 : 90_000) =>
  insertListing(db, {
    entryId: `DRAIN-${++kinds}`,
    postType,
    saleOrRent: 'SALE',
    propertyType: kind,
    budget,
    contactValue: '9876543210',
    contactName: 'D',
    date: '2026-11-27',
    ownerUserId: owner.user.id,
    cityId: city,
  })
const pairsOf = (id: number) =>
  db.all<{ listing_id: number; match_id: number; user_id: number }>('select listing_id, match_id, user_id from listing_matches where ? in (listing_id, match_id)', [id])

describe('the match drain on PostgreSQL, two processes at once', () => {
  test('a listing queued earlier but committed later than another that a drain of the other process takes first: the pair is announced', async () => {
    const kind = 'Drain Order'
    // Ravi's availability is written and queued. Asha's requirement was sent before it (its queue time is earlier)
    // but commits after it, as a write that waited on a busy server does.
    const offered = await listing(ravi, 'AVL', kind)
    await queueListing(db, offered, 2_000)
    await holder.get(`select pg_advisory_lock(${LOCK})`)
    try {
      // Process two's drain: the queue holds only the availability, which matches nothing yet.
      const second = drainAnnouncements(two)
      await untilWaiting(1)
      const wanted = await listing(asha, 'REQ', kind)
      await queueListing(db, wanted, 1_000)
      // Process one's drain: the queue holds both, the requirement first.
      const first = drainAnnouncements(one)
      await untilWaiting(2)
      await holder.get(`select pg_advisory_unlock(${LOCK})`)
      // Two's drain has the lock first. Whatever each took, the pair is announced once, to the owner of the listing
      // drained first (Ravi, if two's drain took the availability alone; Asha if it took both).
      const announced = (await Promise.all([second, first])).reduce((a, b) => a + b)
      const pairs = await pairsOf(wanted)
      expect(pairs).toHaveLength(1)
      expect(pairs.map((p) => [p.listing_id === offered ? ravi.user.id : asha.user.id, p.user_id])).toEqual([[pairs[0]!.user_id, pairs[0]!.user_id]])
      expect(announced).toBe(1)
      expect(await db.all('select listing_id from match_queue')).toEqual([])
    } finally {
      await holder.get(`select pg_advisory_unlock_all()`)
    }
  })

  test('a listing written again, in the same millisecond, while a drain waits for its lock: its new pairs are announced', async () => {
    const kind = 'Drain Again'
    const offered = await listing(ravi, 'AVL', kind)
    await drainAnnouncements(one)
    // Asha's requirement asks too little to match, and is queued.
    const wanted = await listing(asha, 'REQ', kind, 50_000)
    await queueListing(db, wanted, 3_000)
    await holder.get(`select pg_advisory_lock(${LOCK})`)
    try {
      const drain = drainAnnouncements(one)
      await untilWaiting(1)
      // Edited to match, and queued again at the same time (two writes of one listing in one millisecond, as two
      // instances can make them).
      await db.tx(async (tx) => {
        await tx.run('update listings set budget = 100000 where id = ?', [wanted])
        await queueListing(tx, wanted, 3_000)
      })
      await holder.get(`select pg_advisory_unlock(${LOCK})`)
      await drain
      // Whatever that drain took, the edit's pairs are announced once the queue is drained again.
      await drainAnnouncements(two)
      expect(await pairsOf(wanted)).toEqual([{ listing_id: offered, match_id: wanted, user_id: ravi.user.id }])
      expect(await db.all('select listing_id from match_queue')).toEqual([])
    } finally {
      await holder.get(`select pg_advisory_unlock_all()`)
    }
  })
})
