import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD } from '../../src/bootstrap'
import { problems } from '../support/axe'
import { hydrated } from '../support/browser'
import { eventually } from '../support/eventually'
import { smallControls } from '../support/targets'
import { startWorld, type World } from '../support/world'

// Issue 34, photos on the paste screen's drafts, in a real Chromium against the real server: chosen from the file
// chooser on a draft (several at once) and sent once it is posted, each with its progress; "Share → Brokernet" with
// text and photos (the manifest's multipart share_target): the service worker keeps the photos in the browser, one
// message's draft takes them all, several messages' photos wait in a tray to be put on their drafts, and a share made
// signed out keeps its photos across the sign-in. At 390 and 1440 px with axe and tap targets.

setDefaultTimeout(120_000)

const PHONE = { width: 390, height: 844 }
const LAPTOP = { width: 1440, height: 900 }
const BROKER = 'rahul.sharma@brokernet.example'
const root = new URL('../..', import.meta.url).pathname
let world: World
let token: string
let images: string
let jpeg: string

beforeAll(async () => {
  images = mkdtempSync(join(tmpdir(), 'brokernet-e2e-draft-photos-'))
  const made = Bun.spawnSync([process.execPath, join(root, 'tests/support/image-fixtures.ts'), images], { stdout: 'pipe', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`fixtures: ${made.stderr}`)
  jpeg = readFileSync(join(images, 'other.jpg')).toString('base64')
  world = await startWorld({ demo: true })
  token = (await world.account(BROKER)).token
})
afterAll(async () => {
  await world?.stop()
  if (images) rmSync(images, { recursive: true, force: true })
})

const photosOf = async (entryId: string) =>
  (await world.data.get<{ n: number }>('select count(*) as n from listing_photos p join listings l on l.id = p.listing_id where l.entry_id = ?', [entryId]))?.n ?? 0

/** Android's share sheet posting text and photos to the manifest's share_target (multipart), as a form would. */
const share = (page: Page, text: string, names: string[]) =>
  page.evaluate(
    ({ text, names, jpeg }) => {
      const bytes = Uint8Array.from(atob(jpeg), (c) => c.charCodeAt(0))
      const form = Object.assign(document.createElement('form'), { method: 'POST', action: '/dashboard/paste/share', enctype: 'multipart/form-data' })
      form.append(Object.assign(document.createElement('input'), { type: 'hidden', name: 'text', value: text }))
      const input = Object.assign(document.createElement('input'), { type: 'file', name: 'photos', multiple: true })
      const files = new DataTransfer()
      for (const name of names) files.items.add(new File([bytes], name, { type: 'image/jpeg' }))
      input.files = files.files
      form.append(input)
      document.body.append(form)
      form.submit()
    },
    { text, names, jpeg },
  )

const controlled = (page: Page) => page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 })

/** Posts the draft and waits for its photos to be on the listing. */
async function postDraft(page: Page, number: number, photos: number) {
  await page.getByRole('checkbox', { name: `Select Draft ${number}` }).check()
  await page.getByRole('button', { name: 'Post selected (1)' }).click()
  const posted = page.locator('[data-posted]').nth(0)
  await posted.waitFor()
  const entryId = (await posted.getAttribute('data-posted'))!
  await eventually(`${photos} photos on ${entryId}`, async () => (await photosOf(entryId)) === photos)
  return entryId
}

