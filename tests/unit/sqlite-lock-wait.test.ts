// A write waiting for SQLite's write lock (another process writing) waits on the event loop, not on the thread
// (db/sqlite.ts `lockedIn`; docs/decisions/058-write-lane.md): the process answers its reads meanwhile, and the write
// goes through once the lock is free. SQLite's own busy wait would have stopped the whole process until it gave up.
import { Database as SQLite } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestApp, type TestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

let h: TestApp
let broker: SignedIn
beforeAll(async () => {
  h = await createTestApp({}, {}, { backend: 'sqlite' })
  const place = await seedPlace(h.ctx.db, ['Mumbai'])
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })
})
afterAll(() => h.close())

/** Another connection to the file holding the write lock, as another server process in a transaction does. */
function holdTheLock() {
  const other = new SQLite(h.config.databasePath)
  other.exec('BEGIN IMMEDIATE')
  return () => {
    other.exec('ROLLBACK')
    other.close()
  }
}

test('a post waits for the lock while the process answers reads, then goes through', async () => {
  const release = holdTheLock()
  let answered: Response | null = null
  const post = h
    .request('/api/listings', withJson(broker.browser, { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: '2BHK', location: 'West', details: 'Posted while the file is locked' }))
    .then((r) => (answered = r))
  try {
    for (let i = 0; i < 3; i++) expect((await h.request('/api/listings?page=1', { headers: broker.browser })).status).toBe(200)
    expect(answered).toBeNull()
  } finally {
    release()
  }
  const res = await post
  expect(res.status).toBe(201)
  const { id } = (await res.json()) as { id: number }
  expect((await h.ctx.db.get<{ n: number }>('select count(*) as n from listings where id = ?', [id]))!.n).toBe(1)
}, 30_000)

test('a single statement outside a transaction waits the same way', async () => {
  const release = holdTheLock()
  let done = false
  const write = h.ctx.db.run("update cities set name = 'Mumbai (locked)' where name = 'Mumbai'").then((r) => ((done = true), r))
  try {
    expect((await h.ctx.db.get<{ one: number }>('select 1 as one'))!.one).toBe(1)
    expect(done).toBe(false)
  } finally {
    release()
  }
  expect((await write).changes).toBe(1)
}, 30_000)
