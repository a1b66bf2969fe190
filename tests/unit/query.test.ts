import { afterEach, describe, expect, test } from 'bun:test'
import { createElement } from 'react'
import { api, ApiError, NETWORK_ERROR } from '../../islands/shared/api'
import { fetchJson, globalMutationMessage, loginUrl, makeQueryClient, MAX_RETRIES, retryDelay, shouldRetry } from '../../islands/shared/query'
import { browserStore } from '../../islands/shared/store'
import { toast, toastsAtom } from '../../islands/shared/toast'
import { Island } from '../../src/platform/pages/island'
import { renderPage } from '../../src/platform/pages/render'

const err = (status: number, message = `HTTP ${status}`) => new ApiError(status, null, message)
const failure = (p: Promise<unknown>) =>
  p.then(
    () => Promise.reject(new Error('expected a failure')),
    (e: unknown) => e as ApiError,
  )
const toasts = () => browserStore.get(toastsAtom)
afterEach(() => {
  for (const t of toasts()) toast.dismiss(t.id)
})

describe('retry decision (SPEC section 9)', () => {
  test.each([400, 401, 403, 404, 409, 422, 429, 499])('%i is never retried, query or mutation', (status) => {
    expect(shouldRetry('query', 0, err(status))).toBe(false)
    expect(shouldRetry('mutation', 0, err(status))).toBe(false)
  })

  test.each([0, 500, 502, 503, 599])('%i: a query retries 3 times, a mutation once', (status) => {
    expect([0, 1, 2, 3, 4].map((n) => shouldRetry('query', n, err(status)))).toEqual([true, true, true, false, false])
    expect([0, 1, 2].map((n) => shouldRetry('mutation', n, err(status)))).toEqual([true, false, false])
  })

  test('only API errors with status 0 or 500-599 are retried', () => {
    expect(MAX_RETRIES).toEqual({ query: 3, mutation: 1 })
    expect(shouldRetry('query', 0, err(600))).toBe(false)
    expect(shouldRetry('query', 0, err(302))).toBe(false)
    expect(shouldRetry('query', 0, new TypeError('x is undefined'))).toBe(false)
    expect(shouldRetry('query', 0, new Error('Network Error'))).toBe(false)
  })

  test('the transport never retries a 401, and fetchJson leaves retries to React Query', async () => {
    const realFetch = globalThis.fetch
    let calls = 0
    const answer = (status: number) =>
      (globalThis.fetch = (async () => (calls++, Response.json({ detail: `status ${status}` }, { status }))) as unknown as typeof fetch)
    try {
      answer(401)
      const e401 = await failure(api('/api/x'))
      expect([e401 instanceof ApiError, e401.status, e401.message, calls]).toEqual([true, 401, 'status 401', 1])
      calls = 0
      answer(503)
      const e503 = await failure(fetchJson('/api/x'))
      expect([e503 instanceof ApiError, e503.status, calls]).toEqual([true, 503, 1])
    } finally {
      globalThis.fetch = realFetch
    }
  })

  test('delay doubles from 1 s and is capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
  })
})

describe('global handler for failed mutations (SPEC section 8)', () => {
  test.each([
    ['401', err(401), 'Your session has expired. Please log in again.'],
    ['500', err(500), 'Server error. Please try again later.'],
    ['503', err(503), 'Server error. Please try again later.'],
    ['status 0', err(0, NETWORK_ERROR), 'Network error. Please check your connection.'],
    ['a plain "Network Error"', new Error('Network Error'), 'Network error. Please check your connection.'],
    ['a 400 whose message holds "Network Error"', err(400, 'Network Error in body'), 'Network error. Please check your connection.'],
    ['404', err(404), 'An unexpected error occurred'],
    ['409', err(409, 'Cannot delete'), 'An unexpected error occurred'],
    ['a TypeError', new TypeError('boom'), 'An unexpected error occurred'],
    ['a thrown string', 'not an error', 'An unexpected error occurred'],
  ] as const)('%s', (_label, error, message) => {
    expect(globalMutationMessage(error)).toBe(message)
  })
})

