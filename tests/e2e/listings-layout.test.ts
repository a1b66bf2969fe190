import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { and, desc, eq, isNotNull } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { cities, listings } from '../../db/schema'
import { CITY_SCOPE_COOKIE } from '../../src/shared/constants'
import { FILTER_CURRENCY } from '../../src/shared/currency'
import { formatMoneyShort } from '../../src/shared/money'
import { hydrated, type WatchedPage } from '../support/browser'
import { startWorld, type World } from '../support/world'

// Issue 13, the listing screens: every one usable on a 390 px phone (cards, folded filters, the first listing on the
// first screen, full-screen dialogs with their title and actions in view) and fitting a 1280 or 1440 px laptop without
// sideways scrolling (columns by importance, entry ID and actions always in view); prices in their listing's currency.
let world: World
const tokens: Record<'broker' | 'module' | 'master', string> = { broker: '', module: '', master: '' }
let dubai: typeof listings.$inferSelect // an active Dubai listing with a budget

beforeAll(async () => {
  world = await startWorld({ demo: true })
  const broker = await world.account('rahul.sharma@brokernet.example')
  tokens.broker = broker.token
  tokens.module = (await world.signIn('MODULE_ADMIN', { cityId: broker.user.cityId, fullName: 'Meera Iyer' })).token
  tokens.master = (await world.signIn('MASTER_ADMIN', { fullName: 'Asha Verma' })).token
  const dubaiCity = world.db.select().from(cities).where(eq(cities.name, 'Dubai')).get()!
  dubai = world.db
    .select()
    .from(listings)
    .where(and(eq(listings.cityId, dubaiCity.id), eq(listings.status, 'ACTIVE'), isNotNull(listings.budget)))
    .orderBy(desc(listings.id))
    .get()!
  expect(dubai).toBeDefined()
})
afterAll(() => world?.stop())

const PHONE = { width: 390, height: 844 }
const LAPTOP = { width: 1280, height: 800 }
const DESKTOP = { width: 1440, height: 900 }

/** A window of `who` on `path`; the broker's list widened to every city (issue 32), as these screens show the network. */
async function open(who: keyof typeof tokens, path: string, viewport: { width: number; height: number }): Promise<WatchedPage> {
  const w = await world.page(tokens[who], { viewport })
  await w.page.context().addCookies([{ name: CITY_SCOPE_COOKIE, value: 'all', url: world.url + '/dashboard' }])
  w.response = await w.page.goto(world.url + path)
  await hydrated(w.page)
  return w
}
async function done(w: WatchedPage) {
  expect(w.consoleErrors).toEqual([])
  expect(w.offHostRequests).toEqual([])
  await w.page.context().close()
}

/** The page never scrolls sideways. */
const pageFits = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth }))

const SCREENS = [
  { name: 'broker dashboard', who: 'broker', path: '/dashboard/listings', label: 'Listings', broker: true },
  { name: 'My Listings', who: 'broker', path: '/dashboard/my-listings', label: 'My listings', broker: false },
  { name: 'module admin grid', who: 'module', path: '/dashboard/listings', label: 'Listings Management', broker: true },
  { name: 'master admin grid', who: 'master', path: '/dashboard/listings', label: 'Listings Management', broker: true },
] as const