describe('photos on paste drafts', () => {
  // Each size its own property (another locality and contact): the second is no duplicate of the first.
  for (const [size, viewport, place, phone] of [['1440', LAPTOP, 'Juhu', '98201 14401'], ['390', PHONE, 'Versova', '98201 39039']] as const)
    test(`at ${size} px: chosen on a draft from the file chooser, several at once, sent once it is posted`, async () => {
      const { page, errors } = await world.open(token, '/dashboard/paste', { viewport, axe: true })
      await page.getByLabel('WhatsApp messages').fill(`AVL 2 BHK for rent in ${place}, 900 sqft, 60k. Call ${phone}`)
      await page.getByRole('button', { name: 'Read messages' }).click()
      const card = page.locator('article[data-draft]').first()
      await card.waitFor()
      await card.locator('[data-draft-photos] input[type=file]').setInputFiles([join(images, 'other.jpg'), join(images, 'photo.png')])
      await card.locator('[data-draft-photos="2"]').waitFor()
      expect(await card.getByRole('img', { name: 'Photo 1: other.jpg' }).isVisible()).toBe(true)
      await card.getByRole('button', { name: 'Remove photo 2' }).click()
      await card.locator('[data-draft-photos="1"]').waitFor()
      await card.locator('[data-draft-photos] input[type=file]').setInputFiles([join(images, 'photo.png'), join(images, 'photo-small.jpg')])
      await card.locator('[data-draft-photos="3"]').waitFor()
      expect(await problems(page, `a draft with photos @${size}`, '[data-drafts]')).toEqual([])
      if (size === '390') expect(await smallControls(page, '[data-draft-photos]')).toEqual([])
      await postDraft(page, 1, 3)
      expect(errors).toEqual([])
      await page.context().close()
    })

  test('Share → Brokernet with one message and two photos, signed in: the draft takes them, posted with the listing', async () => {
    const { page, errors } = await world.open(token, '/dashboard', { viewport: PHONE, axe: true, context: { serviceWorkers: 'allow' } })
    await controlled(page)
    await share(page, 'AVL 3 BHK for sale in Bandra West, 1400 sqft, 3.5 Cr. Call 98200 55555', ['front.jpg', 'hall.jpg'])
    await page.waitForURL(/\/dashboard\/paste\?shared=1&photos=2$/)
    await page.locator('[data-draft-photos="2"]').waitFor()
    expect(await page.locator('[data-shared-photos]').count()).toBe(0)
    expect(await problems(page, 'shared photos on the draft @390', '[data-drafts]')).toEqual([])
    await postDraft(page, 1, 2)
    // Taken once: the browser keeps nothing of the share.
    expect(await page.evaluate(async () => (await caches.keys()).includes('shared-photos-v1'))).toBe(false)
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('several messages with photos: a tray puts each photo on its draft (1440 px)', async () => {
    const { page, errors } = await world.open(token, '/dashboard', { viewport: LAPTOP, axe: true, context: { serviceWorkers: 'allow' } })
    await controlled(page)
    await share(page, 'AVL 1 BHK for rent in Powai, 500 sqft, 30k. Call 98200 66666\n\nAVL 2 BHK for rent in Andheri East, 800 sqft, 45k. Call 98200 77777', ['one.jpg', 'two.jpg'])
    await page.waitForURL(/photos=2$/)
    const tray = page.locator('[data-shared-photos="2"]')
    await tray.waitFor()
    await page.locator('article[data-draft]').nth(1).waitFor()
    expect(await problems(page, 'the shared photos tray @1440', '[data-shared-photos]')).toEqual([])
    await page.getByLabel('Put photo 2 on').selectOption({ label: 'Draft 2' })
    await page.locator('[data-shared-photos="1"]').waitFor()
    await page.getByLabel('Put photo 1 on').selectOption({ label: 'Draft 1' })
    await page.locator('[data-shared-photos]').waitFor({ state: 'detached' })
    const drafts = page.locator('article[data-draft]')
    expect(await drafts.nth(0).locator('[data-draft-photo]').getAttribute('data-draft-photo')).toBe('one.jpg')
    expect(await drafts.nth(1).locator('[data-draft-photo]').getAttribute('data-draft-photo')).toBe('two.jpg')
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('signed out: the shared text and photos survive the sign-in', async () => {
    const { page } = await world.open(null, '/login', { viewport: PHONE, context: { serviceWorkers: 'allow' } })
    await controlled(page)
    await share(page, 'REQ 2 BHK for rent in Khar, 50k. Call 98200 88888', ['khar.jpg'])
    await page.waitForURL(/\/login\?redirect=/)
    await hydrated(page)
    await page.getByLabel('Email', { exact: true }).fill(BROKER)
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/dashboard\/paste\?shared=1&photos=1$/)
    await page.locator('[data-draft-photos="1"]').waitFor()
    expect(await page.getByLabel('WhatsApp messages').inputValue()).toContain('Khar')
    await page.context().close()
  })
})

describe('a dropped connection while sending photos (issue 34)', () => {
  /** Opens a fresh draft with these photos on it, at the size given; answers the page. */
  async function draftWith(viewport: { width: number; height: number }, place: string, phone: string, files: string[]) {
    const w = await world.open(token, '/dashboard/paste', { viewport, axe: true, ignore: /Failed to load resource|ERR_CONNECTION|ERR_FAILED/ })
    await w.page.getByLabel('WhatsApp messages').fill(`AVL 1 BHK for rent in ${place}, 500 sqft, 35k. Call ${phone}`)
    await w.page.getByRole('button', { name: 'Read messages' }).click()
    const card = w.page.locator('article[data-draft]').first()
    await card.locator('[data-draft-photos] input[type=file]').setInputFiles(files.map((f) => join(images, f)))
    await card.locator(`[data-draft-photos="${files.length}"]`).waitFor()
    return w
  }

  test('390 px: each photo its own request; the first attempts cut (one after the server stored it, one before): retried by itself, each stored once', async () => {
    const { page, errors } = await draftWith(PHONE, 'Chembur', '98202 10101', ['other.jpg', 'photo.png'])
    const attempts: string[] = []
    await page.route('**/api/listings/*/photos', async (route) => {
      if (route.request().method() !== 'POST') return route.continue()
      const key = route.request().headers()['idempotency-key'] ?? ''
      attempts.push(key)
      const seen = attempts.filter((k) => k === key).length
      if (seen > 1) return route.continue()
      // The first photo reaches the server and is stored; its answer is lost. The second never leaves.
      if (attempts.length === 1) await route.fetch()
      await route.abort('connectionreset')
    })
    const entryId = await postDraft(page, 1, 2)
    expect(attempts.length).toBe(4)
    expect(new Set(attempts).size).toBe(2)
    expect(attempts.every((k) => /^[a-f0-9]{32}$/.test(k))).toBe(true)
    // Still exactly two photos a moment later: the retry of the stored one added nothing.
    expect(await photosOf(entryId)).toBe(2)
    await page.locator('[data-draft-sending] [data-photo-id]').nth(1).waitFor()
    expect(await page.locator('[data-draft-sending] [data-photo-id]').count()).toBe(2)
    expect(await page.locator('[data-sending]').count()).toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('1440 px: the connection stays down: after its tries the photo shows Retry, which sends it once it is back', async () => {
    const { page, errors } = await draftWith(LAPTOP, 'Ghatkopar', '98202 20202', ['other.jpg'])
    let up = false
    let tries = 0
    await page.route('**/api/listings/*/photos', (route) =>
      up || route.request().method() !== 'POST' ? route.continue() : (tries++, route.abort('internetdisconnected')),
    )
    await page.getByRole('checkbox', { name: 'Select Draft 1' }).check()
    await page.getByRole('button', { name: 'Post selected (1)' }).click()
    const retry = page.locator('[data-sending="other.jpg"]').getByRole('button', { name: 'Retry' })
    await retry.waitFor()
    expect(tries).toBe(4)
    expect(await page.locator('[data-send-error]').textContent()).toContain('connection dropped')
    expect(await problems(page, 'a photo waiting for Retry @1440', '[data-draft-sending]')).toEqual([])
    const entryId = (await page.locator('[data-posted]').getAttribute('data-posted'))!
    expect(await photosOf(entryId)).toBe(0)
    up = true
    await retry.click()
    await eventually('the photo stored once', async () => (await photosOf(entryId)) === 1)
    await page.locator('[data-sending]').waitFor({ state: 'detached' })
    expect(await photosOf(entryId)).toBe(1)
    expect(errors).toEqual([])
    await page.context().close()
  })
})

