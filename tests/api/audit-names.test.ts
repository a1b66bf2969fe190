import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { FIELD_LABELS, fieldLabel, shownValue } from '../../islands/audit/audit-format'
import type { AuditEvent } from '../../src/modules/audit/model'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { FILE_BYTES, seedPlace } from '../support/fixtures'

// The audit trail names what its ids point at (the details dialog shows "City: Mumbai", not "city_id: 3"), and every
// field any writer records has a label. Its own app: the events here would upset audit.test.ts's counts.
const h = await createTestApp()
afterAll(() => h.close())
let master: SignedIn
let alpha: { id: number; name: string }
let beta: { id: number; name: string }
let events: AuditEvent[]

const json = async (res: Response | Promise<Response>, status = 200) => {
  const r = await res
  if (r.status !== status) throw new Error(`${r.url} ${r.status}: ${await r.text()}`)
  return r.status === 204 ? null : r.json()
}
const send = (path: string, body: unknown, method = 'POST', status = method === 'POST' ? 201 : 200) => json(h.request(path, withJson(master.browser, body, method)), status)
const eventOf = (action: string, entityId: number | string) => events.find((e) => e.action === action && e.entity_id === String(entityId))!

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Alpha', 'Beta'])
  alpha = place.cities[0]!
  beta = place.cities[1]!
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })

  // A user of every kind of writer: created by an admin, edited (moved to another city), switched off and on.
  const fd = new FormData()
  for (const [k, v] of Object.entries({ email: 'asha@names.example', password: 'Secret@123', full_name: 'Asha Broker', phone: '9876543210', role: 'BROKER', city_id: String(alpha.id), id_card_number: 'AB-1' }))
    fd.set(k, v)
  const asha = await json(h.request('/api/users', { method: 'POST', headers: master.browser, body: fd }), 201)
  await send(`/api/users/${asha.id}`, { city_id: beta.id, id_card_number: null }, 'PATCH')
  await send(`/api/users/${asha.id}/activation`, { is_active: false, reason: 'Left the agency' }, 'PATCH')
  // A registration with a document, then its approval.
  const reg = new FormData()
  for (const [k, v] of Object.entries({ email: 'ravi@names.example', password: 'Strong@123', full_name: 'Ravi Applicant', city_id: String(alpha.id) })) reg.set(k, v)
  reg.set('id_card_file', new File([FILE_BYTES.png()], 'card.png', { type: 'image/png' }))
  const ravi = await json(h.request('/api/auth/register', { method: 'POST', body: reg }), 201)
  await json(h.request(`/api/users/${ravi.id}/approve`, { method: 'POST', headers: master.browser }))

  // A listing made, edited and deleted (its owner the master admin, in Alpha).
  const listing = await send('/api/listings', {
    post_type: 'AVL',
    sale_or_rent: 'RENT',
    contact_value: '9876543210',
    property_type: 'Office',
    city_id: alpha.id,
    details: 'Corner office',
    budget: 150000,
  })
  await send(`/api/listings/${listing.id}`, { status: 'SUSPENDED', google_location_url: 'https://maps.example/x' }, 'PATCH')
  await json(h.request(`/api/listings/${listing.id}`, { method: 'DELETE', headers: master.browser }), 204)

  // Geography: each level created, renamed and removed.
  const country = await send('/api/geographic/countries', { name: 'Freedonia', code: 'FD' })
  const state = await send('/api/geographic/states', { name: 'North Freedonia', code: 'NF', country_id: country.id })
  const city = await send('/api/geographic/cities', { name: 'Fredville', state_id: state.id, newsco_region: 'North' })
  await send(`/api/geographic/cities/${city.id}`, { name: 'Fredtown', state_id: state.id, newsco_region: null }, 'PUT')
  await send(`/api/geographic/states/${state.id}`, { name: 'Upper Freedonia', code: 'UF', country_id: country.id }, 'PUT')
  await send(`/api/geographic/countries/${country.id}`, { name: 'Freedonia Republic', code: 'FR' }, 'PUT')
  for (const path of [`cities/${city.id}`, `states/${state.id}`, `countries/${country.id}`])
    await json(h.request(`/api/geographic/${path}`, { method: 'DELETE', headers: master.browser }), 204)

  events = (await json(h.request('/api/audit?per_page=100', { headers: master.bearer }))).events
})

