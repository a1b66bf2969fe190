import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Locator, Page } from 'playwright-core'
import { problems } from '../support/axe'
import { startWorld, type World } from '../support/world'

// Issue 18, "Share": a listing as a WhatsApp message, from its details and from the row menus of the broker dashboard,
// My Listings and the admin grid, in a real Chromium against the real server with the demo network.

// A browser and a server: more than bun's 5 s, also when run without scripts/test.ts's --timeout.
setDefaultTimeout(120_000)

const PHONE = { width: 390, height: 844 }
/** Where the links point: set, since with PORT=0 each of the server's processes would name its own default. */
const PUBLIC_URL = 'http://brokernet.test'
const LAPTOP = { width: 1440, height: 900 }

let world: World
const tokens: Record<'broker' | 'admin', string> = { broker: '', admin: '' }

beforeAll(async () => {
  world = await startWorld({ demo: true, env: { PUBLIC_URL } })
  tokens.broker = (await world.account('rahul.sharma@brokernet.example')).token
  tokens.admin = (await world.account('admin.mumbai@brokernet.example')).token
})
afterAll(() => world?.stop())

const open = (who: 'broker' | 'admin', path: string, viewport: { width: number; height: number }, { clipboard = true } = {}) =>
  world.open(tokens[who], path, { viewport, axe: true, context: { permissions: clipboard ? ['clipboard-read', 'clipboard-write'] : [] } })

const shareDialog = (page: Page, entryId: string) => page.locator('dialog[open]').filter({ has: page.getByRole('heading', { name: `Share ${entryId}` }) })
const toast = (page: Page, text: string) => page.locator('[data-toast]').filter({ hasText: text })
const firstListing = (page: Page) => page.locator('[data-listing-id]:visible').first()

/**
 * The dialog's message: the listing's post type first, its link last (the sharer's own listing: its public page for a
 * client, issue 34; another's: the listing on the network); the WhatsApp link carries it.
 */
async function checkMessage(page: Page, dialog: Locator, entryId: string): Promise<string> {
  const box = dialog.getByLabel('Message to share')
  await box.waitFor()
  const text = await box.inputValue()
  expect(text.startsWith(`${entryId.split('-')[0]} | `)).toBe(true)
  const onNetwork = text.endsWith(`${PUBLIC_URL}/dashboard/listings?search=${encodeURIComponent(entryId)}`)
  const publicPage = new RegExp(`${PUBLIC_URL.replaceAll('.', '\\.')}/l/[A-Za-z0-9_-]{22}$`).test(text)
  expect(onNetwork || publicPage).toBe(true)
  expect(await box.getAttribute('readonly')).not.toBeNull()
  const whatsapp = dialog.getByRole('link', { name: 'Open WhatsApp' })
  expect(await whatsapp.getAttribute('href')).toBe(`https://wa.me/?text=${encodeURIComponent(text)}`)
  expect(await whatsapp.getAttribute('target')).toBe('_blank')
  expect(await whatsapp.getAttribute('rel')).toContain('noopener')
  return text
}

describe('Share a listing as a WhatsApp message (issue 18)', () => {
  test('at 1440 px, from the details: the message, Copy to the clipboard, the WhatsApp link', async () => {
    const { page, errors } = await open('broker', '/dashboard/listings', LAPTOP)
    const row = firstListing(page)
    const entryId = (await row.getAttribute('data-entry-id'))!
    await row.locator('td').nth(1).click()
    const details = page.locator(`dialog[open] [data-listing-details="${entryId}"]`)
    await details.waitFor()
    await details.getByRole('button', { name: 'Share' }).click()
    const dialog = shareDialog(page, entryId)
    const text = await checkMessage(page, dialog, entryId)
    expect(await page.locator('dialog[open]').count()).toBe(1)
    expect(await problems(page, 'share dialog at 1440 px', 'dialog[open]')).toEqual([])

    await dialog.getByRole('button', { name: 'Copy' }).click()
    await toast(page, 'Copied').waitFor()
    await dialog.getByRole('button', { name: 'Copied' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('at 390 px, from the row menus of the broker dashboard and My Listings: the dialog fits the phone', async () => {
    for (const path of ['/dashboard', '/dashboard/my-listings']) {
      const { page, errors } = await open('broker', path, PHONE)
      const entryId = (await firstListing(page).getAttribute('data-entry-id'))!
      await page.getByRole('button', { name: `Actions for ${entryId}` }).click()
      await page.getByRole('menu', { name: `Actions for ${entryId}` }).getByRole('menuitem', { name: 'Share' }).click()
      const dialog = shareDialog(page, entryId)
      await checkMessage(page, dialog, entryId)
      const box = (await dialog.locator('.modal-box').boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height)
      // Every button of the dialog in view without scrolling.
      const actions = dialog.locator('.modal-action')
      for (const name of ['Copy', 'Close']) expect(await actions.getByRole('button', { name, exact: true }).isVisible()).toBe(true)
      expect(await actions.getByRole('link', { name: 'Open WhatsApp' }).isVisible()).toBe(true)
      expect(await problems(page, `share dialog from the row menu of ${path} at 390 px`, 'dialog[open]')).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      expect(errors).toEqual([])
      await page.context().close()
    }
  })

  test('the admin grid’s row menu shares too; with no clipboard, Copy selects the text', async () => {
    const { page, errors } = await open('admin', '/dashboard/listings', LAPTOP, { clipboard: false })
    // A browser that refuses the clipboard.
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } }))
    const entryId = (await firstListing(page).getAttribute('data-entry-id'))!
    await page.getByRole('button', { name: `Actions for ${entryId}` }).click()
    await page.getByRole('menu', { name: `Actions for ${entryId}` }).getByRole('menuitem', { name: 'Share' }).click()
    const dialog = shareDialog(page, entryId)
    const text = await checkMessage(page, dialog, entryId)
    await dialog.getByRole('button', { name: 'Copy' }).click()
    await toast(page, 'Selected: copy it with Ctrl+C').waitFor()
    const selected = await dialog.getByLabel('Message to share').evaluate((t: HTMLTextAreaElement) => t.value.slice(t.selectionStart, t.selectionEnd))
    expect(selected).toBe(text)
    expect(errors).toEqual([])
    await page.context().close()
  })
})