describe('the browser client', () => {
  test('has the query defaults of SPEC section 9', () => {
    const { queries, mutations } = makeQueryClient({ server: false }).getDefaultOptions()
    expect(queries).toMatchObject({ staleTime: 300_000, gcTime: 600_000, refetchOnWindowFocus: false, refetchOnReconnect: true })
    expect(typeof queries!.retry).toBe('function')
    expect(typeof mutations!.retry).toBe('function')
    expect((queries!.retryDelay as (n: number) => number)(2)).toBe(4000)
  })

  test('a query is tried 4 times on 503 and once on 401', async () => {
    const client = makeQueryClient({ server: false })
    let calls = 0
    const failing = (status: number) => () => {
      calls++
      return Promise.reject(err(status))
    }
    await expect(client.fetchQuery({ queryKey: ['a'], queryFn: failing(503), retryDelay: 0 })).rejects.toBeInstanceOf(ApiError)
    expect(calls).toBe(4)
    calls = 0
    await expect(client.fetchQuery({ queryKey: ['b'], queryFn: failing(401), retryDelay: 0, meta: { noAuthRedirect: true } })).rejects.toBeInstanceOf(ApiError)
    expect(calls).toBe(1)
    client.clear()
  })

  test('a failed mutation without its own handler shows the global toast, after 2 attempts on 5xx', async () => {
    const client = makeQueryClient({ server: false })
    let calls = 0
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => (calls++, Promise.reject(err(502))),
      retryDelay: 0,
    })
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(ApiError)
    expect(calls).toBe(2)
    expect(toasts().map((t) => [t.kind, t.message])).toEqual([['error', 'Server error. Please try again later.']])
    client.clear()
  })

  test('a mutation with its own onError, or marked handled, gets no global toast', async () => {
    const client = makeQueryClient({ server: false })
    let own = 0
    const withHandler = client.getMutationCache().build(client, { mutationFn: () => Promise.reject(err(404)), onError: () => void own++ })
    const handled = client.getMutationCache().build(client, { mutationFn: () => Promise.reject(err(404)), meta: { handled: true } })
    await expect(withHandler.execute(undefined)).rejects.toBeInstanceOf(ApiError)
    await expect(handled.execute(undefined)).rejects.toBeInstanceOf(ApiError)
    expect(own).toBe(1)
    expect(toasts()).toEqual([])
    client.clear()
  })

  test('a 401 sends the browser to /login with the current path, unless meta.noAuthRedirect', async () => {
    const visited: string[] = []
    const g = globalThis as { window?: unknown }
    const before = g.window
    g.window = { location: { pathname: '/dashboard/geographic', search: '?tab=2', assign: (u: string) => visited.push(u) } }
    try {
      const client = makeQueryClient({ server: false })
      const fail = () => Promise.reject(err(401))
      await client.fetchQuery({ queryKey: ['q'], queryFn: fail }).catch(() => {})
      await client.fetchQuery({ queryKey: ['quiet'], queryFn: fail, meta: { noAuthRedirect: true } }).catch(() => {})
      await client.getMutationCache().build(client, { mutationFn: fail }).execute(undefined).catch(() => {})
      expect(visited).toEqual([loginUrl('/dashboard/geographic?tab=2'), loginUrl('/dashboard/geographic?tab=2')])
      expect(visited[0]).toBe('/login?redirect=%2Fdashboard%2Fgeographic%3Ftab%3D2')
      expect(toasts().map((t) => t.message)).toEqual(['Your session has expired. Please log in again.'])
      client.clear()
    } finally {
      g.window = before
    }
  })
})

describe('server render', () => {
  const rules = { country: { properties: {} }, state: { properties: {} }, city: { properties: {} } }
  const geoPage = (name: string) =>
    createElement(Island, { name: 'GeoTree', props: { hierarchy: [{ id: 1, name, code: 'XX', states: [] }], rules } as never })

  test('a query island renders its initialData on the server, with a fresh client per request', async () => {
    const realFetch = globalThis.fetch
    let fetched = 0
    globalThis.fetch = (async () => (fetched++, Response.json([]))) as unknown as typeof fetch
    let first: string, second: string
    try {
      first = await renderPage(geoPage('Kenya'), { title: 'Geo' }).text()
      second = await renderPage(geoPage('Tanzania'), { title: 'Geo' }).text()
      await Bun.sleep(10)
    } finally {
      globalThis.fetch = realFetch
    }
    expect(fetched).toBe(0) // nothing is fetched on the server
    expect(first).toContain('data-country="Kenya"')
    expect(first).toContain('1 countries')
    // A shared (module-global) client would have served Kenya from its cache again.
    expect(second).toContain('data-country="Tanzania"')
    expect(second).not.toContain('Kenya')
  })
})
