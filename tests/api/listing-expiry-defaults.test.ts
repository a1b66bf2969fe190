// A city's listing expiry defaults (issue 17): "a master admin, or a city's module admin for their city, sets those two
// defaults per city (1–365 days)" through PUT /api/geographic/cities/{id}/listing-expiry, audited, and shown in the
// geography API's city answers.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { auditTrail, seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let mumbai: number
let pune: number
let master: SignedIn
let mumbaiAdmin: SignedIn
let broker: SignedIn

type City = { id: number; rent_days: number; sale_days: number }
const setExpiry = (as: SignedIn, city: number, body: unknown) => h.request(`/api/geographic/cities/${city}/listing-expiry`, withJson(as.browser, body, 'PUT'))
const cityOf = async (id: number) => ((await (await h.request('/api/geographic/cities', { headers: broker.bearer })).json()) as City[]).find((c) => c.id === id)!

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  ;[mumbai, pune] = place.cities.map((c) => c.id) as [number, number]
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai, fullName: 'Meera Mumbai' })
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
})

describe("a city's listing expiry defaults", () => {
  test('30 days for RENT and 90 for SALE until set, in every city answer of the geography API', async () => {
    expect(await cityOf(pune)).toMatchObject({ rent_days: 30, sale_days: 90 })
    const tree = await (await h.request('/api/geographic/hierarchy', { headers: broker.bearer })).json()
    expect(tree[0].states[0].cities.map((c: City) => [c.rent_days, c.sale_days])).toEqual([[30, 90], [30, 90]])
  })

  test('a module admin sets their own city, and is refused another (403); a broker is refused (403)', async () => {
    const res = await setExpiry(mumbaiAdmin, mumbai, { rent_days: 45, sale_days: 120 })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ city_id: mumbai, rent_days: 45, sale_days: 120 })
    expect(await cityOf(mumbai)).toMatchObject({ rent_days: 45, sale_days: 120 })

    const other = await setExpiry(mumbaiAdmin, pune, { rent_days: 10, sale_days: 10 })
    expect(other.status).toBe(403)
    expect((await other.json()).detail).toBe('You can only set the listing expiry of your own city')
    expect((await setExpiry(broker, mumbai, { rent_days: 10, sale_days: 10 })).status).toBe(403)
    expect((await h.request(`/api/geographic/cities/${mumbai}/listing-expiry`, withJson({}, { rent_days: 10, sale_days: 10 }, 'PUT'))).status).toBe(401)
    expect(await cityOf(pune)).toMatchObject({ rent_days: 30, sale_days: 90 })
  })

  test('a master admin sets any city; an unknown city is a 404', async () => {
    expect((await setExpiry(master, pune, { rent_days: 1, sale_days: 365 })).status).toBe(200)
    expect(await cityOf(pune)).toMatchObject({ rent_days: 1, sale_days: 365 })
    const res = await setExpiry(master, 999_999, { rent_days: 30, sale_days: 90 })
    expect(res.status).toBe(404)
    expect((await res.json()).detail).toBe('City not found')
  })

  test('whole days from 1 to 365, both required: 422 naming the field with a clear message', async () => {
    const rent = 'Rent listings must expire after a whole number of days from 1 to 365'
    const sale = 'Sale listings must expire after a whole number of days from 1 to 365'
    for (const [body, field, message] of [
      [{ rent_days: 0, sale_days: 90 }, 'rent_days', rent],
      [{ rent_days: 366, sale_days: 90 }, 'rent_days', rent],
      [{ rent_days: 2.5, sale_days: 90 }, 'rent_days', rent],
      [{ rent_days: 'thirty', sale_days: 90 }, 'rent_days', rent],
      [{ rent_days: null, sale_days: 90 }, 'rent_days', rent],
      [{ sale_days: 90 }, 'rent_days', rent],
      [{ rent_days: 30, sale_days: -5 }, 'sale_days', sale],
      [{ rent_days: 30, sale_days: 1000 }, 'sale_days', sale],
      [{ rent_days: 30 }, 'sale_days', sale],
    ] as const) {
      const res = await setExpiry(master, pune, body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      const { detail } = (await res.json()) as { detail: { loc: string[]; msg: string }[] }
      expect(detail.find((d) => d.loc.at(-1) === field)?.msg, JSON.stringify(body)).toBe(message)
    }
    // A caller whose role may not set it is refused before the body is read.
    expect((await setExpiry(broker, pune, { rent_days: 0 })).status).toBe(403)
    expect(await cityOf(pune)).toMatchObject({ rent_days: 1, sale_days: 365 })
  })

  test('every change is audited with the city, who, before and after', async () => {
    const events = await auditTrail(h.ctx.db, { action: 'city.listing_expiry' })
    expect(events.map((e) => [e.entityType, e.entityId, e.cityId, e.actorName, e.before, e.after])).toEqual([
      ['city', String(mumbai), mumbai, 'Meera Mumbai', { rent_days: 30, sale_days: 90 }, { rent_days: 45, sale_days: 120 }],
      ['city', String(pune), pune, 'Mona Master', { rent_days: 30, sale_days: 90 }, { rent_days: 1, sale_days: 365 }],
    ])
  })
})
