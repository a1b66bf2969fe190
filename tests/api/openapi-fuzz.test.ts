// The API held to its own OpenAPI document (/swagger/json), for every operation and every kind of caller:
//  - a smoke test: each operation called anonymously and as each role with a plausible request;
//  - a property-based test (fast-check): requests generated from the documented schemas, valid and hostile
//    (wrong types, missing fields, control characters, look-alike numbers, unknown ids, bodies that are not what the
//    operation takes in any content type, heads over the limit).
// Either way no answer may be a 5xx, carry a status the operation does not document, or a body outside its schema.
// Run in process and, by `bun run test`, against the compiled binary.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { MAX_HEAD_BYTES } from '../../src/platform/http/head-limit'
import { createTestApp } from '../support/app'
import { signIn, sessionFor } from '../support/auth'
import { FILE_BYTES, seedPlace } from '../support/fixtures'
import { answerProblem, buildRequest, operationsOf, pathId, plausible, textArb, valueArb, type Json, type Operation, type Pool } from '../support/openapi'

const h = await createTestApp()
afterAll(() => h.close())

let doc: Json
let operations: Operation[]
let pool: Pool
/** Who calls: nobody, each role, and accounts that may not act (pending, inactive). */
const callers: Record<string, number | null> = { anonymous: null }

beforeAll(async () => {
  doc = await (await h.request('/swagger/json')).json()
  operations = operationsOf(doc)
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  const city = place.cities[0]!.id
  callers.broker = (await signIn(h.ctx.db, 'BROKER', { cityId: city, fullName: 'Asha Verma' })).user.id
  callers['module admin'] = (await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: city })).user.id
  callers['master admin'] = (await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })).user.id
  callers.pending = (await signIn(h.ctx.db, 'BROKER', { cityId: city, isActive: false, registrationStatus: 'PENDING' })).user.id
  callers.inactive = (await signIn(h.ctx.db, 'BROKER', { cityId: city, isActive: false })).user.id
  const listing = await h.request('/api/listings', {
    method: 'POST',
    headers: { ...(await headersOf('broker')), 'content-type': 'application/json' },
    body: JSON.stringify({ post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: '2 BHK', budget: 45000, location: 'West' }),
  })
  expect(listing.status).toBe(201)
  const doc0 = await h.ctx.documents.save(FILE_BYTES.png(), { mime: 'image/png', ext: 'png' })
  const applicant = (await signIn(h.ctx.db, 'BROKER', { cityId: city, isActive: false, registrationStatus: 'PENDING', idCardDocument: doc0, idCardDocumentType: 'image/png' })).user
  pool = {
    city,
    state: place.state.id,
    country: place.country.id,
    listing: (await listing.json()).id,
    user: applicant.id,
    audit: (await h.ctx.db.get<{ id: number }>('select id from audit_events order by id limit 1'))!.id,
  }
})

/**
 * Headers of a caller, with a session made for this request (an earlier request may have signed them out or ended
 * their sessions; the test is about answers, not about who is left standing). Mutations by cookie carry our Origin.
 */
async function headersOf(caller: string, viaCookie = false): Promise<Record<string, string>> {
  const id = callers[caller]
  if (id == null) return {}
  // Fuzzed requests may deactivate a role; bring it back so every role keeps being tried.
  if (caller !== 'pending' && caller !== 'inactive')
    await h.ctx.db.run("update users set is_active = true, registration_status = 'APPROVED' where id = ?", [id])
  const token = await sessionFor(h.ctx.db, id)
  return viaCookie ? { cookie: `${SESSION_COOKIE}=${token}`, origin: 'http://localhost' } : { authorization: `Bearer ${token}` }
}

const parametersOf = (o: Operation, where: 'path' | 'query') => ((o.op.parameters ?? []) as Json[]).filter((p) => p.in === where)
const bodySchemaOf = (o: Operation): Json | undefined => Object.values<Json>(o.op.requestBody?.content ?? {})[0]?.schema

async function call(o: Operation, built: ReturnType<typeof buildRequest>) {
  const res = await h.request(built.path, built.init)
  return answerProblem(o, res)
}

describe('the checker', () => {
  // Without this, a checker that accepts everything would make both tests below pass whatever the API did.
  test('refuses a 5xx, an undocumented status or type, and a body outside its schema; accepts a documented answer', async () => {
    const o: Operation = {
      method: 'GET',
      path: '/x',
      op: { responses: { '200': { content: { 'application/json': { schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } } }, '204': { description: 'none' } } },
    }
    const answer = (status: number, body: string, type = 'application/json') => new Response(body || null, { status, headers: { 'content-type': type } })
    expect(await answerProblem(o, answer(200, '{"n":1}'))).toBeNull()
    expect(await answerProblem(o, answer(204, ''))).toBeNull()
    expect(await answerProblem(o, answer(500, '{"detail":"x"}'))).toContain('server error')
    expect(await answerProblem(o, answer(404, '{"detail":"x"}'))).toContain('status not documented')
    expect(await answerProblem(o, answer(200, '{"n":"1"}'))).toContain('outside its schema')
    expect(await answerProblem(o, answer(200, 'n=1', 'text/plain'))).toContain('content type')
  })
})

