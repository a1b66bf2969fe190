// Issue 35's leak test: private values saved as unique marker strings, then every GET of the OpenAPI document, the
// exports and the dashboard's pages walked as another broker of the same city, a module admin of another city and an
// anonymous caller: no marker in any answer (an .xlsx unzipped), log line, mail, or any table but `listing_private`.
// Listings kept to their owner (ONLY_ME) or to a circle carry markers in their public fields too, for the same walk.
// The owner reads their markers back (the walk could not pass by reading nothing). Push alerts (issue 33) and the public
// page of a share link with its photo (issue 34, /l/<token>) are walked too: the alerts the devices of the other broker,
// the other city's admin and the owner received (decrypted by the push-service stand-in), and the page signed out; and
// the pushes of every step of a co-broke deal on the owner's listing, a staged reveal of its private fields included.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { strFromU8, unzipSync } from 'fflate'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ON_POSTGRES, createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'
import { operationsOf, plausible, type Json, type Operation } from '../support/openapi'
import { drainAnnouncements } from '../../src/modules/matches/service'
import { instantHits } from '../../src/modules/saved-searches/alerts'
import { eventually } from '../support/eventually'
import { startPushService, type BrowserSubscription, type PushService } from '../support/push-service'

const h = await createTestApp({ LOG_LEVEL: 'info', PUSH_ALLOW_HOSTS: '127.0.0.1' })
const images = mkdtempSync(join(tmpdir(), 'brokernet-leak-'))
let service: PushService
afterAll(async () => {
  await service?.stop()
  await h.close()
  rmSync(images, { recursive: true, force: true })
})

const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
/** The private values: none of them may reach anyone but the owner and the admins of Mumbai. */
const PRIVATE = {
  owner_name: `Zqowner${tag}`,
  owner_phone: `+91 7${String(Date.now()).slice(-9)}`,
  address: `Zqaddress${tag} Tower B`,
  bottom_price: 31415926.5,
  note: `Zqnote${tag} call after six`,
}
/** What each value looks like in a text: the phone with its spaces or without, the price as written. */
const PRIVATE_MARKERS = [PRIVATE.owner_name, PRIVATE.owner_phone, PRIVATE.owner_phone.replace(/\D/g, ''), `Zqaddress${tag}`, `Zqnote${tag}`, '31415926']
/** Public fields of listings not shown to the network: no marker for those who do not see them. */
const HIDDEN_MARKERS = [`Zqonlyme${tag}`, `Zqcircle${tag}`]

let owner: SignedIn
let other: SignedIn
let puneAdmin: SignedIn
let mumbaiAdmin: SignedIn
const ids: Record<string, number> = {}
let operations: Operation[]
/** Each user's device on the push-service stand-in. */
const devices = new Map<string, BrowserSubscription>()
/** The public pages of share links to the owner's network listing: the owner's and the other broker's. */
const publicPages: string[] = []

