import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { problems } from '../support/axe'
import { startWorld, type World } from '../support/world'

// Issue 30, on the Mumbai module admin's dashboard with the demo network: a place three of the city's listings use,
// which is none of its localities, is offered; the admin adds it with its zone, or dismisses another. At 390 and
// 1440 px, with axe.

setDefaultTimeout(120_000)

let world: World
let broker: string
let admin: string

beforeAll(async () => {
  world = await startWorld({ demo: true })
  broker = (await world.account('rahul.sharma@brokernet.example')).token
  admin = (await world.account('admin.mumbai@brokernet.example')).token
})
afterAll(() => world?.stop())

async function postListings(locality: string, n: number) {
  for (let i = 0; i < n; i++) {
    const res = await world.api(broker, 'POST', '/api/listings/', { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '+91 99999 00099', property_type: '2 BHK Apartment', locality, budget: 40_000 + i, details: `${locality} flat ${i}`, confirm_duplicate: true })
    expect(res.status).toBe(201)
  }
}

const offer = (name: string) => `[data-locality-offers] [data-offer="${name}"]`

describe('New localities offered to a module admin (issue 30)', () => {
  test('at 390 px: a place three listings use is offered and added with its zone', async () => {
    await postListings('Sector 17 Vashi', 3)
    const { page, errors } = await world.open(admin, '/dashboard', { viewport: { width: 390, height: 844 }, axe: true })
    await page.locator(offer('Sector 17 Vashi')).waitFor()
    expect(await page.locator(offer('Sector 17 Vashi')).innerText()).toContain('3 listings')
    // The demo's own localities are the city's already: only the new place is offered.
    expect(await page.locator('[data-locality-offers] [data-offer]').count()).toBe(1)
    expect(await problems(page, 'a locality offered at 390 px')).toEqual([])
    const small = await page.$$eval('[data-locality-offers] :is(button, select)', (els) => els.map((e) => e.getBoundingClientRect()).filter((r) => r.height < 44 || r.width < 44).length)
    expect(small).toBe(0)
    await page.locator(offer('Sector 17 Vashi')).getByLabel('Zone').selectOption('East')
    await page.getByRole('button', { name: 'Add Sector 17 Vashi' }).click()
    await page.locator('[data-toast]').filter({ hasText: 'Sector 17 Vashi added to Mumbai' }).waitFor()
    await page.locator('[data-no-offers]').waitFor()
    expect(errors).toEqual([])
    await page.context().close()
    // Added: not offered again.
    const again = await world.api(admin, 'GET', '/api/localities/offers')
    expect(((await again.json()) as { offers: unknown[] }).offers).toEqual([])
  })

  test('at 1440 px: another is dismissed and offered no more', async () => {
    await postListings('Kalina', 3)
    const { page, errors } = await world.open(admin, '/dashboard', { viewport: { width: 1440, height: 900 }, axe: true })
    await page.locator(offer('Kalina')).waitFor()
    expect(await problems(page, 'a locality offered at 1440 px')).toEqual([])
    await page.getByRole('button', { name: 'Dismiss Kalina' }).click()
    await page.locator('[data-toast]').filter({ hasText: 'Kalina dismissed' }).waitFor()
    await page.locator('[data-no-offers]').waitFor()
    expect(await problems(page, 'no locality left to decide on at 1440 px')).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