describe('on a 390 x 844 phone', () => {
  for (const s of SCREENS) {
    test(`${s.name}: no sideways scrolling, listings are cards, the first one on the first screen`, async () => {
      const w = await open(s.who, s.path, PHONE)
      const { page } = w
      const fit = await pageFits(page)
      expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth)
      expect(await page.locator(`table[aria-label="${s.label}"]`).isVisible()).toBe(false)
      const card = page.locator('[data-listing-card]').first()
      expect(await card.isVisible()).toBe(true)
      const box = (await card.boundingBox())!
      // Its top above the fold without scrolling, and inside the width.
      expect(await page.evaluate(() => window.scrollY)).toBe(0)
      expect(box.y).toBeLessThan(PHONE.height)
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
      console.log(`[layout] ${s.name} at 390: first card top ${Math.round(box.y)} px`)

      // What a card says: entry ID, type, deal, status, property type, price and size, locality, broker, actions.
      const entryId = (await card.getAttribute('data-listing-card'))!
      const row = world.db.select().from(listings).where(eq(listings.entryId, entryId)).get()!
      const text = (await card.innerText()).replace(/\s+/g, ' ')
      expect(text).toContain(entryId)
      expect(text).toContain(row.postType === 'REQ' ? 'Requirement' : 'Availability')
      expect(text).toContain(row.saleOrRent === 'SALE' ? 'Sale' : 'Rent')
      expect(text).toContain({ ACTIVE: 'Active', CLOSED: 'Closed', ON_HOLD: 'On Hold', SUSPENDED: 'Suspended', EXPIRED: 'Expired' }[row.status])
      expect(text).toContain(row.propertyType)
      // The price short, as a card has little room (issue 32: ₹2.33 L), the amount it stands for on the element.
      if (row.budget !== null) {
        const price = card.locator('[data-budget]')
        expect(await price.getAttribute('data-budget')).toBe(String(row.budget))
        if ((await price.getAttribute('data-currency')) === 'INR') expect(text).toContain(formatMoneyShort(row.budget, FILTER_CURRENCY))
      }
      if (row.size !== null) expect(text).toContain(`${row.size.toLocaleString('en-US')} sq ft`)
      if (row.locality) expect(text).toContain('Locality')
      if (s.broker) expect(text).toContain('Broker')
      if (s.path.endsWith('my-listings') || s.who !== 'broker') expect(await card.getByRole('button', { name: `Actions for ${entryId}` }).isVisible()).toBe(true)
      // Every card's content stays inside the card.
      const overflowing = await page.$$eval('[data-listing-card]', (cards) => cards.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.getAttribute('data-listing-card')))
      expect(overflowing).toEqual([])

      // A tap opens the details.
      await card.click({ position: { x: 40, y: 60 } })
      await page.locator(`dialog[open] [data-listing-details="${entryId}"]`).waitFor()
      await done(w)
    })
  }

  test('the filters fold behind a Filters button that counts the filters set; the search stays in view', async () => {
    const w = await open('broker', '/dashboard/listings?post_type=AVL&location=North&min_budget=100000', PHONE)
    const { page } = w
    const toggle = page.locator('[data-filters-toggle]')
    expect(await toggle.isVisible()).toBe(true)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    expect(await toggle.locator('[data-filter-count]').textContent()).toBe('3 set')
    expect(await page.getByPlaceholder('Search by Entry ID, Broker Name, or details...').isVisible()).toBe(true)
    expect(await page.locator('#listing-filter-post_type').isVisible()).toBe(false)
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    expect(await page.locator('#listing-filter-post_type').inputValue()).toBe('AVL')
    expect(await page.locator('#listing-filter-location').isVisible()).toBe(true)
    const fit = await pageFits(page)
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth)
    // A change here counts at once.
    await page.locator('#listing-filter-sale_or_rent').selectOption('RENT')
    await toggle.locator('[data-filter-count="4"]').waitFor()
    await toggle.click()
    expect(await page.locator('#listing-filter-post_type').isVisible()).toBe(false)
    await done(w)
  })

  /** The dialog has finished opening (its fade and scale transitions). */
  const settledDialog = (page: Page) =>
    page.locator('dialog[open] .modal-box').evaluate((box) => Promise.all(box.getAnimations().map((a) => a.finished)).then(() => undefined))

  /** The open dialog's frame, header and action bar, and whether its content is wider than the box. */
  const dialogLayout = (page: Page) =>
    page.evaluate(() => {
      const box = document.querySelector('dialog[open] .modal-box') as HTMLElement
      const rect = (el: Element | null) => {
        const r = el!.getBoundingClientRect()
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }
      }
      const wider = [...box.querySelectorAll('*')].filter((el) => {
        const r = el.getBoundingClientRect()
        return r.width > 0 && (r.left < box.getBoundingClientRect().left - 0.5 || r.right > box.getBoundingClientRect().right + 0.5)
      })
      return {
        box: rect(box),
        header: rect(box.querySelector('[data-modal-header]')),
        actions: rect(box.querySelector('.modal-action')),
        scrolls: box.scrollHeight > box.clientHeight,
        sideways: box.scrollWidth - box.clientWidth,
        outside: wider.map((el) => `${el.tagName} ${el.textContent?.slice(0, 30)}`),
        viewport: { width: document.documentElement.clientWidth, height: innerHeight },
      }
    })
  const expectFullScreenFrame = (l: Awaited<ReturnType<typeof dialogLayout>>) => {
    expect(l.box).toMatchObject({ top: 0, left: 0 })
    expect(l.box.right).toBeLessThanOrEqual(l.viewport.width)
    expect(l.box.bottom).toBeLessThanOrEqual(l.viewport.height)
    expect(l.sideways).toBe(0)
    expect(l.outside).toEqual([])
    // The title and close button at the top, the actions at the bottom, both on screen.
    expect(l.header.top).toBe(0)
    expect(l.actions.top).toBeGreaterThan(l.header.bottom)
    expect(l.actions.bottom).toBeLessThanOrEqual(l.viewport.height + 0.5)
  }

  test('the details dialog is the whole screen, never clips (long entry ID, email, locality), title and actions always in view', async () => {
    const w = await open('broker', '/dashboard/listings', PHONE)
    const { page } = w
    const email = 'very.long.contact.name.for.testing.wrapping@an-unusually-long-brokerage-domain.example'
    const locality = 'Bandra-Kurla-Complex-Extension-Phase-Two-Near-The-Railway-Station'
    const res = await page.request.post(`${world.url}/api/listings`, {
      headers: { origin: world.url },
      data: { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: email, property_type: 'Penthouse with a private terrace garden', locality, details: 'Long fields, e2e layout marker. '.repeat(20), budget: 98_765_432, size: 4200 },
    })
    expect(res.status()).toBe(201)
    const created = (await res.json()) as { entry_id: string }
    await page.reload()
    await hydrated(page)
    const card = page.locator(`[data-listing-card="${created.entry_id}"]`)
    await card.click({ position: { x: 40, y: 60 } })
    const d = page.locator('dialog[open]')
    await d.getByRole('heading', { name: 'Listing Details' }).waitFor()
    await settledDialog(page)
    let l = await dialogLayout(page)
    expectFullScreenFrame(l)
    expect(l.scrolls).toBe(true)
    // The whole email and locality are there, wrapped, not cut.
    expect(await d.getByText(locality).isVisible()).toBe(true)
    expect((await d.innerText()).replace(/\s+/g, '')).toContain(email)
    // Scrolled to the end: the header still on top, the actions still at the bottom.
    await d.locator('.modal-box').evaluate((box) => box.scrollTo(0, box.scrollHeight))
    l = await dialogLayout(page)
    expectFullScreenFrame(l)
    expect(await d.getByRole('button', { name: 'Close', exact: true }).first().isVisible()).toBe(true)
    expect(await d.getByRole('button', { name: 'Edit' }).isVisible()).toBe(true)
    await page.screenshot({ path: join(world.server.dataDir, 'details.png') })
    await page.keyboard.press('Escape')
    expect(await page.locator('dialog[open]').count()).toBe(0)
    await done(w)
  })

  test('the new-listing form is the whole screen: title and close on top, Create Listing in view, required fields marked, the budget in the user’s currency', async () => {
    const w = await open('broker', '/dashboard/listings', PHONE)
    const { page } = w
    await page.getByRole('button', { name: 'New Listing' }).click()
    const d = page.locator('dialog[open]')
    await d.getByRole('heading', { name: 'New Listing' }).waitFor()
    await settledDialog(page)
    const l = await dialogLayout(page)
    expectFullScreenFrame(l)
    expect(l.scrolls).toBe(true)
    const create = d.getByRole('button', { name: 'Create Listing' })
    const createBox = (await create.boundingBox())!
    expect(createBox.y + createBox.height).toBeLessThanOrEqual(PHONE.height)
    expect(await d.getByRole('button', { name: 'Close', exact: true }).isVisible()).toBe(true)
    // Required: the server's required fields, marked the admin form's way.
    expect(await d.getByText('Fields marked * are required.').isVisible()).toBe(true)
    for (const label of ['Post Type *', 'Sale or Rent *', 'Property Type *', 'Contact (phone or email) *']) expect(await d.getByLabel(label, { exact: true }).getAttribute('aria-required')).toBe('true')
    expect(await d.getByLabel('Locality', { exact: true }).getAttribute('aria-required')).toBeNull()
    // A Mumbai broker's new listing is in rupees.
    const budget = d.locator('[data-currency]:has(input[name="budget"])')
    expect(await budget.getAttribute('data-currency')).toBe('INR')
    expect(await budget.innerText()).toContain('₹')
    // A wrong submit names the rules; the bar stays in view.
    await create.click()
    await d.getByText('Property type is required').waitFor()
    expect((await create.boundingBox())!.y).toBeLessThan(PHONE.height)
    await d.getByRole('button', { name: 'Close', exact: true }).click()
    expect(await page.locator('dialog[open]').count()).toBe(0)
    await done(w)
  })
})

