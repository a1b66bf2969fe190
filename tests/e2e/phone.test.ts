import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, desc, eq, isNotNull, ne } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { listings } from '../../db/schema'
import type { SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { startWorld, type OpenPage, type World } from '../support/world'

// Issue 32, "Phone-native": the broker's everyday tasks on a 390 px phone (and the same screens at 1440 px), in a real
// Chromium against the real server with the demo network. Each describe is one finding of the issue.
let world: World
let broker: SignedIn // Rahul Sharma, a Mumbai broker of the demo

beforeAll(async () => {
  world = await startWorld({ demo: true })
  broker = await world.account('rahul.sharma@brokernet.example')
})
afterAll(() => world?.stop())

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1440, height: 900 }

const open = (who: SignedIn, path: string, viewport = PHONE) => world.open(who, path, { viewport, axe: true })
async function done(w: OpenPage, state: string) {
  expect(await problems(w.page, state)).toEqual([])
  expect(w.errors).toEqual([])
  expect(w.offHostRequests).toEqual([])
  await w.page.context().close()
}

/** The newest active listing of Mumbai by someone else than the broker, with a phone number and a price. */
const othersListing = () =>
  world.db
    .select()
    .from(listings)
    .where(and(eq(listings.cityId, broker.user.cityId!), ne(listings.ownerUserId, broker.user.id), eq(listings.status, 'ACTIVE'), isNotNull(listings.budget), isNotNull(listings.locality)))
    .orderBy(desc(listings.id))
    .all()
    .find((l) => !l.contactValue.includes('@'))!
const ownListing = () =>
  world.db.select().from(listings).where(and(eq(listings.ownerUserId, broker.user.id), eq(listings.status, 'ACTIVE'))).orderBy(desc(listings.id)).get()!

/** What a WhatsApp link must say: the listing's entry ID, its type, its locality and its price. */
async function expectWhatsapp(link: ReturnType<Page['locator']>, l: typeof listings.$inferSelect, price: string) {
  const href = new URL((await link.getAttribute('href'))!)
  expect(href.origin + href.pathname).toBe(`https://wa.me/${l.contactValue.replace(/\D/g, '')}`)
  const text = href.searchParams.get('text')!
  for (const part of [l.entryId, l.postType === 'REQ' ? 'Requirement' : 'Availability', l.propertyType, l.locality!, price]) expect(text).toContain(part)
}

describe('one tap: Call and WhatsApp on another broker’s listing (finding 1)', () => {
  test('at 390 px: the card and the details of another broker’s listing call and message; the broker’s own has neither', async () => {
    const other = othersListing()
    const own = ownListing()
    const w = await open(broker, `/dashboard/listings?search=${other.entryId}`)
    const card = w.page.locator(`[data-listing-card="${other.entryId}"]`)
    await card.waitFor()
    const price = (await card.locator('[data-budget]').textContent())!
    expect(price).toMatch(/^₹[\d.]+ (K|L|Cr)$/)
    const call = card.locator('[data-card-footer]').getByRole('link', { name: /^Call / })
    expect(await call.getAttribute('href')).toBe(`tel:${other.contactValue.trim().startsWith('+') ? '+' : ''}${other.contactValue.replace(/\D/g, '')}`)
    const box = (await call.boundingBox())!
    expect(box.height).toBeGreaterThanOrEqual(44)
    await expectWhatsapp(card.locator('[data-card-footer]').getByRole('link', { name: /^WhatsApp / }), other, price)
    // The compact icons of a table row are not on the card: one Call per card.
    expect(await card.getByRole('link', { name: /^Call / }).count()).toBe(1)
    await done(w, 'card of another broker')

    // The details view.
    const d = await open(broker, `/dashboard/listings?search=${other.entryId}`)
    await d.page.locator(`[data-listing-card="${other.entryId}"]`).click()
    const details = d.page.locator(`dialog[open] [data-listing-details="${other.entryId}"]`)
    await details.waitFor()
    const detailsCall = details.locator('[data-details-contact]').getByRole('link', { name: /^Call / })
    // Its laid-out height (the dialog may still be scaling in as it opens, which a bounding box would include).
    expect(await detailsCall.evaluate((el) => (el as HTMLElement).offsetHeight)).toBeGreaterThanOrEqual(44)
    await expectWhatsapp(details.locator('[data-details-contact]').getByRole('link', { name: /^WhatsApp / }), other, price)
    expect(await problems(d.page, 'details of another broker', 'dialog[open]')).toEqual([])
    await d.page.context().close()

    // The broker's own listing: no way to call oneself.
    const mine = await open(broker, `/dashboard/listings?search=${own.entryId}`)
    const ownCard = mine.page.locator(`[data-listing-card="${own.entryId}"]`)
    await ownCard.waitFor()
    expect(await ownCard.locator('[data-card-footer]').count()).toBe(0)
    expect(await ownCard.getByRole('link', { name: /^(Call|WhatsApp) / }).count()).toBe(0)
    await ownCard.click()
    await mine.page.locator(`dialog[open] [data-listing-details="${own.entryId}"]`).waitFor()
    expect(await mine.page.locator('dialog[open] [data-details-contact]').count()).toBe(0)
    await mine.page.context().close()
  })

  test('at 1440 px: the row of another broker’s listing has Call and WhatsApp among its actions', async () => {
    const other = othersListing()
    const w = await open(broker, `/dashboard/listings?search=${other.entryId}`, DESKTOP)
    const row = w.page.locator(`tr[data-entry-id="${other.entryId}"]`)
    await row.waitFor()
    const full = (await row.locator('[data-budget]').textContent())!
    expect(await row.getByRole('link', { name: /^Call / }).getAttribute('href')).toStartWith('tel:')
    await expectWhatsapp(row.getByRole('link', { name: /^WhatsApp / }), other, '')
    expect(full).toMatch(/^₹[\d,]+$/)
    await done(w, 'row of another broker at 1440')
  })
})

