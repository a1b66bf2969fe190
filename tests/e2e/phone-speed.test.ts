import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { hydrated, PHONE_CONTEXT } from '../support/browser'
import { startWorld, type World } from '../support/world'

// Issue 32, speed on a phone (measured by `bun run bench:phone`): what a phone is sent. The demo network, a phone's
// Chrome (its user agent, 390×844, touch). Nothing here depends on timing: the figures are the benchmark's.
const PHONE = { ...PHONE_CONTEXT, viewport: { width: 390, height: 844 } }
const PAGES = ['/login', '/dashboard', '/dashboard/listings', '/dashboard/my-listings', '/dashboard/matches']

let demo: World
let token: string
beforeAll(async () => {
  demo = await startWorld({ demo: true })
  token = (await demo.account('rahul.sharma@brokernet.example')).token
}, 120_000)
afterAll(() => demo.stop())

/** A phone's page at `path` (signed in as the demo broker unless it is /login), recording the scripts it asks for. */
async function phonePage(path: string) {
  const context = await demo.browser.newContext(PHONE)
  if (path !== '/login') await context.addCookies([{ name: SESSION_COOKIE, value: token, url: demo.url }])
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  // The scripts asked for until every island was hydrated, noted by the page itself as islands/client.tsx says so (a
  // closed dialog's code, fetched once the page is idle, comes after).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.documentElement?.dataset.islands !== 'hydrated') return
      observer.disconnect()
      const names = performance.getEntriesByType('resource').filter((e) => (e as PerformanceResourceTiming).initiatorType !== 'fetch' && /[.]js$/.test(e.name))
      ;(window as unknown as { neededScripts: string[] }).neededScripts = names.map((e) => new URL(e.name).pathname)
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-islands'] })
  })
  const response = await page.goto(demo.url + path)
  const html = (await response!.text()) as string
  await hydrated(page)
  const scripts = await page.evaluate(() => (window as unknown as { neededScripts: string[] }).neededScripts)
  return { page, html, scripts, errors, close: () => context.close() }
}

const announced = (html: string) => [...html.matchAll(/<(?:script[^>]*\bsrc|link rel="modulepreload" href)="([^"]+)"/g)].map((m) => m[1]!)

