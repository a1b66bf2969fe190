// Issue 36: list answers are kept as sent, bytes and compressed copies (src/platform/http/kept-answer.ts). A kept answer
// must never reach a caller who would have been answered otherwise: another broker (whose hidden and private listings
// differ, and whose own rows are the editable ones), an admin of another city, an admin of the same city or the master
// admin (who may edit what a broker may not). And the first read after a write shows it, whoever wrote it and however
// the answer is encoded. Each caller asks the SAME addresses, in turns, so every answer but the first is a warm one.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database as SQLite } from 'bun:sqlite'
import { join } from 'node:path'
import { createTestApp } from '../support/app'
import { decodedText } from '../support/encoding'
import { eventually } from '../support/eventually'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())

let mumbai: number
let pune: number
let asha: SignedIn // broker, Mumbai
let bina: SignedIn // broker, Mumbai
let ravi: SignedIn // broker, Pune
let mumbaiAdmin: SignedIn
let puneAdmin: SignedIn
let master: SignedIn
type Who = 'asha' | 'bina' | 'ravi' | 'mumbaiAdmin' | 'puneAdmin' | 'master'
const callers = () => ({ asha, bina, ravi, mumbaiAdmin, puneAdmin, master }) as Record<Who, SignedIn>

/** The listings, by name: who owns them, where, and what only some may see. */
const ids: Record<string, number> = {}
const SECRET_NOTE = 'Keys with the watchman, owner says 41 lakh is the floor'

const base = { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: '2BHK', location: 'West', confirm_duplicate: true }
async function post(as: SignedIn, name: string, body: Record<string, unknown> = {}) {
  const res = await h.request('/api/listings', withJson(as.browser, { ...base, details: `Listing ${name} for the warm answers test`, ...body }))
  expect(res.status).toBe(201)
  ids[name] = ((await res.json()) as { id: number }).id
}

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  mumbai = place.cities[0]!.id
  pune = place.cities[1]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
  bina = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: pune })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
  await post(asha, 'ashaOpen', { private: { note: SECRET_NOTE, owner_phone: '+91 90000 11111' } })
  await post(asha, 'ashaSuspended')
  expect((await h.request(`/api/listings/${ids.ashaSuspended}`, withJson(asha.browser, { status: 'SUSPENDED' }, 'PATCH'))).status).toBe(200)
  await post(asha, 'ashaOnlyMe', { visibility: 'ONLY_ME' })
  await post(bina, 'binaOpen')
  await post(ravi, 'raviOpen')
})

/** What each caller must be answered for the whole list: the ids they see, and which of them they may edit. */
function expected(who: Who, query: URLSearchParams): { seen: string[]; editable: string[] } {
  const all: Record<string, { owner: Who; city: 'mumbai' | 'pune'; suspended?: boolean; onlyMe?: boolean }> = {
    ashaOpen: { owner: 'asha', city: 'mumbai' },
    ashaSuspended: { owner: 'asha', city: 'mumbai', suspended: true },
    ashaOnlyMe: { owner: 'asha', city: 'mumbai', onlyMe: true },
    binaOpen: { owner: 'bina', city: 'mumbai' },
    raviOpen: { owner: 'ravi', city: 'pune' },
  }
  const status = query.get('status')
  const cityId = query.get('city_id')
  const seen = Object.entries(all).filter(([, l]) => {
    if (status === 'SUSPENDED' ? !l.suspended : status === 'ACTIVE' ? l.suspended : false) return false
    if (cityId && Number(cityId) !== (l.city === 'mumbai' ? mumbai : pune)) return false
    if (who === 'master') return true
    if (who === 'mumbaiAdmin') return l.city === 'mumbai'
    if (who === 'puneAdmin') return l.city === 'pune'
    return l.owner === who || (!l.suspended && !l.onlyMe)
  })
  const editable = seen.filter(([, l]) => who === 'master' || (who === 'mumbaiAdmin' && l.city === 'mumbai') || (who === 'puneAdmin' && l.city === 'pune') || l.owner === who)
  return { seen: seen.map(([name]) => name).sort(), editable: editable.map(([name]) => name).sort() }
}

const nameOf = (id: number) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? `new:${id}`
type Page = { listings: { id: number; is_editable: boolean }[]; total: number }

async function read(who: Who, path: string, encoding?: string): Promise<{ text: string; res: Response }> {
  const res = await h.request(path, { headers: { ...callers()[who].bearer, ...(encoding ? { 'accept-encoding': encoding } : {}) } })
  expect(res.status).toBe(200)
  return { text: await decodedText(res), res }
}