describe('on a laptop (1280 x 800) and a desktop (1440 x 900)', () => {
  for (const viewport of [LAPTOP, DESKTOP])
    for (const s of SCREENS)
      test(`${s.name} at ${viewport.width}: the table fits its box; Entry ID and Actions in view; the rest in the details`, async () => {
        const w = await open(s.who, s.path, viewport)
        const { page } = w
        const fit = await pageFits(page)
        expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth)
        const table = page.locator(`table[aria-label="${s.label}"]`)
        expect(await table.isVisible()).toBe(true)
        expect(await page.locator('[data-listing-card]').first().isVisible()).toBe(false)
        const m = await table.evaluate((t) => {
          const box = t.parentElement!
          const shown = [...t.querySelectorAll('thead th')].filter((th) => getComputedStyle(th).display !== 'none')
          return { table: t.getBoundingClientRect().width, box: box.clientWidth, scroll: box.scrollWidth, shown: shown.map((th) => th.getAttribute('data-column')) }
        })
        console.log(`[layout] ${s.name} at ${viewport.width}: table ${Math.round(m.table)} px in a ${m.box} px box; ${m.shown.length} columns: ${m.shown.join(', ')}`)
        expect(m.scroll).toBeLessThanOrEqual(m.box)
        expect(m.table).toBeLessThanOrEqual(m.box)
        expect(m.shown[0]).toBe('entry_id')
        expect(m.shown.at(-1)).toBe('actions')
        // The common columns.
        for (const c of ['post_type', 'property_type', 'budget']) expect(m.shown).toContain(c)
        if (s.broker) for (const c of ['sale_or_rent', 'locality', 'owner_name']) expect(m.shown).toContain(c)
        // The first row's actions are on screen.
        const first = table.locator('tbody tr').first()
        const actions = (await first.locator('td[data-column="actions"]').boundingBox())!
        expect(actions.x + actions.width).toBeLessThanOrEqual(viewport.width)
        await done(w)
      })

  test('Columns: the user shows a collapsed column, it is remembered; the table then scrolls in its box with Entry ID and Actions in view; Fit to width restores the fit', async () => {
    const w = await open('broker', '/dashboard/listings', LAPTOP)
    const { page } = w
    const table = page.locator('table[aria-label="Listings"]')
    const shown = (id: string) => table.locator(`thead th[data-column="${id}"]`).isVisible()
    expect(await shown('details')).toBe(false)
    const menuButton = page.getByRole('button', { name: 'Choose columns' })
    await menuButton.click()
    const menu = page.getByRole('group', { name: 'Columns' })
    await menu.waitFor()
    // The boxes say what is on screen.
    expect(await menu.getByLabel('Broker').isChecked()).toBe(true)
    expect(await menu.getByLabel('Details').isChecked()).toBe(false)
    for (const id of ['Details', 'Contact', 'Reference', 'Location Zone', 'Size', 'Date']) await menu.getByLabel(id, { exact: true }).check()
    await page.keyboard.press('Escape')
    // A choice re-renders the table in a moment (later on a loaded machine): waited for, not read at once.
    await table.locator('thead th[data-column="details"]').waitFor({ state: 'visible' })
    expect(await table.locator('tbody tr').first().locator('td[data-column="details"]').isVisible()).toBe(true)

    // Remembered in this browser.
    await page.reload()
    await hydrated(page)
    await table.locator('thead th[data-column="details"]').waitFor()
    expect(await shown('contact_name')).toBe(true)

    // Too wide now: the table scrolls inside its box, never the page; Entry ID and Actions stay in view.
    const fit = await pageFits(page)
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth)
    const box = table.locator('xpath=..')
    expect(await box.evaluate((b) => b.scrollWidth > b.clientWidth)).toBe(true)
    await box.evaluate((b) => b.scrollTo({ left: b.scrollWidth }))
    const boxRect = (await box.boundingBox())!
    const row = table.locator('tbody tr').first()
    for (const id of ['entry_id', 'actions']) {
      const r = (await row.locator(`td[data-column="${id}"]`).boundingBox())!
      expect(r.x).toBeGreaterThanOrEqual(boxRect.x - 0.5)
      expect(r.x + r.width).toBeLessThanOrEqual(boxRect.x + boxRect.width + 0.5)
    }
    // The sticky cells paint over what scrolls under them.
    expect(await row.locator('td[data-column="entry_id"]').evaluate((td) => getComputedStyle(td).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)')

    // Back to the start of the box before the menu opens again: the menu is anchored to its button in a header cell,
    // and Playwright's scroll-into-view of a menu item scrolls the box (the menu's parent in the DOM), which can take
    // the anchor out of view and with it the menu (seen once at load 10: a cell got the click, the menu closed).
    await box.evaluate((b) => b.scrollTo({ left: 0 }))
    await menuButton.click()
    await menu.waitFor()
    // A click Playwright reports done can miss: it checks where only the first event lands (the pointerdown:
    // playwright-core's hit-target interceptor), and sends the pointerup as a second command. If the menu moves in
    // between (a re-render of the table under it, on a loaded machine), the click event goes to what both have in
    // common and never reaches the button, and click() still resolves (a full run, session 43: the columns stayed).
    // A user taps again; so does the test, while the button is still enabled (nothing was forgotten). `check()` above
    // needs none of this: it fails when a box's state did not change.
    const fitToWidth = menu.getByRole('button', { name: 'Fit to width' })
    const details = table.locator('thead th[data-column="details"]')
    for (let tap = 1; ; tap++) {
      await fitToWidth.click()
      if (await details.waitFor({ state: 'hidden', timeout: 10_000 }).then(() => true, () => false)) break
      if (await fitToWidth.isDisabled()) break // taken: the table is just slow to show it (waited for below)
      expect(tap).toBeLessThan(3)
      console.log(`[columns] tap ${tap} on Fit to width had no effect (the menu still open, the button enabled): tapped again`)
    }
    await page.keyboard.press('Escape')
    await details.waitFor({ state: 'hidden' })
    expect(await box.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true)
    await page.reload()
    await hydrated(page)
    expect(await shown('details')).toBe(false)
    await done(w)
  })
})

