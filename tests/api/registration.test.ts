import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { LIMITS } from '../../src/shared/constants'
import { createTestApp } from '../support/app'
import { createUser, FILE_BYTES, seedPlace, userByEmail as userIn, type Place } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let place: Place

beforeAll(async () => {
  place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  await createUser(h.ctx.db, { email: 'city-admin@example.com', role: 'MODULE_ADMIN', cityId: place.cities[0]!.id })
  await createUser(h.ctx.db, { email: 'other-admin@example.com', role: 'MODULE_ADMIN', cityId: place.cities[1]!.id })
  await createUser(h.ctx.db, { email: 'master@example.com', role: 'MASTER_ADMIN' })
})

// Every request here comes from one address; the per-address limit has its own test below.
beforeEach(async () => await h.ctx.limits.registerByAddress.reset(h.address))

let seq = 0
function form(overrides: Record<string, string | File | undefined> = {}) {
  seq++
  const fields: Record<string, string | File | undefined> = {
    email: `new${seq}@example.com`,
    password: 'Strong@123',
    full_name: 'Nisha Patel',
    phone: '',
    id_card_number: '',
    city_id: String(place.cities[0]!.id),
    ...overrides,
  }
  const fd = new FormData()
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) fd.set(k, v)
  return fd
}
const post = (fd: FormData) => h.request('/api/auth/register', { method: 'POST', body: fd })
/** The stored documents' names: files under DATA_DIR/documents on SQLite, rows of the documents table on PostgreSQL. */
const documentFiles = async () =>
  h.ctx.db.dialect === 'postgres' ? (await h.ctx.db.all<{ name: string }>('select name from documents')).map((r) => r.name) : readdirSync(h.config.documentsDir)
/** A stored document's bytes, read where that backend keeps them (not through the store under test). */
const storedBytes = async (name: string) =>
  h.ctx.db.dialect === 'postgres'
    ? new Uint8Array((await h.ctx.db.get<{ bytes: Uint8Array }>('select bytes from documents where name = ?', [name]))!.bytes)
    : new Uint8Array(await Bun.file(`${h.config.documentsDir}/${name}`).arrayBuffer())
const userByEmail = (email: string) => userIn(h.ctx.db, email)