describe('the document', () => {
  const op = (method: string, path: string) => doc.paths[path][method]
  test('documents what outside testing found missing', () => {
    for (const path of ['/api/listings/{id}', '/api/geographic/countries/{id}', '/api/geographic/states/{id}', '/api/geographic/cities/{id}']) {
      expect(Object.keys(op('delete', path).responses)).toEqual(expect.arrayContaining(['204', '401', '403', '404', '422']))
    }
    expect(op('delete', '/api/geographic/countries/{id}').responses['409']).toBeDefined()
    expect(Object.keys(op('get', '/api/users/{id}/id-card').responses['200'].content)).toEqual(['image/jpeg', 'image/png', 'application/pdf'])
    expect(Object.keys(op('get', '/api/listings/export/xlsx').responses['200'].content)).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'])
    expect(Object.keys(op('get', '/api/audit/export.csv').responses['200'].content)).toEqual(['text/csv'])
    expect(op('post', '/api/auth/logout').responses['204']).toBeDefined()
    expect(op('post', '/api/auth/logout').responses['401']).toBeUndefined() // a session is optional there
    expect(op('post', '/api/analytics/cache/invalidate').responses['200'].content['application/json'].schema.properties.message).toBeDefined()
    expect(op('get', '/api/listings/{id}').responses['422']).toBeDefined()
    expect(op('post', '/api/listings/').responses['400']).toBeDefined()
    expect(op('post', '/api/listings/').responses['413']).toBeDefined()
  })

  test('request bodies, ids and nullable fields as a client reads them', () => {
    const register = op('post', '/api/auth/register').requestBody.content['multipart/form-data'].schema
    expect(Object.keys(register.properties)).toEqual(expect.arrayContaining(['email', 'password', 'full_name', 'phone', 'id_card_number', 'city_id', 'id_card_file']))
    expect(op('post', '/api/listings/').requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['post_type', 'sale_or_rent']))
    for (const { path, op: o } of operations)
      for (const p of (o.parameters ?? []) as Json[]) if (p.in === 'path') expect({ path, schema: p.schema }).toEqual({ path, schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } })
    const listing = op('get', '/api/listings/{id}').responses['200'].content['application/json'].schema
    expect(listing.properties.location.enum).toContain(null)
    expect(listing.properties.id).toEqual({ type: 'integer' })
    const page = (op('get', '/api/listings/').parameters as Json[]).find((p) => p.name === 'page')!
    expect(page.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1_000_000 })
  })
})

describe('smoke: every documented operation, as every caller, with a plausible request', () => {
  test('the document lists the API', () => {
    expect(operations.length).toBeGreaterThan(40)
  })

  test('no 5xx and every answer as documented', async () => {
    const problems: string[] = []
    // Deletions last, so the others find what they ask for.
    const ordered = [...operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    for (const o of ordered) {
      for (const caller of Object.keys(callers)) {
        const params = Object.fromEntries(parametersOf(o, 'path').map((p) => [p.name, String(pathId(o.path, p.name, pool))]))
        const query = Object.fromEntries(parametersOf(o, 'query').filter((p) => p.required).map((p) => [p.name, String(plausible(p.schema, p.name, pool))]))
        const schema = bodySchemaOf(o)
        const body = schema ? plausible(schema, 'body', pool) : undefined
        const problem = await call(o, buildRequest(o, { params, query, body }, await headersOf(caller, caller === 'broker')))
        if (problem) problems.push(`${caller}: ${problem}`)
      }
    }
    expect(problems).toEqual([])
  }, 120_000)
})

describe('property: generated requests get documented answers', () => {
  const hostilePath = fc.constantFrom('0', '-1', '0x10', '1e2', '+1', 'abc', '99999999999999999999', ' 1', '1.5', '%2F')

  test('for every operation, valid and hostile requests from every caller', async () => {
    const problems: string[] = []
    for (const o of operations) {
      const pathParams = parametersOf(o, 'path')
      const queryParams = parametersOf(o, 'query')
      const schema = bodySchemaOf(o)
      const request = fc.record({
        caller: fc.constantFrom(...Object.keys(callers)),
        viaCookie: fc.boolean(),
        params: fc.record(
          Object.fromEntries(pathParams.map((p) => [p.name, fc.oneof(fc.constant(String(pathId(o.path, p.name, pool))), fc.integer({ min: 1, max: 5000 }).map(String), hostilePath)])),
        ),
        query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, textArb(p.schema, p.name, pool)])), { requiredKeys: [] }),
        body: schema ? fc.option(valueArb(schema, 'body', pool), { freq: 8 }) : fc.constant(undefined),
        // Text that is not the body the operation takes, in any content type, to any operation whose method carries one.
        rawBody: o.method !== 'GET' ? fc.option(fc.constantFrom('{', '{"a":', 'null', '[]', '"text"', '\u0000', 'a=1&b', '--x\r\nbroken'), { freq: schema ? 10 : 4 }) : fc.constant(null),
        rawType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/xml'),
        // Now and then a head over the limit, by one long header or a long address.
        oversized: fc.option(fc.constantFrom('header', 'address'), { freq: 15 }),
      })
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const headers = await headersOf(r.caller, r.viaCookie)
          const query = r.oversized === 'address' ? { ...r.query, pad: 'x'.repeat(MAX_HEAD_BYTES) } : r.query
          if (r.oversized === 'header') headers['x-padding'] = 'x'.repeat(MAX_HEAD_BYTES)
          const built = buildRequest(o, { params: r.params, query, body: r.body ?? undefined, rawBody: r.rawBody ?? undefined, rawType: r.rawType }, headers)
          const problem = await call(o, built)
          if (problem) problems.push(`${r.caller}${r.viaCookie ? ' (cookie)' : ''} ${built.path.slice(0, 300)}: ${problem}`)
          return problem === null
        }),
        // Registration and sign-in hash passwords (about 0.2 s each): fewer runs there.
        { numRuns: /\/auth\/(register|login|password)/.test(o.path) ? 20 : 100, endOnFailure: true },
      ).catch(() => undefined) // every problem is collected and reported below, all operations together
    }
    expect(problems).toEqual([])
  }, 600_000)
})