describe('Indian money (finding 3)', () => {
  test('a table shows rupees in Indian grouping, a card in lakhs and crores, the details in full', async () => {
    const other = othersListing()
    const w = await open(broker, `/dashboard/listings?search=${other.entryId}`, DESKTOP)
    const cell = w.page.locator(`tr[data-entry-id="${other.entryId}"] [data-budget]`)
    await cell.waitFor()
    const indian = new Intl.NumberFormat('en-IN').format(other.budget!)
    expect(await cell.textContent()).toBe(`₹${indian}`)
    await w.page.context().close()
    const p = await open(broker, `/dashboard/listings?search=${other.entryId}`)
    const card = p.page.locator(`[data-listing-card="${other.entryId}"]`)
    await card.waitFor()
    const short = (await card.locator('[data-budget]').textContent())!
    const [, n, unit] = /^₹([\d.]+) (K|L|Cr)$/.exec(short)!
    expect(Math.abs(Number(n) * { K: 1e3, L: 1e5, Cr: 1e7 }[unit as 'K' | 'L' | 'Cr'] - other.budget!)).toBeLessThanOrEqual({ K: 5, L: 500, Cr: 50_000 }[unit as 'K'])
    await card.click()
    expect(await p.page.locator('dialog[open]').innerText()).toContain(`₹${indian}`)
    await p.page.context().close()
  })

  test('the budget filters take 45k, 35L and 1.2cr: the list, the URL and the hint follow', async () => {
    const w = await open(broker, '/dashboard/listings')
    const { page } = w
    await page.locator('[data-filters-toggle]').click()
    const answered = page.waitForResponse((r) => {
      const u = new URL(r.url())
      return u.pathname === '/api/listings/' && u.searchParams.get('min_budget') === '3500000' && u.searchParams.get('max_budget') === '12000000'
    })
    await page.getByLabel('Min budget').fill('35L')
    await page.getByLabel('Max budget').fill('1.2cr')
    await page.locator('[data-budget-text]').filter({ hasText: '₹1,20,00,000' }).waitFor()
    await page.locator('[data-budget-text]').filter({ hasText: '₹35,00,000' }).waitFor()
    await page.waitForFunction(() => new URL(location.href).searchParams.get('max_budget') === '12000000')
    expect(new URL(page.url()).searchParams.get('min_budget')).toBe('3500000')
    await answered
    // Every card shown is then within the bounds (the list re-renders once the answer is in).
    await page.waitForFunction(() => {
      const budgets = [...document.querySelectorAll('[data-listing-card] [data-budget]')].map((e) => Number(e.getAttribute('data-budget')))
      return budgets.length > 0 && budgets.every((b) => b >= 3_500_000 && b <= 12_000_000)
    })
    // Something it cannot read is not applied, and says so.
    await page.getByLabel('Max budget').fill('lots')
    await page.locator('[data-budget-text]').filter({ hasText: 'Not an amount' }).waitFor()
    expect(await page.getByLabel('Max budget').getAttribute('aria-invalid')).toBe('true')
    expect(new URL(page.url()).searchParams.get('max_budget')).toBe('12000000')
    await page.getByLabel('Max budget').fill('45k')
    await page.waitForFunction(() => new URL(location.href).searchParams.get('max_budget') === '45000')
    await done(w, 'budget filters at 390')
  })
})

