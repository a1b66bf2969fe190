import { afterAll, describe, expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { assetUrls } from '../../generated/assets'
import { errorHandler } from '../../src/platform/http/errors'
import { conflict } from '../../src/platform/errors'
import { securityHeaders } from '../../src/platform/http/security'
import { createTestApp, jsonBody } from '../support/app'
import { PROBE_REUSE_MS } from '../../src/modules/health/service'

const h = await createTestApp()
afterAll(() => h.close())

describe('health', () => {
  test('GET /api/health reports the version and a database that answers', async () => {
    const res = await h.request('/api/health')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.status).toBe('ok')
    expect(body.version).toBe(require('../../package.json').version)
    expect(body.database.ok).toBe(true)
  })

  test('a storm of liveness checks asks the database at most once per PROBE_REUSE_MS (issue 36), each answer still its own', async () => {
    const t0 = performance.now()
    const probes = new Set<number>()
    for (let i = 0; i < 30; i++) {
      const res = await h.request('/api/health')
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.database.ok).toBe(true)
      // Each probe's own latency (to the microsecond): a reused probe's answer repeats it.
      probes.add(body.database.latency_ms)
    }
    const elapsed = performance.now() - t0
    expect(probes.size).toBeLessThanOrEqual(Math.floor(elapsed / PROBE_REUSE_MS) + 1)
  })

  test('a database that no longer answers: liveness stays 200 and says so, readiness is 503 with Retry-After', async () => {
    const ready = await h.request('/api/health/ready')
    expect(ready.status).toBe(200)
    expect(await ready.json()).toMatchObject({ status: 'ready', database: { ok: true } })

    const broken = await createTestApp()
    // The health checks read the migrations table (drizzle keeps PostgreSQL's in its own schema).
    await broken.ctx.db.run(`DROP TABLE ${broken.ctx.db.dialect === 'postgres' ? 'drizzle.' : ''}__drizzle_migrations`)
    const live = await broken.request('/api/health')
    expect(live.status).toBe(200)
    expect(await live.json()).toMatchObject({ status: 'degraded', database: { ok: false } })
    const unready = await broken.request('/api/health/ready')
    expect(unready.status).toBe(503)
    expect(Number(unready.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(typeof (await unready.json()).detail).toBe('string')
    await broken.close()
  })
})

describe('routing', () => {
  test('an unknown page redirects to /', async () => {
    const res = await h.request('/no/such/page?x=1')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
  })

  test('an unknown /api path is a JSON 404, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await h.request('/api/no-such-thing', { method })
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toContain('application/json')
      expect(await res.json()).toEqual({ detail: 'Not found' })
    }
  })

  test.each(['/login', '/register', '/forgot-password', '/reset-password?token=abc'])('%s exists', async (path) => {
    const res = await h.request(path)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
  })

  test('/reset-password without a token goes to /forgot-password', async () => {
    const res = await h.request('/reset-password')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/forgot-password')
  })

  test('/login keeps only a same-site redirect target', async () => {
    const good = await (await h.request('/login?redirect=%2Fdashboard%2Flistings')).text()
    expect(good).toContain('"redirectTo":"/dashboard/listings"')
    const evil = await (await h.request('/login?redirect=%2F%2Fevil.example')).text()
    expect(evil).not.toContain('evil.example')
  })
})

describe('public pages', () => {
  test('the landing page: hero, marketing claims, features, calls to action, header and footer', async () => {
    const res = await h.request('/')
    const html = await res.text()
    for (const text of ['500+', '50+', '15+', '99%', 'Join the Network', 'Learn More', 'Quick Links', 'Support', 'href="/about"', 'href="/login"', 'href="/register"'])
      expect(html).toContain(text)
    expect(html).not.toContain('<script') // no island on the landing page: no script at all
  })

  test('the about page: mission, values, features, contact block', async () => {
    const html = await (await h.request('/about')).text()
    for (const text of ['Our Mission', 'Our Values', 'What the platform offers', 'Contact Us']) expect(html).toContain(text)
  })
})

describe('security headers', () => {
  test.each(['/', '/api/health', '/api/missing', '/missing', assetUrls.css, '/swagger'])('%s carries them', async (path) => {
    const res = await h.request(path)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })
})

