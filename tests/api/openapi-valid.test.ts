// The OpenAPI document as served (/swagger/json: in process, from the binary, on either database) passes a validator
// of the specification, @readme/openapi-parser: the OpenAPI 3.1 schema and the rules a schema cannot say (path
// parameters declared, operation ids unique, arrays with items…). And the answers every operation shares are there.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { compileErrors, validate } from '@readme/openapi-parser'
import { createTestApp } from '../support/app'
import { operationsOf, type Json } from '../support/openapi'

const h = await createTestApp()
afterAll(() => h.close())

/** What the validator takes: a document of any OpenAPI version. */
type Document = Parameters<typeof validate>[0]

let doc: Json
beforeAll(async () => {
  // Answers first, as a running server has given before anyone reads its document: Elysia compiles a route's answer
  // check at its first answer and writes into the shared schema objects then (the document once changed with it).
  for (const path of ['/api/auth/register', '/api/auth/login', '/api/listings/']) await h.request(path, { method: path === '/api/listings/' ? 'GET' : 'POST' })
  doc = await (await h.request('/swagger/json')).json()
})

describe('the OpenAPI document', () => {
  test('is valid OpenAPI 3.1, every rule an error', async () => {
    // The validator resolves references in place: it gets a copy.
    const result = await validate(structuredClone(doc) as Document)
    expect(result.valid ? '' : compileErrors(result)).toBe('')
    expect(result.warnings).toEqual([])
  })

  test('the validator refuses what the document used to hold: a 204 with a `void` schema as its content', async () => {
    // Without this, a validator that accepted anything would make the test above pass whatever the document said.
    const broken = structuredClone(doc)
    broken.paths['/api/auth/logout'].post.responses['204'] = { description: 'Signed out', content: { type: 'void', description: 'Signed out' } }
    expect((await validate(broken as Document)).valid).toBe(false)
  })

  test('a 204 has no content', () => {
    const noContent = operationsOf(doc).filter((o) => o.op.responses['204'])
    expect(noContent.length).toBeGreaterThanOrEqual(9)
    for (const o of noContent) expect({ operation: `${o.method} ${o.path}`, content: o.op.responses['204'].content }).toEqual({ operation: `${o.method} ${o.path}`, content: undefined })
  })

  test('every operation documents 413, 431 and 503 as JSON errors, 503 and 429 with Retry-After', () => {
    for (const o of operationsOf(doc)) {
      const where = `${o.method} ${o.path}`
      for (const status of ['413', '431', '503']) expect({ where, status, type: Object.keys(o.op.responses[status]?.content ?? {}) }).toEqual({ where, status, type: ['application/json'] })
      if (o.path !== '/api/health') expect({ where, header: o.op.responses['503'].headers?.['Retry-After'] }).toMatchObject({ where, header: { schema: { type: 'integer' } } })
      if (o.op.responses['429']) expect({ where, header: o.op.responses['429'].headers?.['Retry-After'] }).toMatchObject({ where, header: { schema: { type: 'integer' } } })
    }
  })

  test('the answers of a route follow from its definition: guard, parameters, method', () => {
    const statuses = (method: string, path: string) => Object.keys(doc.paths[path][method].responses)
    // A guarded route with an id, changing something.
    expect(statuses('patch', '/api/listings/{id}')).toEqual(['200', '400', '401', '403', '404', '409', '413', '422', '431', '503'])
    // A public read without parameters.
    expect(statuses('get', '/api/geographic/countries')).toEqual(['200', '413', '431', '503'])
    // Rate limited: each says so in its own definition.
    for (const [method, path] of [['post', '/api/auth/login'], ['post', '/api/auth/register'], ['post', '/api/auth/password/forgot'], ['post', '/api/auth/password/reset'], ['post', '/api/listings/parse'], ['get', '/api/listings/export/xlsx']])
      expect({ path, statuses: statuses(method!, path!) }).toEqual({ path, statuses: expect.arrayContaining(['429']) })
    // A route's own words for a shared answer stay, beside the reference to it.
    expect(doc.paths['/api/listings/export/xlsx'].get.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests', description: expect.stringContaining('Two exports') })
  })
})
