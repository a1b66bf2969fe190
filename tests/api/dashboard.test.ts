import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Role } from '../../src/shared/constants'
import { createTestApp } from '../support/app'
import { signIn, withJson } from '../support/auth'
import { insertListing, insertUser, seedPlace, type Place } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let place: Place

beforeAll(async () => {
  place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  const pending = (email: string, cityId: number) =>
    ({ email, passwordHash: 'x', fullName: email, role: 'BROKER', isActive: false, registrationStatus: 'PENDING', cityId }) as const
  for (const user of [pending('p1@example.com', place.cities[0]!.id), pending('p2@example.com', place.cities[0]!.id), pending('p3@example.com', place.cities[1]!.id)])
    await insertUser(h.ctx.db, user)
})

const as = async (role: Role, cityId: number | null = place.cities[0]!.id) => (await signIn(h.ctx.db, role, { cityId, fullName: `Pat ${role}` })).browser
const page = async (path: string, headers: Record<string, string>) => {
  const res = await h.request(path, { headers })
  return { status: res.status, html: await res.text(), location: res.headers.get('location') }
}

describe('the dashboard guard', () => {
  test.each(['/dashboard', '/dashboard/listings', '/dashboard/my-listings', '/dashboard/approvals', '/dashboard/audit'])(
    'signed out, %s goes to /login remembering the page',
    async (path) => {
      const res = await page(path + '?x=1', {})
      expect(res.status).toBe(302)
      expect(res.location).toBe(`/login?redirect=${encodeURIComponent(path + '?x=1')}`)
    },
  )

  test("an inactive user sees 'Account Inactive'", async () => {
    const res = await page('/dashboard', (await signIn(h.ctx.db, 'BROKER', { isActive: false })).browser)
    expect(res.status).toBe(403)
    expect(res.html).toContain('Account Inactive')
    expect(res.html).toContain('Your account is currently inactive. Please contact an administrator.')
  })

  test.each([
    ['BROKER', '/dashboard/approvals', "You don&#x27;t have permission to access this page."],
    ['BROKER', '/dashboard/brokers', "You don&#x27;t have permission to access this page."],
    ['BROKER', '/dashboard/analytics', "You don&#x27;t have permission to access this page."],
    ['BROKER', '/dashboard/audit', "You don&#x27;t have permission to access this page."],
    ['MODULE_ADMIN', '/dashboard/admins', 'Only Master Admins can manage Module Admins.'],
    ['MODULE_ADMIN', '/dashboard/geographic', 'Only Master Administrators can manage geographic data.'],
  ] as const)('%s on %s: Access Denied (403)', async (role, path, message) => {
    const res = await page(path, await as(role))
    expect(res.status).toBe(403)
    expect(res.html).toContain('Access Denied')
    expect(res.html).toContain(message)
  })

  test.each(['MASTER_ADMIN', 'MODULE_ADMIN'] as const)("%s on /dashboard/my-listings: 'Access Restricted'", async (role) => {
    const res = await page('/dashboard/my-listings', await as(role))
    expect(res.html).toContain('Access Restricted')
    expect(res.html).toContain('This page is only available for brokers.')
  })
})