describe('POST /api/auth/register', () => {
  test('creates a PENDING, inactive broker, does not sign in, and mails the user, the city admin and master admins', async () => {
    const res = await post(form({ email: 'Nisha.Patel@Example.com', phone: '+91 98765 43210', id_card_number: 'ID-001' }))
    expect(res.status).toBe(201)
    expect(res.headers.get('set-cookie')).toBeNull()
    const body = await res.json()
    expect(body).toMatchObject({ email: 'nisha.patel@example.com', full_name: 'Nisha Patel', registration_status: 'PENDING' })
    const user = (await userByEmail('nisha.patel@example.com'))!
    expect(user).toMatchObject({ role: 'BROKER', isActive: false, registrationStatus: 'PENDING', phone: '+91 98765 43210', idCardNumber: 'ID-001' })
    expect(user.passwordHash.startsWith('$argon2id$')).toBe(true)
    await h.mailIdle()
    const to = (await h.ctx.db.all<{ to: string }>('select to_address as "to" from mail_outbox')).map((m) => m.to).sort()
    expect(to).toEqual(['city-admin@example.com', 'master@example.com', 'nisha.patel@example.com'])
    expect(await h.ctx.db.all("select id from audit_events where action = 'user.register'")).toHaveLength(1)
  })

  test('empty optional fields are "not given"', async () => {
    const res = await post(form({ email: 'empty-optional@example.com' }))
    expect(res.status).toBe(201)
    expect(await userByEmail('empty-optional@example.com')).toMatchObject({ phone: null, idCardNumber: null, idCardDocument: null })
  })

  test('a PNG named .pdf is stored as a PNG under a random name', async () => {
    const before = (await documentFiles()).length
    const res = await post(form({ email: 'png@example.com', id_card_file: new File([FILE_BYTES.png()], 'my-id.pdf', { type: 'application/pdf' }) }))
    expect(res.status).toBe(201)
    const user = (await userByEmail('png@example.com'))!
    expect(user.idCardDocumentType).toBe('image/png')
    expect(user.idCardDocument).toMatch(/^[a-f0-9]{32}\.png$/)
    expect(await documentFiles()).toHaveLength(before + 1)
    expect(await storedBytes(user.idCardDocument!)).toEqual(FILE_BYTES.png())
  })

  test.each([
    ['jpeg', 'image/jpeg'],
    ['pdf', 'application/pdf'],
  ] as const)('a %s is accepted by its bytes', async (kind, mime) => {
    const res = await post(form({ email: `${kind}@example.com`, id_card_file: new File([FILE_BYTES[kind]()], 'scan.bin') }))
    expect(res.status).toBe(201)
    expect((await userByEmail(`${kind}@example.com`))!.idCardDocumentType).toBe(mime)
  })

  test('a text file named .jpg is refused: 422 file type not allowed, no user, no file', async () => {
    const before = (await documentFiles()).length
    const res = await post(form({ email: 'txt@example.com', id_card_file: new File([FILE_BYTES.text()], 'id.jpg', { type: 'image/jpeg' }) }))
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ detail: 'file type not allowed' })
    expect(await userByEmail('txt@example.com')).toBeUndefined()
    expect(await documentFiles()).toHaveLength(before)
  })

  test('5 MB is accepted, 5 MB + 1 byte is refused: 413 file too large, no user, no file', async () => {
    const big = (size: number) => {
      const bytes = new Uint8Array(size)
      bytes.set(FILE_BYTES.jpeg())
      return new File([bytes], 'id.jpg', { type: 'image/jpeg' })
    }
    expect((await post(form({ email: 'exactly5@example.com', id_card_file: big(LIMITS.registrationFileBytes) }))).status).toBe(201)
    const before = (await documentFiles()).length
    const res = await post(form({ email: 'toolarge@example.com', id_card_file: big(LIMITS.registrationFileBytes + 1) }))
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ detail: 'file too large' })
    expect(await userByEmail('toolarge@example.com')).toBeUndefined()
    expect(await documentFiles()).toHaveLength(before)
  })

  test('a body far over the limit is refused with the JSON 413, whether its length is declared or streamed', async () => {
    const declared = await h.request('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: new Uint8Array(50 * 1024 * 1024),
    })
    expect(declared.status).toBe(413)
    expect((await declared.json()).detail).toBeString()
    let left = 13 // 13 MB in 1 MB pieces, no declared length
    const streamed = await h.request('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: new ReadableStream<Uint8Array>({
        pull(c) {
          c.enqueue(new Uint8Array(1024 * 1024))
          if (--left === 0) c.close()
        },
      }),
    })
    expect(streamed.status).toBe(413)
    expect((await streamed.json()).detail).toBe('Request body too large: the limit is 11 MB')
  })

  test('a document between the registration limit and the body limit: 413 file too large, not a 422 about every field', async () => {
    const bytes = new Uint8Array(7 * 1024 * 1024)
    bytes.set(FILE_BYTES.jpeg())
    const res = await post(form({ email: 'seven-mb@example.com', id_card_file: new File([bytes], 'id.jpg', { type: 'image/jpeg' }) }))
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ detail: 'file too large' })
    expect(await userByEmail('seven-mb@example.com')).toBeUndefined()
  })

  test('an email registered in any letter case: 409 email already registered', async () => {
    expect((await post(form({ email: 'twice@example.com' }))).status).toBe(201)
    const res = await post(form({ email: 'TWICE@Example.com' }))
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ detail: 'email already registered' })
  })

  test('an ID card number registered before: 409 id card number already registered', async () => {
    expect((await post(form({ id_card_number: 'CARD-77' }))).status).toBe(201)
    const res = await post(form({ id_card_number: 'CARD-77' }))
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ detail: 'id card number already registered' })
  })

  test('a city that does not exist: 422 invalid city', async () => {
    const res = await post(form({ city_id: '999999' }))
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ detail: 'invalid city' })
  })

  test('two registrations racing for one email: one wins, the loser leaves no file behind', async () => {
    const before = (await documentFiles()).length
    const file = () => new File([FILE_BYTES.png()], 'id.png')
    const results = await Promise.all([post(form({ email: 'race@example.com', id_card_file: file() })), post(form({ email: 'race@example.com', id_card_file: file() }))])
    expect(results.map((r) => r.status).sort()).toEqual([201, 409])
    expect(await documentFiles()).toHaveLength(before + 1)
    expect(await documentFiles()).toContain((await userByEmail('race@example.com'))!.idCardDocument!)
  })

  const messages = async (fd: FormData) => {
    const res = await post(fd)
    expect(res.status).toBe(422)
    return Object.fromEntries((await res.json()).detail.map((d: { loc: string[]; msg: string }) => [d.loc[1], d.msg]))
  }

  test('the password rules, each with its own message, in order', async () => {
    expect((await messages(form({ password: 'Ab1!' }))).password).toBe('Password must be at least 8 characters')
    expect((await messages(form({ password: 'abcdefg1!' }))).password).toBe('Password must contain at least one uppercase letter')
    expect((await messages(form({ password: 'ABCDEFG1!' }))).password).toBe('Password must contain at least one lowercase letter')
    expect((await messages(form({ password: 'Abcdefgh!' }))).password).toBe('Password must contain at least one number')
    expect((await messages(form({ password: 'Abcdefgh1' }))).password).toBe('Password must contain at least one special character')
  })

  test('the other field rules speak the form’s words', async () => {
    expect(await messages(form({ email: 'nope', full_name: 'A', phone: '12345', city_id: '' }))).toEqual({
      email: 'Please enter a valid email address',
      full_name: 'Full name must be at least 2 characters',
      phone: 'Please enter a valid phone number (at least 10 digits)',
      city_id: 'Please select a city',
    })
    // Spaces do not count towards a name.
    expect((await messages(form({ full_name: '  A  ' }))).full_name).toBe('Full name must be at least 2 characters')
  })

  test('an address that registers too often: 429 with Retry-After', async () => {
    const limiter = h.ctx.limits.registerByAddress
    // Counted as if limit - 1 had registered already (each real one costs a password hash).
    for (let i = 1; i < limiter.limit; i++) await limiter.hit(h.address)
    expect((await post(form())).status).toBe(201)
    const res = await post(form())
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await res.json()).detail).toContain('Too many')
  })
})