// Addresses of our listings only (the test's cities), asked by everyone; ours are the newest, so page 1 holds them.
const queries = () => [
  'per_page=100',
  `per_page=100&city_id=${mumbai}`,
  `city_id=${mumbai}&per_page=100`, // the same filters in another order: one kept answer for both
  `per_page=100&status=SUSPENDED`,
  `per_page=100&status=ACTIVE&city_id=${pune}`,
]

describe('a kept answer reaches only the callers it was computed for', () => {
  test('six callers ask the same addresses in turns, in every encoding: each gets their own rows and edit rights, never a private field', async () => {
    const order: Who[] = ['asha', 'bina', 'mumbaiAdmin', 'puneAdmin', 'master', 'ravi']
    for (const round of [0, 1, 2])
      for (const q of queries())
        for (const who of round === 1 ? [...order].reverse() : order) {
          const encoding = [undefined, 'br', 'gzip'][(round + order.indexOf(who)) % 3]
          const { text, res } = await read(who, `/api/listings/?${q}`, encoding)
          expect(text).not.toContain(SECRET_NOTE)
          expect(text).not.toContain('90000 11111')
          const page = JSON.parse(text) as Page
          const mine = page.listings.filter((l) => Object.values(ids).includes(l.id))
          const want = expected(who, new URLSearchParams(q))
          expect({ who, q, seen: mine.map((l) => nameOf(l.id)).sort() }).toEqual({ who, q, seen: want.seen })
          expect({ who, q, editable: mine.filter((l) => l.is_editable).map((l) => nameOf(l.id)).sort() }).toEqual({ who, q, editable: want.editable })
          if (res.headers.get('content-encoding')) expect(res.headers.get('vary')).toContain('accept-encoding')
        }
  })

  test("an answer is the page the store lists, field for field, edit rights included: each row's JSON is kept once per kind of viewer", async () => {
    const { listListings, myListings } = await import('../../src/modules/listings/store/read')
    const order: Who[] = ['asha', 'master', 'bina', 'mumbaiAdmin', 'ravi', 'puneAdmin']
    for (const round of [0, 1])
      for (const who of round ? [...order].reverse() : order) {
        const { user } = callers()[who]
        const viewer = { id: user.id, role: user.role, cityId: user.cityId }
        for (const q of queries()) {
          const query = Object.fromEntries([...new URLSearchParams(q)].map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]))
          const listed = await listListings(h.ctx.db, h.ctx.counts, viewer, query)
          expect({ who, q, answer: JSON.parse((await read(who, `/api/listings/?${q}`)).text) }).toEqual({ who, q, answer: JSON.parse(JSON.stringify(listed)) })
        }
        const mine = await myListings(h.ctx.db, viewer, h.ctx.pages)
        expect({ who, answer: JSON.parse((await read(who, '/api/listings/my')).text) }).toEqual({ who, answer: JSON.parse(JSON.stringify(mine)) })
      }
  })

  test('zone chips and /my are kept per caller too', async () => {
    for (const round of [0, 1])
      for (const who of ['asha', 'bina', 'mumbaiAdmin', 'puneAdmin'] as const) {
        const zones = JSON.parse((await read(who, `/api/listings/zones?city_id=${mumbai}`, round ? 'br' : undefined)).text) as { total: number }
        expect({ who, total: zones.total }).toEqual({ who, total: expected(who, new URLSearchParams(`city_id=${mumbai}`)).seen.length })
        const my = JSON.parse((await read(who, '/api/listings/my', round ? 'gzip' : undefined)).text) as { id: number; owner_user_id: number }[]
        expect(my.every((l) => l.owner_user_id === callers()[who].user.id)).toBe(true)
      }
  })
})

