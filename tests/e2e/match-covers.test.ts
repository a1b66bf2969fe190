// Covers on matches (issue 34: "Matches and the hotsheet show covers too"), in a real Chromium against the real server:
// the counterpart's cover on its match card in the inbox and in a listing's Matches tab, the owner's own photos in
// the details, and the counterpart's details with its gallery, at 390 and 1440 px, with axe.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import type { SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { hydrated, openDialog } from '../support/browser'
import { eventually } from '../support/eventually'
import { startWorld, type World } from '../support/world'

const root = new URL('../..', import.meta.url).pathname
const PHONE = { width: 390, height: 844 }
const LAPTOP = { width: 1440, height: 900 }

let world: World
let images: string
let asha: SignedIn
let ravi: SignedIn
type Posted = { id: number; entry_id: string }
let wanted: Posted
let offered: Posted
/** The cover's address as the API gives it to Asha (the thumbnail of the photo Ravi added). */
let offeredCover: string

/** Adds a photo to a listing through the API, as the edit form's file chooser does. */
async function addPhoto(who: SignedIn, listing: Posted, file: string, type: string) {
  const form = new FormData()
  form.append('photos', new File([readFileSync(join(images, file))], file, { type }))
  const res = await fetch(`${world.url}/api/listings/${listing.id}/photos`, { method: 'POST', headers: who.bearer, body: form })
  expect(res.status).toBe(201)
}

beforeAll(async () => {
  images = mkdtempSync(join(tmpdir(), 'brokernet-e2e-match-covers-'))
  const made = Bun.spawnSync([process.execPath, join(root, 'tests/support/image-fixtures.ts'), images], { stdout: 'pipe', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`fixtures: ${made.stderr}`)
  world = await startWorld({ geography: true })
  const mumbai = await world.cityId('Mumbai')
  asha = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  ravi = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Ravi Kumar' })
  const common = { sale_or_rent: 'RENT', location: 'West', locality: 'Andheri West' }
  wanted = await world.send(asha, 'POST', '/api/listings', { ...common, post_type: 'REQ', property_type: '2 BHK', budget: 48_000, size: 550, contact_value: '+91 98200 12345' })
  await addPhoto(asha, wanted, 'photo.png', 'image/png')
  offered = await world.send(ravi, 'POST', '/api/listings', { ...common, post_type: 'AVL', property_type: '2 BHK Apartment', budget: 45_000, size: 600, contact_value: '+91 98200 54321' })
  await addPhoto(ravi, offered, 'other.jpg', 'image/jpeg')
  offeredCover = (await world.send<{ cover: { url: string } | null }>(asha, 'GET', `/api/listings/${offered.id}`)).cover!.url
  // The match is the requirement's owner's: in Asha's inbox once the drain has run.
  await eventually('the match in Asha’s inbox', async () => JSON.stringify(await world.send(asha, 'GET', '/api/matches')).includes(offered.entry_id), 30_000)
}, 180_000)

afterAll(async () => {
  await world?.stop()
  if (images) rmSync(images, { recursive: true, force: true })
})

/** The card's cover: the listing's thumbnail, sized (no layout shift), lazy, and loaded. */
async function coverShown(card: Locator, url: string) {
  const cover = card.locator('img[data-cover]')
  await cover.waitFor()
  expect(await cover.getAttribute('src')).toBe(url)
  expect(await cover.getAttribute('loading')).toBe('lazy')
  expect(Number(await cover.getAttribute('width'))).toBeGreaterThan(0)
  expect(Number(await cover.getAttribute('height'))).toBeGreaterThan(0)
  await cover.scrollIntoViewIfNeeded()
  await eventually('the cover loaded', () => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 30_000)
}

async function done(page: Page, errors: string[]) {
  expect(errors).toEqual([])
  await page.context().close()
}

describe('covers on matches', () => {
  for (const viewport of [PHONE, LAPTOP])
    test(`at ${viewport.width} px: the inbox card and the Matches tab show the counterpart’s cover; the details show my photos (axe)`, async () => {
      const { page, errors } = await world.open(asha, '/dashboard/matches', { viewport, axe: true })
      const card = page.locator(`[data-match="${offered.entry_id}"]`).first()
      await coverShown(card, offeredCover)
      expect(await problems(page, `match inbox with covers ${viewport.width}`)).toEqual([])

      // My listing's details, opened from its group: the Matches tab's card has the cover too…
      await page.getByRole('button', { name: `All matches of ${wanted.entry_id}` }).click()
      const dialog = openDialog(page)
      await coverShown(dialog.locator(`[data-match="${offered.entry_id}"]`), offeredCover)
      expect(await problems(page, `matches tab with covers ${viewport.width}`, 'dialog[open]')).toEqual([])
      // …and its Details tab shows my own photo in the gallery.
      await dialog.getByRole('tab', { name: 'Details' }).click()
      const gallery = dialog.locator(`[data-gallery="${wanted.id}"]`)
      await gallery.getByRole('img', { name: 'Photo 1 of 1' }).waitFor()
      await eventually('my photo loaded', () => gallery.locator('img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 30_000)
      await done(page, errors)
    }, 120_000)

  test('at 390 px: the counterpart’s card in the listings shows its cover, and its details its photo', async () => {
    const { page, errors } = await world.open(asha, `/dashboard/listings?search=${offered.entry_id}`, { viewport: PHONE, axe: true })
    const card = page.locator(`article[data-listing-card="${offered.entry_id}"]`)
    await coverShown(card, offeredCover)
    await card.click()
    const gallery = openDialog(page).locator(`[data-gallery="${offered.id}"]`)
    await gallery.getByRole('img', { name: 'Photo 1 of 1' }).waitFor()
    await eventually('its photo loaded', () => gallery.locator('img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 30_000)
    expect(await problems(page, 'counterpart details with its photo', 'dialog[open]')).toEqual([])
    await hydrated(page)
    await done(page, errors)
  }, 120_000)
})