describe('my city first (finding 2)', () => {
  test('the list opens on the broker’s city; All cities widens it, names each card’s city, and is remembered', async () => {
    const mumbai = broker.user.cityId!
    const w = await open(broker, '/dashboard/listings')
    const { page } = w
    const scope = page.locator('[data-city-scope]')
    expect(await scope.getAttribute('data-city-scope')).toBe('own')
    expect(await page.getByRole('button', { name: 'Mumbai only' }).getAttribute('aria-pressed')).toBe('true')
    // The server's first page is Mumbai's alone, and the URL says so.
    await page.waitForFunction((id) => new URL(location.href).searchParams.get('city_id') === String(id), mumbai)
    const shown = await page.locator('[data-listing-card]').evaluateAll((els) => els.map((e) => e.getAttribute('data-listing-card')))
    expect(shown.length).toBeGreaterThan(0)
    for (const id of shown) expect(world.db.select().from(listings).where(eq(listings.entryId, id!)).get()!.cityId).toBe(mumbai)
    // One city: the cards need not say it.
    expect(await page.locator('[data-card-city]').count()).toBe(0)
    expect(await problems(page, 'own city at 390')).toEqual([])

    await page.getByRole('button', { name: 'All cities' }).click()
    await page.locator('[data-city-scope="all"]').waitFor()
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('city_id'))
    // Every card names its city once the list may mix them.
    await page.waitForFunction(() => {
      const cards = document.querySelectorAll('[data-listing-card]')
      return cards.length > 0 && [...cards].every((c) => c.querySelector('[data-card-city]')?.textContent)
    })
    expect(await problems(page, 'all cities at 390')).toEqual([])

    // Remembered: the next visit opens on every city, from the server's first page on.
    const res = await w.page.goto(world.url + '/dashboard/listings')
    expect(await res!.text()).toContain('data-city-scope="all"')
    await page.getByRole('button', { name: 'Mumbai only' }).click()
    await page.locator('[data-city-scope="own"]').waitFor()
    const again = await w.page.goto(world.url + '/dashboard/listings')
    expect(await again!.text()).toContain('data-city-scope="own"')
    expect(w.errors).toEqual([])
    await page.context().close()
  })
})

describe('alerts visible and expiring soon (findings 5 and 8)', () => {
  test('the header’s bell counts a new match live and announces it; a listing ending soon leads to My Listings filtered, and a closed one is not counted', async () => {
    const mumbai = broker.user.cityId!
    const asha = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Asha Bell', phone: '+91 98200 11111' })
    const ravi = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Ravi Bell' })
    const wanted = await world.send<{ id: number; entry_id: string }>(asha, 'POST', '/api/listings', {
      post_type: 'REQ',
      sale_or_rent: 'RENT',
      property_type: 'Bell Loft',
      contact_value: '+91 98200 11111',
      budget: 48_000,
      size: 550,
      locality: 'Andheri West',
    })
    const w = await world.page(asha, { viewport: PHONE, axe: true })
    const stream = w.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events')
    await w.page.goto(world.url + '/dashboard/listings')
    await stream
    const bell = w.page.locator('[data-alert-bell]')
    expect(await bell.getAttribute('data-alert-bell')).toBe('0')
    expect(await bell.getAttribute('data-alert-text')).toBe('No new alerts')
    expect(await w.page.getByRole('link', { name: /^Alerts\s*:\s*No new alerts$/ }).count()).toBe(1)
    const box = (await bell.boundingBox())!
    expect(box.width >= 44 && box.height >= 44).toBe(true)

    // Another broker posts what Asha wants: the bell counts it without a reload, and says so to screen readers.
    await world.send(ravi, 'POST', '/api/listings', {
      post_type: 'AVL',
      sale_or_rent: 'RENT',
      property_type: 'Bell Loft',
      contact_value: '+91 98765 43210',
      budget: 45_000,
      size: 600,
      locality: 'Andheri West',
    })
    await w.page.locator('[data-alert-bell="1"]').waitFor()
    expect(await w.page.getByRole('link', { name: /^Alerts\s*1\s*:\s*1 unseen match$/ }).count()).toBe(1)
    expect(await bell.getAttribute('href')).toBe('/dashboard/matches')
    await w.page.locator('[data-alert-news]').filter({ hasText: 'New: 1 unseen match' }).waitFor()
    expect(await problems(w.page, 'bell with a match at 390')).toEqual([])

    // The match seen, a listing ending tomorrow: the bell leads to My Listings on its "Expiring soon" filter.
    const inbox = await world.send<{ matches: { id: number }[] }>(asha, 'GET', '/api/matches')
    for (const m of inbox.matches) await world.send(asha, 'POST', `/api/matches/${m.id}/seen`)
    const ending = await world.send<{ id: number; entry_id: string }>(asha, 'POST', '/api/listings', {
      post_type: 'AVL',
      sale_or_rent: 'RENT',
      property_type: '1 RK',
      contact_value: '+91 98200 11111',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    })
    await w.page.locator('[data-alert-bell="1"][href="/dashboard/my-listings?expiring=soon"]').waitFor()
    expect(await bell.getAttribute('data-alert-text')).toBe('1 listing expiring within 3 days')
    await bell.click()
    await w.page.waitForURL('**/dashboard/my-listings?expiring=soon')
    await w.page.waitForSelector('html[data-islands="hydrated"]', { state: 'attached' })
    await w.page.locator('#my-listings-status').filter({ has: w.page.locator('option:checked', { hasText: 'Expiring soon (1)' }) }).waitFor()
    await w.page.waitForFunction((id) => [...document.querySelectorAll('[data-listing-card]')].map((c) => c.getAttribute('data-listing-card')).join() === id, ending.entry_id)
    const card = w.page.locator(`[data-listing-card="${ending.entry_id}"]`)
    expect(await card.locator('[data-card-expires]').innerText()).toContain('soon')
    // The navigation's badge says what it counts in words (no hover on a phone).
    expect(await w.page.locator('[data-expiring-badge]').textContent()).toBe('1 expiring')
    expect(await problems(w.page, 'my listings expiring soon at 390')).toEqual([])

    // Closed, it can no longer be renewed: neither the badge nor the bell counts it.
    await world.send(asha, 'PATCH', `/api/listings/${ending.id}`, { status: 'CLOSED' })
    await w.page.locator('[data-alert-bell="0"]').waitFor()
    await w.page.locator('[data-expiring-badge]').waitFor({ state: 'detached' })
    expect(wanted.entry_id).toBeTruthy()
    expect(w.errors).toEqual([])
    await w.page.context().close()
  })
})

