import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { ListingQuery } from '../../src/modules/listings/model'

// Elysia as patched (patches/elysia@1.4.30.patch, issue 36): a query is decoded once, and the outcome of cleaning,
// checking and decoding is kept per validator by the parsed values. A request repeating a query must get exactly what
// the first got, as its own object; a query never seen, or a bad one after a good one, is judged afresh.
const app = new Elysia().get(
  '/q',
  ({ query }) => {
    const seen = { ...query }
    // A handler changing its query must not change the next request's.
    ;(query as Record<string, unknown>).page = -1
    return seen
  },
  { query: ListingQuery },
)
const ask = async (qs: string) => {
  const res = await app.handle(new Request(`http://localhost/q?${qs}`))
  return { status: res.status, body: await res.json() }
}

describe('query decoding (patched Elysia)', () => {
  test('decoded as the schema says (numbers, booleans, the default per_page), the same when asked again', async () => {
    const first = await ask('city_id=3&page=2&possible_duplicates=true&search=sea%20view')
    expect(first).toEqual({ status: 200, body: { city_id: 3, page: 2, per_page: 50, possible_duplicates: true, search: 'sea view' } })
    for (let i = 0; i < 3; i++) expect(await ask('city_id=3&page=2&possible_duplicates=true&search=sea%20view')).toEqual(first)
  })

  test('other values are decoded for themselves; unknown fields are dropped as before', async () => {
    expect((await ask('city_id=4&page=2')).body).toEqual({ city_id: 4, page: 2, per_page: 50 })
    expect((await ask('city_id=4&page=3&per_page=25&unknown=1')).body).toEqual({ city_id: 4, page: 3, per_page: 25 })
  })

  test('a bad value is 422 each time, after good ones and before them', async () => {
    for (const qs of ['page=0', 'page=1e2', 'city_id=0x10', 'per_page=1000', 'page=2&min_budget=-1', 'page=0']) expect([qs, (await ask(qs)).status]).toEqual([qs, 422])
    expect((await ask('page=2')).status).toBe(200)
    expect((await ask('page=2x')).status).toBe(422)
  })

  test('a query too long to keep (junk parameters past 512 characters) is decoded each time, as right; a long search still is right', async () => {
    const junk = Array.from({ length: 60 }, (_, i) => `junk${i}=${'x'.repeat(20)}`).join('&')
    for (let i = 0; i < 3; i++) expect((await ask(`city_id=5&${junk}`)).body).toEqual({ city_id: 5, per_page: 50 })
    const long = 'sea view '.repeat(22).trim()
    for (let i = 0; i < 3; i++) expect((await ask(`search=${encodeURIComponent(long)}&page=3`)).body).toEqual({ search: long, page: 3, per_page: 50 })
  })

  test('more distinct queries than are kept: every one still right', async () => {
    for (let round = 0; round < 2; round++)
      for (let n = 1; n <= 1300; n += 7) expect((await ask(`city_id=${n}&page=${(n % 9) + 1}`)).body).toEqual({ city_id: n, page: (n % 9) + 1, per_page: 50 })
  })
})