const found = (text: string, markers: string[]) => markers.filter((m) => text.toLowerCase().includes(m.toLowerCase()))

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  const [mumbai, pune] = place.cities.map((c) => c.id) as [number, number]
  owner = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Owner Broker' })
  other = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Other Broker' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune })
  const master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
  // Devices for push alerts, no quiet hours (so they leave at once), and an INSTANT saved search of the other broker
  // that every AVL listing fits: new matches and saved-search hits become pushes as the listings are posted.
  service = await startPushService({ vapidPublicKey: async () => (await (await h.request('/api/notifications/key', { headers: owner.bearer })).json()).public_key })
  for (const [name, as] of [['owner', owner], ['other', other], ['puneAdmin', puneAdmin], ['mumbaiAdmin', mumbaiAdmin]] as const) {
    const sub = await service.subscribe()
    const res = await h.request('/api/notifications/devices', withJson(as.browser, { endpoint: sub.endpoint, keys: sub.keys, expirationTime: null }))
    expect(res.status, await res.clone().text()).toBe(201)
    expect((await h.request('/api/notifications/settings', withJson(as.browser, { quiet_hours: null }, 'PUT'))).status).toBe(200)
    devices.set(name, sub)
  }
  expect((await h.request('/api/saved-searches', withJson(other.browser, { name: 'Every AVL', filters: { post_type: 'AVL' }, alert: 'INSTANT' }))).status).toBe(201)
  const post = async (as: SignedIn, body: Record<string, unknown>) => {
    const res = await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'SALE', contact_value: '9876543210', property_type: '2 BHK', budget: 5_000_000, location: 'West', ...body }))
    expect(res.status, await res.clone().text()).toBe(201)
    return ((await res.json()) as { id: number }).id
  }
  // The other broker's requirement matches the owner's availability: the matches, the inbox and their counts show it.
  ids.want = await post(other, { post_type: 'REQ', locality: 'Bandra', details: 'Client wants 2 BHK' })
  // Shared onward with the owner's consent, anonymously (issue 34): the other broker's public page walks too.
  ids.network = await post(owner, { post_type: 'AVL', locality: 'Bandra', details: 'Sea facing 2 BHK', private: PRIVATE, onward_sharing: 'ANONYMOUS' })
  ids.onlyMe = await post(owner, { post_type: 'AVL', locality: 'Bandra', details: `Zqonlyme${tag} flat`, visibility: 'ONLY_ME', private: PRIVATE, onward_sharing: 'NAMED' })
  const circle = (await (await h.request('/api/circles', withJson(owner.browser, { name: 'Close friends' }))).json()) as { id: number }
  ids.circle = circle.id
  ids.circled = await post(owner, { post_type: 'AVL', locality: 'Bandra', details: `Zqcircle${tag} flat`, visibility: 'CIRCLE', circle_id: circle.id, private: PRIVATE })
  // The private fields changed again, and the listing through its other routes: audit rows, a renewal.
  expect((await h.request(`/api/listings/${ids.network}/private`, withJson(owner.browser, { note: PRIVATE.note }, 'PUT'))).status).toBe(200)
  expect((await h.request(`/api/listings/${ids.network}`, withJson(owner.browser, { budget: 5_100_000 }, 'PATCH'))).status).toBe(200)
  expect((await h.request(`/api/listings/${ids.network}/renew`, { method: 'POST', headers: owner.browser })).status).toBe(200)
  // Mail about the listings: an admin suspends one (the owner is told), the owner asks for a review (the admins are).
  ids.suspended = await post(owner, { post_type: 'AVL', locality: 'Juhu', details: 'Garden flat', private: PRIVATE })
  expect((await h.request(`/api/listings/${ids.suspended}`, withJson(master.browser, { status: 'SUSPENDED', suspension_reason: 'Photos missing' }, 'PATCH'))).status).toBe(200)
  expect((await h.request(`/api/listings/${ids.suspended}/review-request`, withJson(owner.browser, { note: 'Added photos' }))).status).toBe(200)
  // A saved search of the other broker that the owner's listings fit: its new count walks with the rest.
  expect((await h.request('/api/saved-searches', withJson(other.browser, { name: 'Probe', filters: { search: 'flat' } }))).status).toBe(201)
  await drainAnnouncements(h.ctx.db)
  await h.mailIdle()
  // A photo on the network listing, and public links to it: the owner's, and the other broker's (who sees it).
  const made = Bun.spawnSync([process.execPath, new URL('../support/image-fixtures.ts', import.meta.url).pathname, images], { stdout: 'pipe', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`fixtures: ${made.stderr}`)
  const fd = new FormData()
  fd.append('photos', new File([readFileSync(join(images, 'other.jpg'))], 'front.jpg', { type: 'image/jpeg' }))
  expect((await h.request(`/api/listings/${ids.network}/photos`, { method: 'POST', headers: owner.browser, body: fd })).status).toBe(201)
  for (const as of [owner, other]) {
    const res = await h.request(`/api/listings/${ids.network}/share-link`, { method: 'POST', headers: as.browser })
    expect(res.status).toBe(200)
    publicPages.push(new URL(((await res.json()) as { url: string }).url).pathname)
  }
  // No one else gets a public page of a listing: least of all one not shown to them.
  const hiddenLink = await h.request(`/api/listings/${ids.onlyMe}/share-link`, { method: 'POST', headers: other.browser })
  expect([403, 404]).toContain(hiddenLink.status)
  operations = operationsOf(await (await h.request('/swagger/json')).json())
}, 180_000)