describe('the phone menu (finding 9)', () => {
  test('Paste from WhatsApp and Saved searches are in the menu; Saved searches opens the list with its menu open', async () => {
    const w = await open(broker, '/dashboard/my-listings')
    const { page } = w
    await page.locator('header label[for="dashboard-drawer"]').click()
    const drawer = page.locator('.drawer-side')
    const paste = drawer.getByRole('link', { name: 'Paste from WhatsApp' })
    const saved = drawer.getByRole('link', { name: 'Saved searches' })
    await saved.waitFor()
    expect(await paste.getAttribute('href')).toBe('/dashboard/paste')
    expect(await problems(page, 'phone menu open')).toEqual([])
    await saved.click()
    // The list opens on the broker's own city and says so in its address (`?city_id=…`, replaced once the page runs):
    // a pattern for the exact address missed it whenever that came before Playwright looked (full runs, load 25–30).
    await page.waitForURL((u) => u.pathname === '/dashboard/listings' && u.hash === '#saved-searches')
    await page.waitForSelector('html[data-islands="hydrated"]', { state: 'attached' })
    await page.locator('[data-saved-searches][open]').waitFor()
    expect(await page.locator('[data-saved-searches] summary').evaluate((s) => s === document.activeElement)).toBe(true)
    await page.goto(world.url + '/dashboard/listings')
    await page.locator('header label[for="dashboard-drawer"]').click()
    await page.locator('.drawer-side').getByRole('link', { name: 'Paste from WhatsApp' }).click()
    await page.waitForURL('**/dashboard/paste')
    expect(w.errors).toEqual([])
    await page.context().close()
  })
})

