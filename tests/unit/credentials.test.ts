import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { cookieIn, requestCredentials } from '../../src/platform/http/credentials'

// The guard reads the session cookie off the request itself and sets cookies into Elysia's `set.cookie`
// (src/platform/http/credentials.ts): what it reads must be what Elysia's own parser reads, and what it sets must come
// out as Elysia's jar would write it.
describe('cookies read without Elysia', () => {
  const elysiaReads = new Elysia().get('/', ({ cookie }) => ({ value: cookie.s?.value ?? null }))
  const cases = [
    's=abc',
    'a=1; s=abc; b=2',
    'a=1;s=abc',
    '  s = abc  ',
    's=ab%20c',
    's="quoted"',
    's=%E0%A4%B8',
    's=%ZZ',
    's=first; s=second',
    's=',
    'sx=1; xs=2',
    'a=1',
    '',
  ]
  test.each(cases)('%p: the value Elysia parses', async (header) => {
    const res = await elysiaReads.handle(new Request('http://localhost/', { headers: header ? { cookie: header } : {} }))
    const { value } = (await res.json()) as { value: unknown }
    expect(cookieIn(header || null, 's') ?? null).toBe(typeof value === 'string' && value ? value : null)
  })
})

describe('cookies set without a jar', () => {
  test("Set-Cookie as Elysia's jar writes it: value and attributes; beside a cookie the handler's jar sets", async () => {
    const expires = new Date(Date.now() + 86_400_000)
    const viaSet = new Elysia().get('/', ({ request, set }) => {
      requestCredentials(request, set).setCookie('s', { value: 'tok', httpOnly: true, sameSite: 'lax', secure: true, path: '/', expires })
      return 'ok'
    })
    const viaJar = new Elysia().get('/', ({ cookie }) => {
      cookie.s!.set({ value: 'tok', httpOnly: true, sameSite: 'lax', secure: true, path: '/', expires })
      return 'ok'
    })
    const [ours, jar] = await Promise.all([viaSet, viaJar].map((app) => app.handle(new Request('http://localhost/'))))
    expect(ours!.headers.get('set-cookie')).toBe(jar!.headers.get('set-cookie'))
    expect(ours!.headers.get('set-cookie')).toContain('s=tok')

    const both = new Elysia().get('/', ({ request, set, cookie }) => {
      requestCredentials(request, set).setCookie('s', { value: 'tok', path: '/' })
      cookie.other!.set({ value: 'x', path: '/' })
      return 'ok'
    })
    const cookies = (await both.handle(new Request('http://localhost/'))).headers.getSetCookie()
    expect(cookies.map((c) => c.split(';')[0]).sort()).toEqual(['other=x', 's=tok'])
  })
})
