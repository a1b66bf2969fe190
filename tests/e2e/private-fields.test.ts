import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { seedGeography } from '../../db/seed/demo'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { signIn, type SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { hydrated, launchBrowser, openDialog } from '../support/browser'
import { cityIdByName, dataLayer } from '../support/fixtures'
import { startServer, type RunningServer } from '../support/server'
import { eventually } from '../support/eventually'
import { smallControls } from '../support/targets'

// Issue 35's listing form in a real Chromium against the real server, at 1440 and 390 px with axe-core: a new
// listing's contact starts as the broker's own phone and says it is shown to the network; typing an owner's phone
// the broker keeps private on another listing warns; "Only me" and the private fields are saved (the private ones in
// listing_private, nowhere in the listing); editing shows them again. Another broker does not see the listing.

let server: RunningServer
let browser: Browser
let db: Database
let asha: SignedIn
let ravi: SignedIn
const ASHA_PHONE = '+91 98200 44556'
const OWNER_PHONE = '+91 90040 50607'
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const

async function send<T>(who: SignedIn, path: string, method: string, body?: object): Promise<{ status: number; json: T }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { cookie: `${SESSION_COOKIE}=${who.token}`, origin: new URL(server.url).origin, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, json: (res.status === 204 ? undefined : await res.json()) as T }
}

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  db = openDatabase(join(server.dataDir, 'brokernet.db'))
  await seedGeography(dataLayer(db))
  const mumbai = await cityIdByName(db, 'Mumbai')
  asha = await signIn(db, 'BROKER', { cityId: mumbai, fullName: 'Asha Verma', phone: ASHA_PHONE })
  ravi = await signIn(db, 'BROKER', { cityId: mumbai, fullName: 'Ravi Kumar' })
  // An earlier listing of Asha's keeps the owner's phone private.
  const earlier = await send(asha, '/api/listings', 'POST', { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: ASHA_PHONE, property_type: '1 BHK', private: { owner_phone: OWNER_PHONE } })
  expect(earlier.status).toBe(201)
}, 120_000)
afterAll(async () => {
  if (db) closeDatabase(db)
  await browser?.close()
  await server?.stop()
})

async function open(who: SignedIn, path: string, size: keyof typeof SIZES) {
  const context = await browser.newContext({ viewport: SIZES[size], bypassCSP: true })
  await context.addCookies([{ name: SESSION_COOKIE, value: who.token, url: server.url }])
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && !/status of (403|404|409|422)\b/.test(m.text()) && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(server.url + path)
  await hydrated(page)
  return { page, errors }
}


describe('the listing form’s contact, visibility and private fields', () => {
  for (const size of ['desktop', 'phone'] as const)
    test(`at ${SIZES[size].width} px: contact prefilled and explained, the private-phone warning, Only me and the private fields saved and shown again`, async () => {
      const { page, errors } = await open(asha, '/dashboard/my-listings', size)
      await page.getByRole('button', { name: 'Add New Listing' }).click()
      const dialog = openDialog(page)
      await dialog.waitFor()
      const contact = dialog.getByLabel('Contact (phone or email)')
      await eventually('the contact prefilled with her phone', async () => (await contact.inputValue()) === ASHA_PHONE)
      expect(await dialog.locator('#listing-form-contact-note').textContent()).toContain('shown to every broker')

      // An owner's phone kept private elsewhere, typed as the contact: the form warns.
      expect(await dialog.locator('[data-private-contact]').count()).toBe(0)
      await contact.fill('+91-90040-50607')
      await dialog.locator('[data-private-contact]').waitFor()
      expect(await dialog.locator('[data-private-contact]').textContent()).toContain('AVL-')
      expect(await problems(page, `form with warning @${SIZES[size].width}`, 'dialog[open]')).toEqual([])
      if (size === 'phone') expect(await smallControls(page, 'dialog[open] [data-private-fields]')).toEqual([])
      await contact.fill(ASHA_PHONE)

      const kind = `Zkind ${size}`
      await dialog.getByLabel('Property Type *').fill(kind)
      await dialog.getByLabel('Who sees this listing').selectOption('ONLY_ME')
      await dialog.getByLabel('Owner or client name').fill(`Mrs Private ${size}`)
      await dialog.getByLabel('Owner or client phone').fill('+91 91234 56789')
      await dialog.getByLabel('Exact address or unit').fill('Flat 1204, Sea View')
      await dialog.getByLabel('Bottom price').fill('9500000')
      await dialog.getByLabel('Private note').fill('will go lower in March')
      await dialog.getByRole('button', { name: 'Create Listing' }).click()
      await dialog.waitFor({ state: 'detached' })

      const stored = await eventually('the listing stored', () =>
        dataLayer(db).get<{ id: number; visibility: string; contact_value: string }>('select id, visibility, contact_value from listings where property_type = ?', [kind]),
      )
      expect(stored).toMatchObject({ visibility: 'ONLY_ME', contact_value: ASHA_PHONE })
      const priv = await dataLayer(db).get<Record<string, unknown>>('select owner_name, owner_phone, address, bottom_price, note from listing_private where listing_id = ?', [stored.id])
      expect(priv).toEqual({ owner_name: `Mrs Private ${size}`, owner_phone: '+91 91234 56789', address: 'Flat 1204, Sea View', bottom_price: 9500000, note: 'will go lower in March' })
      // Another broker does not see it.
      expect((await send(ravi, `/api/listings/${stored.id}`, 'GET')).status).toBe(404)

      // Editing shows the private fields again.
      const row = page.locator(size === 'phone' ? 'article[data-entry-id]' : 'tr[data-entry-id]').filter({ hasText: kind }).first()
      await row.getByRole('button', { name: /^Actions for / }).click()
      await page.getByRole('menuitem', { name: 'Edit' }).click()
      const edit = openDialog(page)
      await edit.waitFor()
      await eventually('the private fields loaded', async () => (await edit.getByLabel('Owner or client name').inputValue()) === `Mrs Private ${size}`)
      expect(await edit.getByLabel('Who sees this listing').inputValue()).toBe('ONLY_ME')
      expect(await problems(page, `edit form @${SIZES[size].width}`, 'dialog[open]')).toEqual([])
      await edit.getByLabel('Private note').fill('firm now')
      await edit.getByRole('button', { name: 'Update Listing' }).click()
      await edit.waitFor({ state: 'detached' })
      await eventually('the note changed', async () => (await dataLayer(db).get<{ note: string }>('select note from listing_private where listing_id = ?', [stored.id]))?.note === 'firm now')
      expect(errors).toEqual([])
      await page.context().close()
    }, 120_000)
})
