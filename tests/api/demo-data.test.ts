import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { inflateSync } from 'node:zlib'
import { DEMO_EMAIL_DOMAIN } from '../../db/seed/demo'
import { bootstrap, DEMO_PASSWORD, type BootstrapReport } from '../../src/bootstrap'
import type { Param } from '../../db/sql'
import { USER_COLUMNS, userRow, type RawUser } from '../../src/modules/users/store'
import { createTestApp, jsonBody } from '../support/app'
import { signIn, type SignedIn, sessionFor } from '../support/auth'
import { userByEmail } from '../support/fixtures'

// The demo data as a first start loads it (DEMO_DATA=1 on a new database), served by the app like any other data: on
// SQLite and, with BROKERNET_TEST_DATABASE=postgres, on PostgreSQL (its documents then in the documents table).
const h = await createTestApp()
afterAll(() => h.close())
let report: BootstrapReport
let master: SignedIn

beforeAll(async () => {
  report = await bootstrap({ db: h.ctx.db }, { ...h.config, demoData: true, adminPassword: 'Owner@12345' })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { fullName: 'Mona Master' })
})

const usersWhere = async (where: string, params: Param[]) => (await h.ctx.db.all<RawUser>(`select ${USER_COLUMNS} from users where ${where} order by id`, params)).map(userRow)
const demoBrokers = () => usersWhere("role = 'BROKER' and email like ?", [`%@${DEMO_EMAIL_DOMAIN}`])

describe('demo people and listings', () => {
  test('the report counts what the database holds, and a second bootstrap loads nothing more', async () => {
    const count = async (sql: string) => (await h.ctx.db.get<{ n: number }>(sql))!.n
    expect(report.demo).toMatchObject({ countries: 4, moduleAdmins: 5, listings: 300 })
    expect(await count('select count(*) as n from cities')).toBe(report.demo!.cities)
    expect((await demoBrokers()).length).toBe(report.demo!.brokers)
    const again = await bootstrap({ db: h.ctx.db }, { ...h.config, demoData: true })
    expect(again.demo).toBeUndefined()
    expect(await count('select count(*) as n from listings')).toBe(300)
  })

  test('a master admin lists the 300 demo listings, and a search by an entry ID fragment finds one', async () => {
    const list = async (query: string) => (await (await h.request(`/api/listings/?${query}`, { headers: master.bearer })).json()) as { total: number; listings: { entry_id: string }[] }
    const page = await list('per_page=10')
    expect(page.total).toBe(300)
    const newest = page.listings[0]!.entry_id
    // REQ-MUM-000300 is found by MUM-000300: the search index was kept for the seeded rows too.
    expect((await list(`search=${newest.slice(4)}`)).listings.map((l) => l.entry_id)).toContain(newest)
  })

  test('the demo broker and module admin named at start sign in with the demo password', async () => {
    for (const email of [report.demo!.sampleBroker!, report.demo!.sampleModuleAdmin!]) {
      const res = await h.request('/api/auth/login', jsonBody({ email, password: DEMO_PASSWORD }))
      expect(res.status).toBe(200)
    }
  })
})

/** The chunks of a PNG, each checked against its CRC. */
function pngChunks(bytes: Uint8Array) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const chunks: { type: string; data: Uint8Array }[] = []
  for (let at = 8; at < bytes.length; ) {
    const length = view.getUint32(at)
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8))
    const data = bytes.subarray(at + 8, at + 8 + length)
    expect(view.getUint32(at + 8 + length)).toBe(Bun.hash.crc32(bytes.subarray(at + 4, at + 8 + length)))
    chunks.push({ type, data })
    at += 12 + length
  }
  return chunks
}

describe('demo identity documents', () => {
  test('every demo broker has a sample document, stored through the document store', async () => {
    const brokers = await demoBrokers()
    expect(brokers.length).toBeGreaterThanOrEqual(20)
    expect(report.demo?.idCards).toBe(brokers.length)
    for (const b of brokers) {
      expect(b.idCardNumber).toBeTruthy()
      expect(b.idCardDocument).toMatch(/^[a-f0-9]{32}\.png$/)
      expect(b.idCardDocumentType).toBe('image/png')
    }
    // Module admins have no ID card number, so no card either.
    const admins = await usersWhere("role = 'MODULE_ADMIN' and id_card_document is not null", [])
    expect(admins).toEqual([])
  })

  test("a demo broker's document downloads as image/png: a real 856×540 image, like an uploaded one", async () => {
    const rahul = (await demoBrokers()).find((b) => b.fullName === 'Rahul Sharma')!
    const list = await (await h.request(`/api/users?role=BROKER&search=rahul`, { headers: master.bearer })).json()
    const item = list.users.find((u: { id: number }) => u.id === rahul.id)
    expect(item.id_card_document_url).toBe(`/api/users/${rahul.id}/id-card`)

    const res = await h.request(item.id_card_document_url, { headers: master.bearer })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Rahul_Sharma_id_card.png"')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const chunks = pngChunks(bytes)
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'PLTE', 'IDAT', 'IEND'])
    const ihdr = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset)
    expect([ihdr.getUint32(0), ihdr.getUint32(4)]).toEqual([856, 540])
    // Every row: filter byte, then one palette index per pixel.
    expect(inflateSync(chunks[2]!.data).length).toBe((856 + 1) * 540)
  })

  test('a demo module admin sees the documents of their city’s applicants too (pending approvals)', async () => {
    const admin = (await userByEmail(h.ctx.db, `admin.mumbai@${DEMO_EMAIL_DOMAIN}`))!
    const token = await sessionFor(h.ctx.db, admin.id)
    const headers = { authorization: `Bearer ${token}` }
    const pending = await (await h.request('/api/users/pending/approvals', { headers })).json()
    const sneha = pending.pending_users.find((u: { full_name: string }) => u.full_name === 'Sneha Kulkarni')
    expect(sneha.id_card_document_url).toBe(`/api/users/${sneha.id}/id-card`)
    const res = await h.request(sneha.id_card_document_url, { headers })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
  })

  test('different people get different cards', async () => {
    const [a, b] = await demoBrokers()
    const bytes = async (id: number) => new Uint8Array(await (await h.request(`/api/users/${id}/id-card`, { headers: master.bearer })).arrayBuffer())
    expect(Buffer.from(await bytes(a!.id)).equals(Buffer.from(await bytes(b!.id)))).toBe(false)
  })
})

describe('demo matches', () => {
  test('the demo broker named at start opens Matches to unseen entries that hold, each with reasons', async () => {
    const sample = (await userByEmail(h.ctx.db, report.demo!.sampleBroker!))!
    const token = await sessionFor(h.ctx.db, sample.id)
    const res = await h.request('/api/matches', { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const inbox = (await res.json()) as { matches: { seen: boolean; reasons: string[]; listing: { owner_user_id: number } }[]; unseen: number }
    expect(inbox.unseen).toBeGreaterThan(0)
    expect(inbox.matches.every((m) => m.listing.owner_user_id === sample.id && m.reasons.length > 0)).toBe(true)
  })
})