describe('a price is in the currency of its listing’s country', () => {
  /** The Dubai listing's price as shown somewhere: its currency, its text and its tooltip. */
  const aed = async (price: ReturnType<Page['locator']>, { short = false } = {}) => {
    expect(await price.getAttribute('data-currency')).toBe('AED')
    const text = (await price.textContent())!
    expect(text).toContain('د.إ')
    expect(text).not.toContain('₹')
    // In full in the table; a card is tight, so there it is short (issue 32), the full amount its title.
    if (!short) expect(text).toContain(Math.round(dubai.budget!).toLocaleString('en-US'))
    // The symbol stays in front of the digits (isolated from them).
    expect(text.indexOf('د.إ')).toBeLessThan(text.search(/\d/))
    expect(await price.getAttribute('title')).toBe(`AED ${Math.round(dubai.budget!).toLocaleString('en-US')}`)
  }

  for (const who of ['broker', 'master'] as const)
    test(`a Dubai listing in dirhams for ${who === 'broker' ? 'a Mumbai broker' : 'a master admin'}: in the table, the card and the details`, async () => {
      const path = `/dashboard/listings?search=${dubai.entryId}`
      const desk = await open(who, path, DESKTOP)
      const row = desk.page.locator(`tr[data-entry-id="${dubai.entryId}"]`)
      await aed(row.locator('td[data-column="budget"] [data-currency]'))
      await row.locator('td[data-column="entry_id"]').click()
      const details = desk.page.locator(`dialog[open] [data-listing-details="${dubai.entryId}"]`)
      await details.waitFor()
      expect(await details.innerText()).toContain('د.إ')
      expect(await details.innerText()).not.toContain('₹')
      // The filters (no listing involved) stay in the viewer's currency: rupees for a Mumbai broker and, with no country, for the master admin.
      await desk.page.keyboard.press('Escape')
      await details.waitFor({ state: 'detached' })
      await desk.page.getByLabel('Min budget').fill('45k')
      await desk.page.locator('[data-budget-text]').first().filter({ hasText: /^₹45,000$/ }).waitFor()
      await done(desk)

      const phone = await open(who, path, PHONE)
      await aed(phone.page.locator(`[data-listing-card="${dubai.entryId}"] [data-currency]`), { short: true })
      await done(phone)
    })

  test('an admin editing the Dubai listing types its budget in dirhams; a master admin creating one for the UAE too', async () => {
    const w = await open('master', `/dashboard/listings?search=${dubai.entryId}`, DESKTOP)
    const { page } = w
    await page.getByRole('button', { name: `Actions for ${dubai.entryId}` }).click()
    await page.getByRole('menu', { name: `Actions for ${dubai.entryId}` }).getByRole('menuitem', { name: 'Edit' }).click()
    const d = page.locator('dialog[open]')
    const budget = d.locator('[data-currency]:has(input[name="budget"])')
    expect(await budget.getAttribute('data-currency')).toBe('AED')
    expect(await budget.innerText()).toContain('د.إ')
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Add Listing' }).click()
    const create = page.locator('dialog[open]')
    const createBudget = create.locator('[data-currency]:has(input[name="budget"])')
    expect(await createBudget.getAttribute('data-currency')).toBe('INR')
    await create.locator('#admin-create-country_id').selectOption({ label: 'United Arab Emirates' })
    await create.locator('[data-currency="AED"]').waitFor()
    await page.keyboard.press('Escape')
    await done(w)
  })
})