describe('the shell', () => {
  const navOf = (html: string) => [...html.slice(html.indexOf('<ul class="menu')).matchAll(/<li><a href="(\/dashboard[^"]*)"/g)].map((m) => m[1])

  test('navigation by role (SPEC section 2)', async () => {
    // Issue 32: a broker's menu also reaches the paste screen and the saved searches (a phone has no desk buttons).
    expect(navOf((await page('/dashboard', await as('BROKER'))).html)).toEqual([
      '/dashboard',
      '/dashboard/listings',
      '/dashboard/my-listings',
      '/dashboard/paste',
      '/dashboard/listings#saved-searches',
      '/dashboard/matches',
      // Issue 35: co-broke requests and deals (an admin: their city's, or all).
      '/dashboard/deals',
      // Issue 34: the public links the user made for clients, to see and revoke (every role shares its own listings).
      '/dashboard/share-links',
      // Issue 33: push alerts, for every role.
      '/dashboard/notifications',
    ])
    expect(navOf((await page('/dashboard', await as('MODULE_ADMIN'))).html)).toEqual([
      '/dashboard',
      '/dashboard/listings',
      '/dashboard/matches',
      '/dashboard/deals',
      '/dashboard/share-links',
      '/dashboard/approvals',
      '/dashboard/brokers',
      '/dashboard/analytics',
      '/dashboard/audit',
      '/dashboard/notifications',
      // Issue 29: the admin's own two-factor sign-in.
      '/dashboard/security',
    ])
    expect(navOf((await page('/dashboard', await as('MASTER_ADMIN', null))).html)).toEqual([
      '/dashboard',
      '/dashboard/listings',
      '/dashboard/matches',
      '/dashboard/deals',
      '/dashboard/share-links',
      '/dashboard/approvals',
      '/dashboard/brokers',
      '/dashboard/admins',
      '/dashboard/geographic',
      '/dashboard/analytics',
      '/dashboard/audit',
      // Issue 19: the installation's own screen, beyond SPEC's list.
      '/dashboard/system',
      '/dashboard/notifications',
      '/dashboard/security',
    ])
  })

  test('the approvals badge counts the pending registrations the admin may see', async () => {
    const badge = (html: string) => /data-pending-badge[^>]*>(\d+)</.exec(html)?.[1]
    expect(badge((await page('/dashboard', await as('MASTER_ADMIN', null))).html)).toBe('3')
    expect(badge((await page('/dashboard', await as('MODULE_ADMIN', place.cities[0]!.id))).html)).toBe('2')
    expect(badge((await page('/dashboard', await as('MODULE_ADMIN', place.cities[1]!.id))).html)).toBe('1')
    expect(badge((await page('/dashboard', await as('BROKER'))).html)).toBeUndefined()
  })

  test('the matches badge: the unseen matches of the user, with a text alternative; hidden at zero', async () => {
    // A place of its own: the listings here must not show in the other tests' counts.
    const cityId = (await seedPlace(h.ctx.db, ['Nagpur'])).cities[0]!.id
    const [seeker, offerer] = [await signIn(h.ctx.db, 'BROKER', { cityId }), await signIn(h.ctx.db, 'BROKER', { cityId })]
    const post = async (as: typeof seeker, post_type: string, budget: number) =>
      expect((await h.request('/api/listings', withJson(as.browser, { post_type, sale_or_rent: 'RENT', property_type: 'Badge Loft', budget, contact_value: '9876543210' }))).status).toBe(201)
    await post(seeker, 'REQ', 40_000)
    await post(offerer, 'AVL', 38_000)
    await post(offerer, 'AVL', 39_000)
    const badge = (html: string) => /<span[^>]*data-matches-badge[^>]*>(\d+)</.exec(html)
    const mine = badge((await page('/dashboard', seeker.browser)).html)
    expect(mine?.[1]).toBe('2')
    expect(mine?.[0]).toContain('aria-label="2 unseen matches"')
    // The author of the writes saw them as they posted: nothing unseen.
    expect(badge((await page('/dashboard/listings', offerer.browser)).html)).toBeNull()
    expect((await page('/dashboard', offerer.browser)).html).toContain('href="/dashboard/matches"')
  })

  test('the user menu: name, email, role badge, city and state, and a sign-out form', async () => {
    const { html } = await page('/dashboard', await as('MODULE_ADMIN'))
    expect(html).toContain('Pat MODULE_ADMIN')
    expect(html).toContain('Module Admin')
    expect(html).toContain(`Mumbai, ${place.state.name}`)
    expect(html).toContain('action="/logout"')
  })

  test('the admin welcome: access level, city badge and capabilities by role', async () => {
    const master = (await page('/dashboard', await as('MASTER_ADMIN', null))).html
    expect(master).toContain('global administrative access')
    expect(master).toContain('Manage module administrators')
    expect(master).toContain('Cities')
    const moduleAdmin = (await page('/dashboard', await as('MODULE_ADMIN'))).html
    expect(moduleAdmin).toContain('city-level administrative access')
    expect(moduleAdmin).toContain('Export data for the assigned city')
    expect(moduleAdmin).toContain('Your City')
    expect(moduleAdmin).toMatch(/data-city-badge[^>]*>Mumbai, /)
  })

  test("a module admin's 'Your City' card names their city and its active listings, not a fixed 1", async () => {
    const [mumbai, pune] = place.cities
    const owner = (await signIn(h.ctx.db, 'BROKER', { cityId: mumbai!.id, fullName: 'Lister' })).user
    let seq = 0
    const listing = (cityId: number, status: 'ACTIVE' | 'SUSPENDED' | 'CLOSED') => {
      seq++
      return {
        entryId: `T-${seq}`,
        postType: 'REQ',
        saleOrRent: 'SALE',
        propertyType: 'Flat',
        contactValue: '9876543210',
        contactName: 'Lister',
        status,
        date: '2026-01-01',
        ownerUserId: owner.id,
        cityId,
      } as const
    }
    for (const row of [listing(mumbai!.id, 'ACTIVE'), listing(mumbai!.id, 'ACTIVE'), listing(mumbai!.id, 'ACTIVE'), listing(mumbai!.id, 'SUSPENDED'), listing(mumbai!.id, 'CLOSED'), listing(pune!.id, 'ACTIVE')])
      await insertListing(h.ctx.db, row)

    const card = (html: string, key: string) => new RegExp(`data-admin-stat="${key}"[^>]*>(.*?)</div></div>`).exec(html)?.[1] ?? ''
    /** The card's texts, one after another: 'Your City|Mumbai|3 active listings'. */
    const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|').replace(/^\||\|$/g, '')
    const moduleAdmin = (await page('/dashboard', await as('MODULE_ADMIN', mumbai!.id))).html
    // Your City: the name, and its live listings (three active; the suspended and closed ones are in Total Listings).
    expect(text(card(moduleAdmin, 'your_city'))).toBe('Your City|Mumbai|3 active listings')
    expect(text(card(moduleAdmin, 'total_listings'))).toBe('Total Listings|5')
    expect(card(moduleAdmin, 'cities')).toBe('')

    const inPune = (await page('/dashboard', await as('MODULE_ADMIN', pune!.id))).html
    expect(text(card(inPune, 'your_city'))).toBe('Your City|Pune|1 active listing')
    const unplaced = (await page('/dashboard', await as('MODULE_ADMIN', null))).html
    expect(text(card(unplaced, 'your_city'))).toBe('Your City|—|No city assigned')

    // The master admin keeps the network's number of cities.
    const master = (await page('/dashboard', await as('MASTER_ADMIN', null))).html
    expect(text(card(master, 'cities'))).toMatch(/^Cities\|\d+$/)
    expect(card(master, 'your_city')).toBe('')
  })

  test('the broker welcome', async () => {
    const { html, status } = await page('/dashboard', await as('BROKER'))
    expect(status).toBe(200)
    expect(html).toContain('Pat BROKER')
    expect(html).not.toContain('administrative access')
  })

  test('sign out from the menu ends the session and lands on /login', async () => {
    const who = await signIn(h.ctx.db, 'BROKER')
    const res = await h.request('/logout', { method: 'POST', headers: who.browser })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/login')
    expect((await h.request('/api/auth/me', { headers: who.bearer })).status).toBe(401)
  })
})