describe('audit field labels and names', () => {
  test('the trail holds every kind of event written above', () => {
    const actions = new Set(events.map((e) => e.action))
    for (const a of ['user.create', 'user.update', 'user.deactivate', 'user.register', 'user.approve', 'listing.create', 'listing.suspend', 'listing.delete'])
      expect(actions).toContain(a)
    for (const level of ['country', 'state', 'city']) for (const verb of ['create', 'update', 'delete']) expect(actions).toContain(`${level}.${verb}`)
  })

  test('every field any event records has a label (none falls back to its raw name)', () => {
    const fields = new Set(events.flatMap((e) => [e.before, e.after].flatMap((side) => (side && typeof side === 'object' ? Object.keys(side) : []))))
    expect(fields.size).toBeGreaterThan(30)
    const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    const unlabelled = [...fields].filter((f) => !FIELD_LABELS[snake(f)])
    expect(unlabelled).toEqual([])
    expect(fieldLabel('city_id')).toBe('City')
    expect(fieldLabel('cityId')).toBe('City')
    expect(fieldLabel('ownerUserId')).toBe('Broker')
  })

  test("a user moved to another city: both cities named, the user named; the dialog's values read 'Alpha' → 'Beta', null as '—'", () => {
    const moved = events.find((e) => e.action === 'user.update')! as AuditEvent & { before: Record<string, unknown>; after: Record<string, unknown> }
    expect(moved.before).toMatchObject({ city_id: alpha.id, id_card_number: 'AB-1' })
    expect(moved.after).toMatchObject({ city_id: beta.id, id_card_number: null })
    expect(moved.names.cities).toEqual({ [alpha.id]: 'Alpha', [beta.id]: 'Beta' })
    expect(moved.names.users).toEqual({ [moved.entity_id!]: 'Asha Broker' })
    expect(shownValue('city_id', moved.before.city_id, moved.names).text).toBe('Alpha')
    expect(shownValue('city_id', moved.after.city_id, moved.names)).toEqual({ text: 'Beta', title: `City #${beta.id}` })
    expect(shownValue('id_card_number', moved.after.id_card_number, moved.names).text).toBe('—')
    expect(shownValue('is_active', true, moved.names).text).toBe('Yes')
    expect(shownValue('budget', 150000, moved.names).text).toBe('150,000')
    expect(shownValue('details', 'Corner office').text).toBe('"Corner office"')
    expect(shownValue('city_id', 999_999, moved.names).text).toBe('City #999999')
  })

  test('a listing: its owner, city and entry ID are named, even after it is deleted (from its own snapshot)', () => {
    const created = events.find((e) => e.action === 'listing.create')!
    const deleted = eventOf('listing.delete', created.entity_id!)
    const entry = (created.after as { entryId: string }).entryId
    for (const e of [created, deleted]) {
      expect(e.names.users).toEqual({ [master.user.id]: 'Mona Master' })
      expect(e.names.cities).toEqual({ [alpha.id]: 'Alpha' })
      expect(e.names.listings).toEqual({ [created.entity_id!]: entry })
    }
  })

  test('removed geography keeps its last name, read from the trail; a city names its state, a state its country', () => {
    const cityCreated = events.find((e) => e.action === 'city.create')!
    const stateId = (cityCreated.after as { state_id: number }).state_id
    // The state was renamed, then removed: its last name, from its delete event.
    expect(cityCreated.names.states).toEqual({ [stateId]: 'Upper Freedonia' })
    const stateCreated = events.find((e) => e.action === 'state.create')!
    expect(Object.values(stateCreated.names.countries)).toEqual(['Freedonia Republic'])
    const cityDeleted = eventOf('city.delete', cityCreated.entity_id!)
    expect(cityDeleted.names.cities).toEqual({ [cityCreated.entity_id!]: 'Fredtown' })
    const countryDeleted = events.find((e) => e.action === 'country.delete')!
    expect(countryDeleted.names.countries).toEqual({ [countryDeleted.entity_id!]: 'Freedonia Republic' })
  })

  test('one event read alone carries the same names', async () => {
    const moved = events.find((e) => e.action === 'user.update')!
    const one = await json(h.request(`/api/audit/${moved.id}`, { headers: master.bearer }))
    expect(one.names).toEqual(moved.names)
  })
})