describe('the first read after a write shows it', () => {
  test('a listing another broker posts, edits and deletes is in the next answer of a warm page, in every encoding', async () => {
    const path = `/api/listings/?per_page=100&city_id=${mumbai}`
    for (const encoding of [undefined, 'br', 'gzip']) {
      await read('asha', path, encoding)
      await read('asha', path, encoding)
      const res = await h.request('/api/listings', withJson(bina.browser, { ...base, details: `Posted while warm (${encoding ?? 'identity'})` }))
      expect(res.status).toBe(201)
      const id = ((await res.json()) as { id: number }).id
      const after = JSON.parse((await read('asha', path, encoding)).text) as Page & { listings: { id: number; budget: number | null }[] }
      expect(after.listings.map((l) => l.id)).toContain(id)
      expect((await h.request(`/api/listings/${id}`, withJson(bina.browser, { budget: 4242 }, 'PATCH'))).status).toBe(200)
      const edited = JSON.parse((await read('asha', path, encoding)).text) as { listings: { id: number; budget: number | null }[] }
      expect(edited.listings.find((l) => l.id === id)?.budget).toBe(4242)
      expect((await h.request(`/api/listings/${id}`, { method: 'DELETE', headers: bina.browser })).status).toBe(204)
      const gone = JSON.parse((await read('asha', path, encoding)).text) as Page
      expect(gone.listings.map((l) => l.id)).not.toContain(id)
    }
  })

  // Another connection than the answering app's: in process on SQLite a second handle on the file; otherwise the test's
  // own connection (the binary is another process; on PostgreSQL in process, the feed hears it through the database).
  test("a write through another connection (another process's) is in the next answer", async () => {
    const path = `/api/listings/?per_page=100&city_id=${mumbai}`
    const other = h.inProcess && h.db ? new SQLite(join(h.dataDir, 'brokernet.db')) : null
    const write = async (budget: number) => {
      if (other) other.run('UPDATE listings SET budget = ? WHERE id = ?', [budget, ids.ashaOpen!])
      else await h.ctx.db.run('UPDATE listings SET budget = ? WHERE id = ?', [budget, ids.ashaOpen!])
    }
    try {
      for (let n = 1; n <= 5; n++) {
        await read('bina', path)
        await read('bina', path, 'br')
        await write(7000 + n)
        for (const encoding of [undefined, 'br']) {
          const budget = async () => (JSON.parse((await read('bina', path, encoding)).text) as { listings: { id: number; budget: number | null }[] }).listings.find((l) => l.id === ids.ashaOpen)?.budget
          // Another process's write reaches the app through the change feed: on SQLite every request reads the feed
          // first, so the next answer has it; on PostgreSQL a notification brings it a moment later.
          if (h.db) expect(await budget()).toBe(7000 + n)
          else await eventually(`budget ${7000 + n}`, async () => (await budget()) === 7000 + n)
        }
      }
    } finally {
      other?.close()
    }
  })

  // A page's rows are kept apart from the page (db/kept-rows.ts, docs/decisions/075-kept-rows.md): a write that moves a
  // page leaves most of its rows as they were, so it is made again from kept rows. What every row shows beside its
  // own columns (its owner's name, its city's) must still be new in the next answer when it changes, and a page moved
  // by a new listing must show its rows as they are now, never a kept row older than a change.
  test("an owner's new name, a city's new name and a kept row's edit are in the next answer of a page moved by writes, and of /my", async () => {
    // Page 2 of ten a page: at least twelve listings of the city first.
    for (let n = 0; n < 12; n++) await post(n % 2 ? asha : bina, `filler${n}`)
    const path = `/api/listings/?per_page=10&city_id=${mumbai}&page=2`
    const other = h.inProcess && h.db ? new SQLite(join(h.dataDir, 'brokernet.db')) : null
    const run = async (sql: string, params: (string | number)[]) => (other ? other.run(sql, params) : await h.ctx.db.run(sql, params))
    type Row = { id: number; owner_name: string; city_name: string; details: string }
    const rows = async () => (JSON.parse((await read('bina', path)).text) as { listings: Row[] }).listings
    const check = async (what: string, ok: (r: Row[]) => boolean) => {
      if (h.db) expect(ok(await rows())).toBe(true)
      else await eventually(what, async () => ok(await rows()))
    }
    try {
      for (let n = 1; n <= 3; n++) {
        await rows()
        // A new listing moves page 2 by one: it is made again, its rows from the kept ones.
        await post(asha, `moving${n}`)
        await rows()
        await run('UPDATE users SET full_name = ? WHERE id = ?', [`Asha Renamed ${n}`, asha.user.id])
        await check(`owner name ${n}`, (r) => r.some((l) => l.owner_name === `Asha Renamed ${n}`))
        await run('UPDATE cities SET name = ? WHERE id = ?', [`Mumbai ${n}`, mumbai])
        await check(`city name ${n}`, (r) => r.length > 0 && r.every((l) => l.city_name === `Mumbai ${n}`))
        const shown = (await rows())[0]!
        await post(bina, `moving${n}b`)
        await run('UPDATE listings SET details = ? WHERE id = ?', [`Edited elsewhere ${n}`, shown.id])
        await check(`details ${n}`, (r) => r.some((l) => l.details === `Edited elsewhere ${n}`))
        // `/my` is made of the same kept rows: the owner's list after an edit through another connection.
        const mine = async () => (JSON.parse((await read('asha', '/api/listings/my')).text) as Row[]).find((l) => l.id === ids.ashaOpen)?.details
        await mine()
        await run('UPDATE listings SET details = ? WHERE id = ?', [`Mine edited ${n}`, ids.ashaOpen!])
        if (h.db) expect(await mine()).toBe(`Mine edited ${n}`)
        else await eventually(`my details ${n}`, async () => (await mine()) === `Mine edited ${n}`)
      }
    } finally {
      other?.close()
    }
  })
})
