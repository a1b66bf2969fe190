// Listing photos in a real Chromium against the real server (issue 34): added from a file chooser in the edit form
// (several at once, each with its progress), reordered with the keyboard's buttons and by dragging, a cover chosen, one
// removed; the cover on the row and the card (sized, lazy), the "No photo yet" nudge on the broker's own listing, the
// gallery in the details at 1440 and 390 px, with axe on each state.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { hydrated, openDialog } from '../support/browser'
import { eventually } from '../support/eventually'
import { smallControls } from '../support/targets'
import { startWorld, type World } from '../support/world'

const root = new URL('../..', import.meta.url).pathname
let world: World
let rahul: SignedIn
let images: string
let entryId: string
let listingId: number

beforeAll(async () => {
  images = mkdtempSync(join(tmpdir(), 'brokernet-e2e-photos-'))
  const made = Bun.spawnSync([process.execPath, join(root, 'tests/support/image-fixtures.ts'), images], { stdout: 'pipe', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`fixtures: ${made.stderr}`)
  world = await startWorld({ demo: true })
  rahul = await world.account('rahul.sharma@brokernet.example')
  const created = await world.send<{ id: number; entry_id: string }>(rahul, 'POST', '/api/listings', {
    post_type: 'AVL',
    sale_or_rent: 'RENT',
    property_type: '2BHK',
    contact_value: '9876543210',
    locality: 'Juhu',
    details: 'Photo e2e flat',
    budget: 55_000,
    size: 900,
  })
  ;[entryId, listingId] = [created.entry_id, created.id]
}, 180_000)

afterAll(async () => {
  await world?.stop()
  if (images) rmSync(images, { recursive: true, force: true })
})

const open = async (path: string, viewport: { width: number; height: number }): Promise<Page> => (await world.open(rahul, path, { viewport, axe: true })).page
const same = (a: unknown[], b: unknown[]) => JSON.stringify(a) === JSON.stringify(b)
/** Waits until the stored order (and the one shown) is `want`. */
async function ordered(page: Page, want: number[]) {
  await eventually(`stored order ${want}`, async () => same(await order(), want), 30_000)
  await eventually(`shown order ${want}`, async () => same(await shownOrder(page), want), 30_000)
}
const order = async () => (await world.send<{ photos: { id: number }[] }>(rahul, 'GET', `/api/listings/${listingId}/photos`)).photos.map((p) => p.id)
const shownOrder = async (page: Page) => (await page.locator('[data-photo-manager] ol > li').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-photo-id')))))


describe('photos at 1440 px', () => {
  test('the nudge, then adding three photos from the file chooser, reordering by keyboard and by dragging, a cover, a removal', async () => {
    const page = await open('/dashboard/my-listings', { width: 1440, height: 900 })
    await page.locator(`[data-no-photo="${entryId}"]`).first().waitFor()
    expect(await problems(page, 'my listings with the no-photo nudge')).toEqual([])

    await page.goto(world.url + '/dashboard/listings')
    await hydrated(page)
    await page.locator(`tr[data-entry-id="${entryId}"]`).getByRole('button', { name: `Edit ${entryId}` }).click()
    const d = openDialog(page)
    await d.locator('[data-photo-manager]').waitFor()
    await d.getByText('No photo yet').waitFor()
    const chooser = page.waitForEvent('filechooser')
    await d.locator('label', { hasText: 'Add photos' }).click()
    await (await chooser).setFiles([
      { name: 'front.jpg', mimeType: 'image/jpeg', buffer: readFileSync(join(images, 'other.jpg')) },
      { name: 'hall.png', mimeType: 'image/png', buffer: readFileSync(join(images, 'photo.png')) },
      { name: 'view.webp', mimeType: 'image/webp', buffer: readFileSync(join(images, 'photo.webp')) },
    ])
    await eventually('three photos listed', async () => (await d.locator('[data-photo-manager] ol > li').count()) === 3, 90_000)
    const first = await order()
    expect(await shownOrder(page)).toEqual(first)
    expect(await problems(page, 'the edit form with three photos', 'dialog[open]')).toEqual([])

    // The keyboard's way: the first photo one later.
    await d.getByRole('button', { name: 'Move photo 1 later' }).focus()
    await page.keyboard.press('Enter')
    await ordered(page, [first[1]!, first[0]!, first[2]!])
    // Dragging the last to the front.
    await d.locator(`li[data-photo-id="${first[2]}"]`).dragTo(d.locator(`li[data-photo-id="${first[1]}"]`))
    await ordered(page, [first[2]!, first[1]!, first[0]!])
    // The cover chosen: it moves first.
    await d.locator(`li[data-photo-id="${first[0]}"]`).getByRole('button', { name: 'Make cover' }).click()
    await ordered(page, [first[0]!, first[2]!, first[1]!])
    await d.locator(`li[data-photo-id="${first[0]}"]`).getByText('Cover').waitFor()
    // One removed.
    await d.getByRole('button', { name: 'Remove photo 3' }).click()
    await ordered(page, [first[0]!, first[2]!])
    await page.keyboard.press('Escape')

    // The row shows the cover, sized and lazy.
    await page.reload()
    await hydrated(page)
    const cover = page.locator(`tr[data-entry-id="${entryId}"] img[data-cover]`)
    await cover.waitFor()
    expect(await cover.getAttribute('loading')).toBe('lazy')
    expect(Number(await cover.getAttribute('width'))).toBeGreaterThan(0)
    expect(Number(await cover.getAttribute('height'))).toBeGreaterThan(0)
    await eventually('the cover loaded', () => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 30_000)

    // The gallery in the details: Next, then the arrow key back.
    await page.locator(`tr[data-entry-id="${entryId}"] td`).nth(5).click()
    const g = openDialog(page).locator('[data-gallery]')
    await g.waitFor()
    await g.getByText('Photo 1 of 2', { exact: true }).waitFor()
    expect(await problems(page, 'the details with the gallery', 'dialog[open]')).toEqual([])
    await g.getByRole('button', { name: 'Next' }).click()
    await g.locator('[data-gallery-position]', { hasText: 'Photo 2 of 2' }).waitFor()
    await g.locator('[tabindex="0"]').focus()
    await page.keyboard.press('ArrowLeft')
    await g.locator('[data-gallery-position]', { hasText: 'Photo 1 of 2' }).waitFor()
    await page.context().close()
  }, 240_000)
})

describe('the admin grid', () => {
  test('a module admin’s grid shows the cover in the listing’s row', async () => {
    const { page } = await world.open(await world.account('admin.mumbai@brokernet.example'), `/dashboard/listings?search=${entryId}`, { axe: true })
    await page.locator(`tr[data-entry-id="${entryId}"] img[data-cover]`).waitFor()
    expect(await problems(page, 'the admin grid with a cover')).toEqual([])
    await page.context().close()
  }, 120_000)
})

describe('photos at 390 px', () => {
  test('the card shows the cover; the gallery swipes and its buttons are phone-sized; axe passes', async () => {
    const page = await open('/dashboard/listings', { width: 390, height: 844 })
    const card = page.locator(`article[data-listing-card="${entryId}"]`)
    await card.locator('img[data-cover]').waitFor()
    expect(await problems(page, 'the phone list with a cover')).toEqual([])
    await card.click()
    const g = openDialog(page).locator('[data-gallery]')
    await g.waitFor()
    expect(await smallControls(page, '[data-gallery]')).toEqual([])
    // A swipe is a scroll of the strip: the second photo comes into view and is announced.
    await g.locator('[tabindex="0"]').evaluate((el) => el.scrollTo({ left: el.clientWidth }))
    await g.locator('[data-gallery-position]', { hasText: 'Photo 2 of 2' }).waitFor()
    expect(await problems(page, 'the phone gallery', 'dialog[open]')).toEqual([])
    await page.context().close()
  }, 180_000)
})

describe('the public page for a client', () => {
  test('readable with no script at 390 px, Open Graph tags, axe at 390 and 1440 px, and 410 once revoked', async () => {
    const { id, url } = await world.send<{ id: number; url: string }>(rahul, 'POST', `/api/listings/${listingId}/share-link`)
    const path = new URL(url).pathname

    // No script at all: everything is there to read.
    const { page } = await world.page(null, { viewport: { width: 390, height: 844 }, context: { javaScriptEnabled: false } })
    const answer = await page.goto(world.url + path)
    expect(answer!.status()).toBe(200)
    await page.getByRole('heading', { level: 1, name: /2BHK for rent in Juhu/ }).waitFor()
    expect(await page.getByText('Photo e2e flat').count()).toBe(1)
    expect(await page.locator('img[alt="Photo 1 of 2"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    expect(await page.getByRole('link', { name: 'WhatsApp' }).getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\d+\?text=/)
    // PUBLIC_URL is not set here: the origin is the one each server process worked out; the path is the link's.
    expect(new URL((await page.locator('meta[property="og:image"]').getAttribute('content'))!).pathname).toBe(`${path}/og.jpg`)
    expect(await page.locator('meta[property="og:image:width"]').getAttribute('content')).toBe('1200')
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.context().close()

    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      const { page: p } = await world.open(null, path, { viewport, axe: true, hydrate: false })
      expect(await problems(p, `the public page at ${viewport.width} px`)).toEqual([])
      if (viewport.width === 390) expect(await smallControls(p, 'main')).toEqual([])
      await p.context().close()
    }

    await world.send(rahul, 'DELETE', `/api/share-links/${id}`)
    const { page: g, response } = await world.open(null, path, { viewport: { width: 390, height: 844 }, axe: true, hydrate: false })
    expect(response!.status()).toBe(410)
    await g.getByRole('heading', { name: 'This link no longer works' }).waitFor()
    expect(await problems(g, 'the dead link page')).toEqual([])
    await g.context().close()
  }, 180_000)
})