describe('assets', () => {
  test('CSS and the island client are served with a long cache and gzip when asked (brotli: tests/api/compression.test.ts)', async () => {
    for (const url of [assetUrls.css, assetUrls.client]) {
      const plain = await h.request(url)
      expect(plain.status).toBe(200)
      expect(plain.headers.get('cache-control')).toContain('immutable')
      const raw = new Uint8Array(await plain.arrayBuffer())
      const gz = await h.request(url, { headers: { 'accept-encoding': 'gzip' } })
      expect(gz.headers.get('content-encoding')).toBe('gzip')
      const zipped = new Uint8Array(await gz.arrayBuffer())
      expect(zipped.byteLength).toBeLessThan(raw.byteLength / 2)
      expect(Bun.gunzipSync(zipped)).toEqual(raw)
    }
  })

  test('the client bundle is production React (no development warnings inside)', async () => {
    const js = await (await h.request(assetUrls.client)).text()
    expect(js).not.toContain('react-dom.development')
    expect(js).not.toContain('Warning: ')
  })
})

describe('OpenAPI', () => {
  test('/swagger/json is OpenAPI 3.1 with tagged, summarised API routes and both security schemes', async () => {
    const doc = await (await h.request('/swagger/json')).json()
    expect(doc.openapi).toStartWith('3.1')
    expect(doc.info.title).toBe('Brokernet API')
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearerAuth', 'cookieAuth'])
    const paths = Object.keys(doc.paths)
    expect(paths).toContain('/api/health')
    expect(paths.every((p) => p.startsWith('/api/'))).toBe(true) // pages and assets stay out of the API docs
    for (const [, ops] of Object.entries<Record<string, { tags?: string[]; summary?: string }>>(doc.paths))
      for (const op of Object.values(ops)) {
        expect(op.tags?.length).toBeGreaterThan(0)
        expect(op.summary).toBeTruthy()
      }
  })

  test('Swagger UI loads nothing from another host', async () => {
    const html = await (await h.request('/swagger')).text()
    expect(html).toContain('id="swagger-ui"')
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    expect(urls.length).toBeGreaterThan(2)
    for (const u of urls) expect(u).toStartWith('/')
    expect(html).not.toMatch(/<script>(?!<\/script>)/) // no inline script
  })
})

describe('error shapes', () => {
  // A small app with the production error handler, to reach validation and service errors before feature routes exist.
  const probe = new Elysia()
    .use(securityHeaders)
    .use(errorHandler)
    .post('/api/probe', ({ body }) => body, {
      body: t.Object({ name: t.String({ minLength: 2, error: 'Name must be at least 2 characters' }), count: t.Integer({ minimum: 1 }) }),
    })
    .get('/api/conflict', () => {
      throw conflict('email already registered')
    })
    .get('/api/crash', () => {
      throw new Error('secret internals at /srv/app.ts:42')
    })
  const call = (path: string, init?: RequestInit) => probe.handle(new Request(`http://localhost${path}`, init))

  test('validation: 422 with loc, msg and type per problem, the schema’s own message first', async () => {
    const res = await call('/api/probe', jsonBody({ name: 'a', count: 'many', password: 'hunter2' }))
    expect(res.status).toBe(422)
    const { detail } = await res.json()
    expect(detail).toContainEqual({ loc: ['body', 'name'], msg: 'Name must be at least 2 characters', type: expect.any(String) })
    expect(detail.some((d: { loc: string[] }) => d.loc.join('.') === 'body.count')).toBe(true)
    expect(JSON.stringify(detail)).not.toContain('hunter2') // the request is not echoed back
  })

  test('malformed JSON: 400 with a detail', async () => {
    const res = await call('/api/probe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' })
    expect(res.status).toBe(400)
    expect(typeof (await res.json()).detail).toBe('string')
  })

  test('a service error keeps its status and message', async () => {
    const res = await call('/api/conflict')
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ detail: 'email already registered' })
  })

  test('an unexpected error is a 500 without internals', async () => {
    const original = console.error
    console.error = () => {}
    const res = await call('/api/crash')
    console.error = original
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ detail: 'Internal server error' })
    expect(text).not.toContain('secret')
  })
})

describe('a page that fails to render', () => {
  test("shows 'Something went wrong' with 'Try Again' and 'Refresh Page', status 500, no internals", async () => {
    const app = new Elysia().use(securityHeaders).use(errorHandler).get('/broken', () => {
      throw new Error('secret internals')
    })
    const original = console.error
    console.error = () => {}
    const res = await app.handle(new Request('http://localhost/broken'))
    console.error = original
    expect(res.status).toBe(500)
    const html = await res.text()
    for (const text of ['Something went wrong', 'Try Again', 'Refresh Page']) expect(html).toContain(text)
    expect(html).not.toContain('secret')
  })
})