describe('a phone', () => {
  test.each(PAGES)('%s: every script the page needs is named in its HTML, so the browser asks for all of them at once', async (path) => {
    const { html, scripts, errors, close } = await phonePage(path)
    try {
      const named = announced(html)
      expect(scripts.length).toBeGreaterThan(1)
      // None found late, one import after another (before: up to four round trips deep).
      expect(scripts.filter((s) => !named.includes(s))).toEqual([])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 120_000)

  // A warm revisit (docs/decisions/063-warm-hydration-order.md): the stream's opening and first events re-render the
  // shell's badges at once, and React, keeping one render in progress, started the list island's hydration over.
  test.each(['/dashboard/listings', '/dashboard/my-listings'])('%s: the live stream is opened only once every island is hydrated', async (path) => {
    const context = await demo.browser.newContext(PHONE)
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: demo.url }])
    const page = await context.newPage()
    try {
      // Each stream the page opens notes whether islands/client.tsx had said every island was hydrated by then.
      await page.addInitScript(() => {
        const Native = window.EventSource
        const opened: (string | null)[] = ((window as unknown as { streamsOpened: (string | null)[] }).streamsOpened = [])
        window.EventSource = class extends Native {
          constructor(url: string | URL, init?: EventSourceInit) {
            opened.push(document.documentElement.dataset.islands ?? null)
            super(url, init)
          }
        }
      })
      const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events', { timeout: 60_000 })
      await page.goto(demo.url + path)
      await hydrated(page)
      await stream
      expect(await page.evaluate(() => (window as unknown as { streamsOpened: (string | null)[] }).streamsOpened)).toEqual(['hydrated'])
    } finally {
      await context.close()
    }
  }, 120_000)

  test('the listings page holds the cards only, until the phone is turned sideways: then the table, as on a wide screen', async () => {
    const { page, html, errors, close } = await phonePage('/dashboard/listings')
    try {
      // Server HTML: 25 cards, no table (it was more than half the page).
      expect(html).toContain('data-layout="phone"')
      expect(html.match(/data-listing-card=/g)?.length).toBe(25)
      expect(html).not.toContain('<table')
      const cards = page.locator('[data-listing-card]')
      await cards.first().waitFor({ state: 'visible' })
      expect(await page.locator('[data-listing-table] table').count()).toBe(0)
      // Sideways: the box is wide, the table is drawn and the cards give way to it.
      await page.setViewportSize({ width: 844, height: 390 })
      await page.locator('[data-listing-table] table').waitFor({ state: 'visible' })
      expect(await page.locator('[data-listing-table] table tbody tr').count()).toBe(25)
      await cards.first().waitFor({ state: 'hidden' })
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 120_000)

  test('only the cards in view are laid out and painted; a card scrolled to is drawn, its controls tappable', async () => {
    const { page, errors, close } = await phonePage('/dashboard/listings')
    try {
      // `contentVisibilityAuto`: false for an element whose content the browser skips (content-visibility: auto, away
      // from the viewport). The first card is in view; the last of 25 (some 6,000 px down) is skipped.
      const drawn = (which: 'first' | 'last') =>
        page.evaluate((which) => {
          const cards = [...document.querySelectorAll('[data-listing-card]')]
          const card = which === 'first' ? cards[0]! : cards.at(-1)!
          return card.checkVisibility({ contentVisibilityAuto: true })
        }, which)
      expect(await drawn('first')).toBe(true)
      expect(await drawn('last')).toBe(false)
      // Scrolled to, it is drawn, and a tap on it opens its details as on any card.
      const last = page.locator('[data-listing-card]').last()
      await last.scrollIntoViewIfNeeded()
      await page.waitForFunction(() => [...document.querySelectorAll('[data-listing-card]')].at(-1)!.checkVisibility({ contentVisibilityAuto: true }), undefined, { timeout: 30_000 })
      const entry = await last.getAttribute('data-listing-card')
      await last.locator('[data-days-on-market]').click()
      await page.locator(`dialog[open] [data-listing-details="${entry}"]`).waitFor({ timeout: 30_000 })
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 120_000)

  test("a card's closed action menu holds no items (nor the page's HTML); tapped open, its items are there and act", async () => {
    const { page, html, errors, close } = await phonePage('/dashboard/listings')
    try {
      // 25 cards, 25 closed menus, and not one item among them: parsed and hydrated for the menu a user may open.
      expect(html.match(/role="menu"/g)?.length).toBe(25)
      expect(html).not.toContain('role="menuitem"')
      expect(await page.locator('[role=menuitem]').count()).toBe(0)
      const card = page.locator('[data-listing-card]').first()
      const entry = (await card.getAttribute('data-listing-card'))!
      await card.getByRole('button', { name: `Actions for ${entry}` }).click()
      const menu = page.getByRole('menu', { name: `Actions for ${entry}` })
      await menu.getByRole('menuitem', { name: 'Share' }).waitFor()
      // Only the open menu's items; the menu sits under its button (anchored), not in a corner of the screen.
      expect(await page.locator('[role=menuitem]').count()).toBe(await menu.getByRole('menuitem').count())
      const [button, list] = [await card.getByRole('button', { name: `Actions for ${entry}` }).boundingBox(), await menu.boundingBox()]
      expect(Math.abs(list!.y - (button!.y + button!.height)) < 4 || Math.abs(list!.y + list!.height - button!.y) < 4).toBe(true)
      await menu.getByRole('menuitem', { name: 'Share' }).click()
      await page.locator('dialog[open]').waitFor({ timeout: 30_000 })
      // Closed again (the choice closes it): its items are gone.
      expect(await page.locator('[role=menuitem]').count()).toBe(0)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 120_000)

  test("a card holds no control drawn only to be hidden, nor icon elements: its menu's dots are painted, its contact buttons are its footer's", async () => {
    const { page, html, errors, close } = await phonePage('/dashboard/listings')
    try {
      const cards = [...html.matchAll(/<article [^>]*data-listing-card="([^"]+)"[^]*?<\/article>/g)]
      expect(cards.length).toBe(25)
      // Another broker's card: Email (or Call and WhatsApp) once, labelled, in its footer; no compact icon for them
      // (they were drawn, then hidden by CSS, on every card).
      const others = cards.filter((c) => c[0].includes('data-card-footer'))
      expect(others.length).toBeGreaterThan(0)
      for (const [card] of others) {
        expect(card).not.toContain('data-contact="compact"')
        expect(card).toMatch(/data-contact="full"/)
      }
      // The menu button: no child element (its dots are its ::before's background), and the dots are painted.
      for (const [card] of cards) expect(card).toMatch(/aria-label="Actions for [^"]+"><\/button>/)
      const button = page.locator('[data-listing-card]').first().getByRole('button', { name: /^Actions for / })
      expect(await button.evaluate((b) => b.childElementCount)).toBe(0)
      expect(await button.evaluate((b) => getComputedStyle(b, '::before').backgroundImage)).toContain('radial-gradient')
      expect(await button.evaluate((b) => getComputedStyle(b, '::before').width)).toBe('16px')
      // The card's plain fields are one element each: locality and broker are their `dd`, whole text in its title.
      const locality = page.locator('[data-listing-card]').first().locator('dt:text-is("Locality") + dd')
      expect(await locality.evaluate((dd) => dd.childElementCount)).toBe(0)
      expect(await locality.getAttribute('title')).toBe(await locality.textContent())
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 120_000)

  test.each(['/dashboard/listings', '/dashboard/my-listings'])("%s: once hydrated, the cards have been rendered once (not a second time at once, in the commit's task)", async (path) => {
    const context = await demo.browser.newContext(PHONE)
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: demo.url }])
    const page = await context.newPage()
    try {
      // When the page says every island is hydrated: how many cards React has rendered more than once. A fiber made by
      // hydration has no alternate; rendering it again makes one (React's double buffer).
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          if (document.documentElement?.dataset.islands !== 'hydrated') return
          observer.disconnect()
          const cards = [...document.querySelectorAll('[data-listing-card]')]
          const fiber = (el: Element) => (el as unknown as Record<string, { alternate: unknown } | undefined>)[Object.keys(el).find((k) => k.startsWith('__reactFiber$'))!]
          ;(window as unknown as { cards: number[] }).cards = [cards.length, cards.filter((c) => fiber(c)?.alternate).length]
        }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-islands'] })
      })
      await page.goto(demo.url + path)
      await hydrated(page)
      const [cards, renderedAgain] = await page.evaluate(() => (window as unknown as { cards: number[] }).cards)
      expect(cards).toBeGreaterThan(10)
      // Before, the list's box set a state from its ref in the hydration's commit: every card was rendered again at
      // once, in the same task, before the page could answer a tap.
      expect(renderedAgain).toBe(0)
    } finally {
      await context.close()
    }
  }, 120_000)

  test("a phone's cards do not wait on the stored column choices; turned sideways, the table shows them", async () => {
    const context = await demo.browser.newContext(PHONE)
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: demo.url }])
    const page = await context.newPage()
    try {
      // This browser chose to hide the Type column of the broker's table; the page counts its reads of the storage.
      await page.addInitScript(() => {
        localStorage.setItem('brokernet:listing-columns:broker', JSON.stringify({ post_type: false }))
        ;(window as unknown as { storageReads: number }).storageReads = 0
        const getItem = Storage.prototype.getItem
        Storage.prototype.getItem = function (key: string) {
          ;(window as unknown as { storageReads: number }).storageReads++
          return getItem.call(this, key)
        }
      })
      await page.goto(demo.url + '/dashboard/listings')
      await hydrated(page)
      await page.locator('[data-listing-card]').first().waitFor({ state: 'visible' })
      expect(await page.evaluate(() => (window as unknown as { storageReads: number }).storageReads)).toBe(0)
      // Sideways: the table, with the choice applied (its Type column hidden), as on a wide screen.
      await page.setViewportSize({ width: 844, height: 390 })
      await page.locator('[data-listing-table] table').waitFor({ state: 'visible' })
      await page.locator('[data-listing-table] th[data-column=post_type]').waitFor({ state: 'hidden', timeout: 30_000 })
      await expect(page.locator('[data-listing-table] th[data-column=budget]').isVisible()).resolves.toBe(true)
    } finally {
      await context.close()
    }
  }, 120_000)

  test('a desktop browser, even a narrow one, still gets both (its box may widen at any time)', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 390, height: 844 } })
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: demo.url }])
    const page: Page = await context.newPage()
    try {
      const html = await (await page.goto(demo.url + '/dashboard/listings'))!.text()
      await hydrated(page)
      expect(html).not.toContain('data-layout="phone"')
      expect(html).toContain('<table')
      expect(html.match(/data-listing-card=/g)?.length).toBe(25)
    } finally {
      await context.close()
    }
  }, 120_000)
})