describe('forms (finding 7)', () => {
  test('a new listing starts with the broker’s own phone, on the phone keypad; every field says its keyboard and autofill', async () => {
    const asha = await world.signIn('BROKER', { cityId: broker.user.cityId, fullName: 'Asha Form', phone: '+91 98200 22222' })
    const w = await open(asha, '/dashboard/my-listings')
    const { page } = w
    await page.getByRole('button', { name: 'Add New Listing' }).click()
    const d = page.locator('dialog[open]')
    const contact = d.getByLabel('Contact (phone or email)')
    expect(await contact.inputValue()).toBe('+91 98200 22222')
    expect(await contact.getAttribute('inputmode')).toBe('tel')
    expect(await contact.getAttribute('autocomplete')).toBe('tel')
    // An email contact gets the email keyboard.
    await contact.fill('asha@example.com')
    expect(await contact.getAttribute('inputmode')).toBe('email')
    for (const [name, mode] of [
      // Lakh and crore are letters (35L, 1.2cr: issue 32), as in the budget filters.
      ['Budget', 'text'],
      ['Size (sq ft)', 'numeric'],
      ['Google Maps Link', 'url'],
    ] as const)
      expect(await d.getByLabel(name, { exact: true }).getAttribute('inputmode')).toBe(mode)
    // Every text field of the form says how it is filled: no browser guessing at a listing's locality or reference.
    // (A file input takes no typing: photos are picked, not autofilled.)
    const unsaid = await d.locator('input:not([type=hidden]):not([type=checkbox]):not([type=date]):not([type=file])').evaluateAll((els) => els.filter((e) => !e.getAttribute('autocomplete')).map((e) => e.id))
    expect(unsaid).toEqual([])
    // The choices are native selects: one tap opens the phone's own picker.
    expect(await d.locator('select').count()).toBeGreaterThanOrEqual(4)
    expect(await problems(page, 'new listing form at 390', 'dialog[open]')).toEqual([])
    // Posted as it stands, the contact is the broker's phone.
    await contact.fill('+91 98200 22222')
    await d.getByLabel('Property Type').fill('2 BHK Apartment')
    // The form asks the duplicate check, then posts: what it ended with is said (a toast, or a warning in the dialog),
    // so a failure names it instead of only timing out on a toast that never came.
    await d.getByRole('button', { name: 'Create Listing' }).click()
    const outcome = page.locator('[data-toast], dialog[open] [data-duplicates], dialog[open] [role=alert]').first()
    await outcome.waitFor({ timeout: 120_000 })
    expect(await outcome.evaluate((e) => `${e.getAttribute('data-toast') ?? 'in the dialog'}: ${e.textContent}`)).toStartWith('success')
    const mine = await world.send<{ contact_value: string }[]>(asha, 'GET', '/api/listings/my')
    expect(mine.map((l) => l.contact_value)).toEqual(['+91 98200 22222'])
    expect(w.errors).toEqual([])
    await page.context().close()
  })
})

describe('the listing form’s Budget takes what the filters take (issue 32)', () => {
  test('45k, 35L and 1.2cr are read as amounts and shown in Indian grouping; a word is refused in place; the listing stores the amount', async () => {
    const asha = await world.signIn('BROKER', { cityId: broker.user.cityId, fullName: 'Asha Budget', phone: '+91 98200 33333' })
    const w = await open(asha, '/dashboard/my-listings')
    const { page } = w
    await page.getByRole('button', { name: 'Add New Listing' }).click()
    const d = page.locator('dialog[open]')
    const budget = d.getByLabel('Budget', { exact: true })
    const read = d.locator('[data-budget-amount]')
    for (const [typed, shown] of [
      ['35L', '₹35,00,000'],
      ['1.2cr', '₹1,20,00,000'],
      ['35,00,000', '₹35,00,000'],
      ['45k', '₹45,000'],
    ]) {
      await budget.fill(typed!)
      await read.filter({ hasText: shown! }).waitFor()
    }
    // The amount read is part of the field's description, for a screen reader too.
    expect((await budget.getAttribute('aria-describedby'))!.split(' ')).toContain((await read.getAttribute('id'))!)
    expect(await problems(page, 'budget read at 390', 'dialog[open]')).toEqual([])
    // A word is no amount: said under the field, and nothing is sent.
    await budget.fill('lots')
    await read.filter({ hasText: 'Not an amount' }).waitFor()
    await d.getByLabel('Property Type').fill('2 BHK Apartment')
    await d.getByRole('button', { name: 'Create Listing' }).click()
    await d.locator('[id$="budget-error"]').filter({ hasText: 'Not an amount: try 45k, 35L or 1.2cr' }).waitFor()
    expect(await budget.getAttribute('aria-invalid')).toBe('true')
    expect(await world.send<unknown[]>(asha, 'GET', '/api/listings/my')).toEqual([])
    // 45k is stored as 45,000.
    await budget.fill('45k')
    await d.getByRole('button', { name: 'Create Listing' }).click()
    await page.locator('[data-toast="success"]').first().waitFor()
    const [mine] = await world.send<{ id: number; entry_id: string; budget: number }[]>(asha, 'GET', '/api/listings/my')
    expect(mine!.budget).toBe(45_000)
    expect(w.errors).toEqual([])
    await page.context().close()
  })
})
