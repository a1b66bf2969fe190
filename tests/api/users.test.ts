import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LIMITS } from '../../src/shared/constants'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { auditTrail, FILE_BYTES, seedPlace } from '../support/fixtures'
import { pendingTotals } from '../support/events'

const h = await createTestApp()
afterAll(() => h.close())
let cityA: number
let cityB: number
let master: SignedIn
let moduleAdmin: SignedIn

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Alpha City', 'Beta City'])
  cityA = place.cities[0]!.id
  cityB = place.cities[1]!.id
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })
  moduleAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: cityA, fullName: 'Alan Alpha' })
})

let n = 0
function form(fields: Record<string, string | File> = {}) {
  n++
  const fd = new FormData()
  const all = { email: `user${n}@example.com`, password: 'Secret@123', full_name: `User ${n}`, phone: '9876543210', role: 'BROKER', city_id: String(cityA), ...fields }
  for (const [k, v] of Object.entries(all)) fd.set(k, v)
  return fd
}
const create = (as: SignedIn, fd: FormData) => h.request('/api/users', { method: 'POST', headers: as.browser, body: fd })
async function register(fields: Record<string, string | File> = {}) {
  n++
  const fd = new FormData()
  for (const [k, v] of Object.entries({ email: `reg${n}@example.com`, password: 'Strong@123', full_name: `Reg ${n}`, city_id: String(cityA), ...fields })) fd.set(k, v)
  const res = await h.request('/api/auth/register', { method: 'POST', body: fd })
  expect(res.status).toBe(201)
  return (await res.json()) as { id: number; email: string }
}
const auditOf = (entityId: number, action: string) => auditTrail(h.ctx.db, { entityId, action })
type Mail = { toAddress: string; subject: string; textBody: string }
const mailsTo = (to: string) =>
  h.ctx.db.all<Mail>('select to_address as "toAddress", subject, text_body as "textBody" from mail_outbox where to_address = ? order by id', [to])

describe('creating users', () => {
  test('an admin-made user is approved and active, with an audit event naming the actor', async () => {
    const res = await create(master, form({ role: 'MODULE_ADMIN', city_id: String(cityB), id_card_number: 'MA-1' }))
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body).toMatchObject({ role: 'MODULE_ADMIN', is_active: true, registration_status: 'APPROVED', city_id: cityB, city_name: 'Beta City', id_card_number: 'MA-1' })
    const [event] = await auditOf(body.id, 'user.create')
    expect(event).toMatchObject({ actorUserId: master.user.id, actorName: 'Mona Master', cityId: cityB })
    expect(JSON.stringify(event!.after)).not.toContain('password')
  })

  test('the add-user form’s messages', async () => {
    const fd = new FormData()
    fd.set('role', 'BROKER')
    const res = await create(master, fd)
    expect(res.status).toBe(422)
    const msgs = Object.fromEntries((await res.json()).detail.map((d: { loc: string[]; msg: string }) => [d.loc[1], d.msg]))
    expect(msgs).toEqual({ email: 'Email is required', password: 'Password is required', full_name: 'Full name is required', phone: 'Phone number is required', city_id: 'City is required' })
    const short = await create(master, form({ password: 'short' }))
    expect((await short.json()).detail[0].msg).toBe('Password must be at least 8 characters')
  })

  test('the 10 MB document limit and the content check are enforced (the original only hinted at them)', async () => {
    const big = new Uint8Array(LIMITS.adminUploadFileBytes + 1)
    big.set(FILE_BYTES.pdf())
    const tooBig = await create(master, form({ id_card_document: new File([big], 'id.pdf') }))
    expect(tooBig.status).toBe(413)
    expect(await tooBig.json()).toEqual({ detail: 'file too large' })
    const text = await create(master, form({ id_card_document: new File([FILE_BYTES.text()], 'id.png', { type: 'image/png' }) }))
    expect(text.status).toBe(422)
    expect(await text.json()).toEqual({ detail: 'file type not allowed' })
    const ok = await create(master, form({ id_card_document: new File([FILE_BYTES.pdf()], 'scan.jpg') }))
    expect(ok.status).toBe(201)
    expect((await ok.json()).id_card_document_type).toBe('application/pdf')
  })

  test('duplicates are refused with the registration texts', async () => {
    expect((await create(master, form({ email: 'dup@example.com', id_card_number: 'DUP-1' }))).status).toBe(201)
    const email = await create(master, form({ email: 'DUP@example.com' }))
    expect(await email.json()).toEqual({ detail: 'email already registered' })
    const card = await create(master, form({ id_card_number: 'DUP-1' }))
    expect(card.status).toBe(409)
    expect(await card.json()).toEqual({ detail: 'id card number already registered' })
  })
})