/** The values each path parameter is tried with: every listing of the test, the users, the circle, the place. */
function pathValues(path: string): number[] {
  if (path.includes('/listings/')) return [ids.network!, ids.onlyMe!, ids.circled!, ids.suspended!, ids.want!]
  if (path.includes('/users/')) return [owner.user.id, other.user.id]
  if (path.includes('/circles/')) return [ids.circle!]
  return [1, 2, 3]
}

/** The queries a GET is tried with: none, each required parameter plausible, and a search by each private value. */
function queriesOf(o: Operation): Record<string, string>[] {
  const params = ((o.op.parameters ?? []) as Json[]).filter((p) => p.in === 'query')
  const base: Record<string, string> = {}
  for (const p of params) if (p.required) base[p.name] = p.name === 'ids' ? `${ids.network},${ids.onlyMe},${ids.circled},${ids.want}` : String(plausible(p.schema, p.name, { city: 1, state: 1, country: 1, listing: ids.network!, user: owner.user.id, audit: 1 }))
  const out = [base]
  if (params.some((p) => p.name === 'search')) for (const m of [PRIVATE.owner_name, `Zqaddress${tag}`, `Zqnote${tag}`, PRIVATE.owner_phone.replace(/\D/g, ''), ...HIDDEN_MARKERS]) out.push({ ...base, search: m })
  if (params.some((p) => p.name === 'status')) out.push({ ...base, status: 'SUSPENDED' })
  return out
}

/** An answer as text: an .xlsx is unzipped and its files read; a stream is not waited for. */
async function textOf(res: Response): Promise<string> {
  const type = res.headers.get('content-type') ?? ''
  if (type.includes('spreadsheetml')) {
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    return Object.values(files).map((f) => strFromU8(f)).join('\n')
  }
  return res.text()
}

async function walk(as: SignedIn | null, markers: string[]) {
  const leaks: string[] = []
  let answered = 0
  const gets = operations.filter((o) => o.method === 'GET' && !o.path.startsWith('/swagger') && !Object.keys(o.op.responses?.['200']?.content ?? {}).includes('text/event-stream'))
  for (const o of gets) {
    const names = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
    const paths = names.length === 0 ? [o.path] : pathValues(o.path).map((v) => o.path.replace(/\{(\w+)\}/g, String(v)))
    for (const path of paths)
      for (const query of queriesOf(o)) {
        const qs = new URLSearchParams(query).toString()
        const url = qs ? `${path}?${qs}` : path
        const res = await h.request(url, { headers: as?.bearer ?? {} })
        if (res.status === 200) answered++
        const hit = found(await textOf(res), markers)
        if (hit.length) leaks.push(`${url} (${res.status}): ${hit.join(', ')}`)
      }
  }
  // The dashboard's pages, server-rendered with their data (not searched: a page shows the words typed in its search box).
  for (const page of ['/dashboard', '/dashboard/listings', '/dashboard/my-listings', '/dashboard/matches', '/dashboard/listings?post_type=AVL']) {
    const res = await h.request(page, { headers: as?.browser ?? {} })
    if (res.status === 200) answered++
    const hit = found(await res.text(), markers)
    if (hit.length) leaks.push(`${page} (${res.status}): ${hit.join(', ')}`)
  }
  return { leaks, answered, operations: gets.length }
}