describe('listing', () => {
  test('search by name, email or ID card number; filters; pagination', async () => {
    for (let i = 0; i < 3; i++) await create(master, form({ full_name: `Zed Searchable ${i}`, id_card_number: `ZED-${i}`, city_id: String(cityB) }))
    const get = async (q: string) => (await h.request(`/api/users?${q}`, { headers: master.bearer })).json()
    expect((await get('search=zed searchable')).total).toBe(3)
    expect((await get('search=ZED-1')).users.map((u: { full_name: string }) => u.full_name)).toEqual(['Zed Searchable 1'])
    expect((await get(`search=zed&city_id=${cityA}`)).total).toBe(0)
    const page = await get('search=zed&per_page=2&page=2')
    expect(page).toMatchObject({ page: 2, per_page: 2, total: 3, total_pages: 2 })
    expect(page.users).toHaveLength(1)
    // Wildcards are text, not patterns.
    expect((await get('search=%25')).total).toBe(0)
    expect((await h.request('/api/users?per_page=101', { headers: master.bearer })).status).toBe(422)
  })
})

describe('approvals', () => {
  test('approve: PENDING → APPROVED and active, mail sent, audit kept, the count drops; a second approve is a 409', async () => {
    const reg = await register()
    const before = (await (await h.request('/api/users/pending/approvals', { headers: moduleAdmin.bearer })).json()).total
    const res = await h.request(`/api/users/${reg.id}/approve`, { method: 'POST', headers: moduleAdmin.browser })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ registration_status: 'APPROVED', is_active: true })
    expect((await (await h.request('/api/users/pending/approvals', { headers: moduleAdmin.bearer })).json()).total).toBe(before - 1)
    await h.mailIdle()
    expect((await mailsTo(reg.email)).filter((m) => m.subject === 'Your Brokernet account is approved')).toHaveLength(1)
    expect((await auditOf(reg.id, 'user.approve'))[0]).toMatchObject({ actorUserId: moduleAdmin.user.id })
    const again = await h.request(`/api/users/${reg.id}/approve`, { method: 'POST', headers: moduleAdmin.browser })
    expect(again.status).toBe(409)
    const reject = await h.request(`/api/users/${reg.id}/reject`, { method: 'POST', headers: moduleAdmin.browser })
    expect(reject.status).toBe(409)
  })

  test('reject keeps the reason and mails it; a rejected user can be approved later', async () => {
    const reg = await register()
    const res = await h.request(`/api/users/${reg.id}/reject?reason=${encodeURIComponent('ID card unreadable')}`, { method: 'POST', headers: master.browser })
    expect(await res.json()).toMatchObject({ registration_status: 'REJECTED', is_active: false, rejection_reason: 'ID card unreadable' })
    expect((await auditOf(reg.id, 'user.reject'))[0]).toMatchObject({ reason: 'ID card unreadable', actorUserId: master.user.id })
    await h.mailIdle()
    const mail = (await mailsTo(reg.email)).find((m) => m.subject === 'Your Brokernet registration')
    expect(mail?.textBody).toContain('ID card unreadable')
    // Activation cannot skip approval.
    const activate = await h.request(`/api/users/${reg.id}/activation`, withJson(master.browser, { is_active: true }, 'PATCH'))
    expect(activate.status).toBe(409)
    const approve = await h.request(`/api/users/${reg.id}/approve`, { method: 'POST', headers: master.browser })
    expect(approve.status).toBe(200)
    expect((await approve.json()).rejection_reason).toBeNull()
  })
})