describe('the leak test', () => {
  test('the owner reads the markers back (what the walk looks for is there to find)', async () => {
    const res = await h.request(`/api/listings/${ids.network}/private`, { headers: owner.bearer })
    expect(found(await res.text(), PRIVATE_MARKERS)).toEqual(PRIVATE_MARKERS.filter((m) => m !== PRIVATE.owner_phone.replace(/\D/g, '')))
    const mine = await (await h.request(`/api/listings/${ids.onlyMe}`, { headers: owner.bearer })).text()
    expect(found(mine, HIDDEN_MARKERS)).toEqual([HIDDEN_MARKERS[0]!])
    // And the admins of its city see the ONLY_ME listing and its private fields.
    expect((await h.request(`/api/listings/${ids.onlyMe}/private`, { headers: mumbaiAdmin.bearer })).status).toBe(200)
  })

  test('another broker of the same city: no private value, nothing of the listings not shown to them', async () => {
    const { leaks, answered, operations: n } = await walk(other, [...PRIVATE_MARKERS, ...HIDDEN_MARKERS])
    expect(leaks).toEqual([])
    expect(n).toBeGreaterThan(25)
    expect(answered).toBeGreaterThan(30)
  }, 120_000)

  test('a module admin of another city: nothing', async () => {
    const { leaks, answered } = await walk(puneAdmin, [...PRIVATE_MARKERS, ...HIDDEN_MARKERS])
    expect(leaks).toEqual([])
    expect(answered).toBeGreaterThan(20)
  }, 120_000)

  test('an anonymous caller: nothing', async () => {
    const { leaks } = await walk(null, [...PRIVATE_MARKERS, ...HIDDEN_MARKERS])
    expect(leaks).toEqual([])
  }, 120_000)

  test('no private value in any log line, any mail, or any table but listing_private', async () => {
    await h.mailIdle()
    const lines = h.logLines()
    expect(lines.length).toBeGreaterThan(50)
    expect(found(JSON.stringify(lines), PRIVATE_MARKERS)).toEqual([])
    const mails = await h.ctx.db.all<Record<string, unknown>>('select * from mail_outbox')
    expect(mails.length).toBeGreaterThan(0)
    expect(found(JSON.stringify(mails), PRIVATE_MARKERS)).toEqual([])
    const tables = ON_POSTGRES
      ? (await h.ctx.db.all<{ name: string }>("select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'")).map((t) => t.name)
      : (await h.ctx.db.all<{ name: string }>("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")).map((t) => t.name)
    expect(tables).toContain('listing_private')
    const inTables: string[] = []
    for (const table of tables.filter((t) => t !== 'listing_private')) {
      const rows = await h.ctx.db.all<Record<string, unknown>>(`select * from ${table}`)
      const text = JSON.stringify(rows, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : typeof v === 'bigint' ? String(v) : v))
      for (const m of found(text, PRIVATE_MARKERS)) inTables.push(`${table}: ${m}`)
    }
    expect(inTables).toEqual([])
  })

  test('the public page of a share link, signed out, with its photo: the listing, none of its private values', async () => {
    for (const page of publicPages) {
      const res = await h.request(page)
      expect(res.status).toBe(200)
      const html = await res.text()
      expect(html).toContain('Sea facing 2 BHK')
      expect(html).toContain(`${page}/photos/`)
      expect(found(html, [...PRIVATE_MARKERS, ...HIDDEN_MARKERS])).toEqual([])
    }
    // The other broker's (onward) page: theirs, and nothing of the owner who chose to stay anonymous, not even the
    // contact the listing itself carries.
    const onward = await (await h.request(publicPages[1]!)).text()
    expect(onward).toContain('Other Broker')
    expect(found(onward, ['Owner Broker', '9876543210', 'Listed on Brokernet by'])).toEqual([])
    // The other broker's WhatsApp text for it: their page, their name, not the owner's.
    const share = (await (await h.request(`/api/listings/${ids.network}/share`, { headers: other.bearer })).json()) as { text: string }
    expect(share.text).toContain(publicPages[1]!)
    expect(found(share.text, ['Owner Broker', '9876543210', ...PRIVATE_MARKERS])).toEqual([])
  })

  test('push alerts: none carries a private value, and none tells the other broker of a listing not shown to them', async () => {
    const entry = async (id: number) => (await h.ctx.db.get<{ entry_id: string }>('select entry_id from listings where id = ?', [id]))!.entry_id
    const [network, onlyMe, circled] = [await entry(ids.network!), await entry(ids.onlyMe!), await entry(ids.circled!)]
    const otherDevice = devices.get('other')!
    const payloads = (name: string) => service.delivered(devices.get(name)!).map((r) => r.payload)
    // The other broker hears of the network listing both ways: a new match for their requirement, a saved-search hit.
    await eventually('the other broker’s match and saved-search alerts', () => {
      const got = service.delivered(otherDevice).map((r) => JSON.parse(r.payload) as { title: string; body: string })
      return got.some((p) => p.title.startsWith('New match') && p.body.includes(network)) && got.some((p) => p.title.startsWith('Saved search') && p.body.includes(network))
    }, 30_000)
    // Who the saved-search alert of each hidden listing would reach: not the other broker (the same rule as the push).
    for (const id of [ids.onlyMe!, ids.circled!]) expect((await instantHits(h.ctx.db, id, async (u) => new Set(u))).map((hit) => hit.userId)).not.toContain(other.user.id)
    expect((await instantHits(h.ctx.db, ids.network!, async (u) => new Set(u))).map((hit) => hit.userId)).toContain(other.user.id)
    const all = [...devices.keys()].flatMap(payloads)
    expect(all.length).toBeGreaterThan(1)
    expect(found(all.join('\n'), PRIVATE_MARKERS)).toEqual([])
    expect(found(payloads('other').join('\n'), [...HIDDEN_MARKERS, onlyMe, circled])).toEqual([])
    expect(found(payloads('puneAdmin').join('\n'), [...HIDDEN_MARKERS, onlyMe, circled])).toEqual([])
    // And what is still waiting in the outbox (encrypted at the send, stored as the alert's text until then).
    const queued = await h.ctx.db.all<Record<string, unknown>>('select * from push_outbox')
    expect(found(JSON.stringify(queued), PRIVATE_MARKERS)).toEqual([])
  }, 60_000)

  // Last, because a staged reveal puts private values in that deal's thread by design (the owner's act), which the
  // tables' check above would otherwise find.
  test('co-broking pushes: each step of a deal on the owner’s listing, a reveal of every private field included, carries none of them', async () => {
    const payloads = (name: string) => service.delivered(devices.get(name)!).map((r) => r.payload)
    const deals = (name: string) => payloads(name).filter((p) => (JSON.parse(p) as { tag?: string }).tag?.startsWith('deal-'))
    const ask = async (as: SignedIn, path: string, body: unknown = {}) => {
      const res = await h.request(path, withJson(as.browser, body))
      expect(res.status, await res.clone().text()).toBeLessThan(300)
      return (await res.json()) as { id: number }
    }
    const sent = await ask(other, `/api/listings/${ids.network}/cobroke-requests`, { requester_listing_id: ids.want, message: 'Client ready' })
    const deal = await ask(owner, `/api/cobroke-requests/${sent.id}/accept`)
    await ask(other, `/api/deals/${deal.id}/messages`, { body: 'Can we visit?' })
    await ask(owner, `/api/deals/${deal.id}/stage`, { stage: 'SITE_VISIT', visit_at: new Date(Date.now() + 86_400_000).toISOString() })
    await ask(owner, `/api/deals/${deal.id}/reveal`, { fields: ['owner_name', 'owner_phone', 'address'] })
    await ask(owner, `/api/deals/${deal.id}/messages`, { body: 'See the thread' })
    await ask(other, `/api/deals/${deal.id}/close`, { outcome: 'WON' })
    await ask(owner, `/api/deals/${deal.id}/close`, { outcome: 'WON' })
    // The other broker hears of the accept, the stage, the reveal, the message and the close; the owner of the
    // request, the message and the other's confirmation.
    await eventually('the deal steps at both devices', () => deals('other').length >= 5 && deals('owner').length >= 3, 30_000)
    // The thread holds the revealed values (what the walk looks for is there to find), for the other broker.
    const thread = await (await h.request(`/api/deals/${deal.id}`, { headers: other.bearer })).text()
    expect(thread).toContain(PRIVATE.owner_name)
    const all = [...devices.keys()].flatMap(payloads)
    expect(found(all.join('\n'), PRIVATE_MARKERS)).toEqual([])
    expect(found(JSON.stringify(await h.ctx.db.all<Record<string, unknown>>('select * from push_outbox')), PRIVATE_MARKERS)).toEqual([])
    expect(found(JSON.stringify(await h.ctx.db.all<Record<string, unknown>>('select * from push_held')), PRIVATE_MARKERS)).toEqual([])
    // Nor did a step put one in a log line or a mail.
    await h.mailIdle()
    expect(found(JSON.stringify(h.logLines()), PRIVATE_MARKERS)).toEqual([])
    expect(found(JSON.stringify(await h.ctx.db.all<Record<string, unknown>>('select * from mail_outbox')), PRIVATE_MARKERS)).toEqual([])
  }, 60_000)
})