describe('activation', () => {
  test('deactivate then activate, each audited with its reason', async () => {
    const made = await (await create(moduleAdmin, form())).json()
    const off = await h.request(`/api/users/${made.id}/activation`, withJson(moduleAdmin.browser, { is_active: false, reason: 'Deactivated by admin' }, 'PATCH'))
    expect((await off.json()).is_active).toBe(false)
    const on = await h.request(`/api/users/${made.id}/activation`, withJson(moduleAdmin.browser, { is_active: true, reason: 'Activated by admin' }, 'PATCH'))
    expect((await on.json()).is_active).toBe(true)
    expect((await auditOf(made.id, 'user.deactivate'))[0]!.reason).toBe('Deactivated by admin')
    expect((await auditOf(made.id, 'user.activate'))[0]!.reason).toBe('Activated by admin')
  })

  test('nobody deactivates themself', async () => {
    const self = await h.request(`/api/users/${master.user.id}/activation`, withJson(master.browser, { is_active: false }, 'PATCH'))
    expect(self.status).toBe(403)
    expect((await self.json()).detail).toBe('You cannot deactivate your own account')
  })

  test('one master admin may deactivate another, ending their sessions', async () => {
    const other = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
    expect((await h.request(`/api/users/${other.user.id}/activation`, withJson(master.browser, { is_active: false }, 'PATCH'))).status).toBe(200)
    expect((await h.request('/api/auth/me', { headers: other.bearer })).status).toBe(401)
  })
})

describe('editing', () => {
  test('name, phone and ID card number; the city by a master admin only; audited with before and after', async () => {
    const made = await (await create(moduleAdmin, form({ id_card_number: 'EDIT-1' }))).json()
    const res = await h.request(`/api/users/${made.id}`, withJson(moduleAdmin.browser, { full_name: '  Renamed Person ', phone: '1112223334' }, 'PATCH'))
    expect(await res.json()).toMatchObject({ full_name: 'Renamed Person', phone: '1112223334', id_card_number: 'EDIT-1' })
    const [event] = await auditOf(made.id, 'user.update')
    expect((event!.before as { full_name: string }).full_name).toBe(made.full_name)
    expect((event!.after as { full_name: string }).full_name).toBe('Renamed Person')
    const move = await h.request(`/api/users/${made.id}`, withJson(master.browser, { city_id: cityB }, 'PATCH'))
    expect((await move.json()).city_name).toBe('Beta City')
    // Now out of the module admin's city: not found to them.
    expect((await h.request(`/api/users/${made.id}`, { headers: moduleAdmin.bearer })).status).toBe(404)
    const blank = await h.request(`/api/users/${made.id}`, withJson(master.browser, { phone: '' }, 'PATCH'))
    expect(blank.status).toBe(422)
  })
})

describe('identity documents', () => {
  test('served to admins with the stored type, as an attachment named after the person, never cached; each view audited', async () => {
    const reg = await register({ full_name: 'Priya  Nair', id_card_file: new File([FILE_BYTES.png()], 'whatever.pdf', { type: 'application/pdf' }) })
    const pending = await (await h.request('/api/users/pending/approvals', { headers: master.bearer })).json()
    const item = pending.pending_users.find((u: { id: number }) => u.id === reg.id)
    expect(item.id_card_document_url).toBe(`/api/users/${reg.id}/id-card`)
    const res = await h.request(item.id_card_document_url, { headers: master.bearer })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Priya_Nair_id_card.png"')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(FILE_BYTES.png())
    expect(await auditOf(reg.id, 'user.id_card_view')).toHaveLength(1)
  })

  test('no document: 404 with a detail', async () => {
    const reg = await register()
    const res = await h.request(`/api/users/${reg.id}/id-card`, { headers: master.bearer })
    expect(res.status).toBe(404)
    expect((await res.json()).detail).toContain('no ID card document')
  })
})

describe('live pending count', () => {
  test('the stream sends the count on connect and again when someone registers in scope', async () => {
    const abort = new AbortController()
    const res = await h.request('/api/users/pending/stream', { headers: moduleAdmin.bearer, signal: abort.signal })
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const stream = pendingTotals(res)
    const nextTotal = stream.next
    const first = await nextTotal()
    await register()
    expect(await nextTotal()).toBe(first + 1)
    abort.abort()
    await stream.cancel()
  })
})
