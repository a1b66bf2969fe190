import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { listings, users } from '../../db/schema'
import type { SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { openDialog } from '../support/browser'
import { startWorld, type World } from '../support/world'

// Moderation (issue 29) in a real Chromium against the real server with the demo network, at 1440 and 390 px: a module
// admin suspends a broker's listing with a reason (required), the broker sees it as 'Suspended by an admin' with the
// reason, is offered no Reactivate and asks for a review, the admin finds the request through the banner and keeps
// the suspension with an answer, then lifts it. axe-core checks both new dialogs.

setDefaultTimeout(120_000)

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const
let world: World
let broker: SignedIn
let admin: SignedIn

beforeAll(async () => {
  world = await startWorld({ demo: true })
  broker = await world.account('rahul.sharma@brokernet.example')
  admin = await world.account('admin.mumbai@brokernet.example')
  expect(admin.user).toMatchObject({ role: 'MODULE_ADMIN', cityId: broker.user.cityId })
}, 90_000)
afterAll(() => world?.stop())

const stored = (id: number) => world.db.select().from(listings).where(eq(listings.id, id)).get()!
const toast = (page: Page, kind: string, text: string) => page.locator(`[data-toast="${kind}"]`).filter({ hasText: text })
/** The listing's row (a table row, or on a phone its card), whichever is on screen. */
const item = (page: Page, entryId: string) => page.locator(`[data-entry-id="${entryId}"]:visible`)

const openAs = async (who: 'broker' | 'admin', size: keyof typeof SIZES, path: string): Promise<Page> =>
  (await world.open(who === 'broker' ? broker : admin, path, { viewport: SIZES[size], axe: true })).page

/** Opens the listing's row menu and answers it (items are looked up by role). */
async function openMenu(page: Page, entryId: string) {
  // The admin grid reloads after each change: act once it has landed, so rows never move under a click.
  await page.locator('[data-admin-listings][data-fetching]').waitFor({ state: 'detached' })
  const button = page.getByRole('button', { name: `Actions for ${entryId}` })
  await button.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }))
  await button.click()
  const menu = page.getByRole('menu', { name: `Actions for ${entryId}` })
  await menu.waitFor()
  return menu
}
const menuItems = async (page: Page, entryId: string) => {
  const menu = await openMenu(page, entryId)
  const names = await menu.getByRole('menuitem').allTextContents()
  await page.keyboard.press('Escape')
  await menu.waitFor({ state: 'hidden' })
  return names
}

/** The active admins a review request is mailed to: the listing's city's module admins and the master admins. */
const adminsOfCity = (cityId: number) =>
  world.db.select().from(users).where(and(eq(users.isActive, true), inArray(users.role, ['MASTER_ADMIN', 'MODULE_ADMIN']))).all().filter((u) => u.role === 'MASTER_ADMIN' || u.cityId === cityId)

for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
  describe(`at ${SIZES[size].width} px`, () => {
    let target: typeof listings.$inferSelect
    const REASON = `The contact number does not answer (${size})`

    beforeAll(() => {
      // One of the broker's ACTIVE listings per size, never the other size's.
      const mine = world.db.select().from(listings).where(and(eq(listings.ownerUserId, broker.user.id), eq(listings.status, 'ACTIVE'))).all()
      target = mine[size === 'desktop' ? 0 : 1]!
    })

    test('the admin suspends from the grid: the dialog asks the reason, refuses none, and the row is tagged', async () => {
      const page = await openAs('admin', size, `/dashboard/listings?search=${target.entryId}`)
      await item(page, target.entryId).waitFor()
      await (await openMenu(page, target.entryId)).getByRole('menuitem', { name: 'Suspend' }).click()
      const d = openDialog(page)
      await d.getByRole('heading', { name: `Suspend ${target.entryId}` }).waitFor()
      expect(await problems(page, 'suspend dialog', 'dialog[open]')).toEqual([])
      // No reason: said in the dialog, nothing sent.
      await d.getByRole('button', { name: 'Suspend Listing' }).click()
      await d.getByText('A reason is required when an admin suspends a listing').waitFor()
      expect(stored(target.id).status).toBe('ACTIVE')
      expect(await problems(page, 'suspend dialog, no reason', 'dialog[open]')).toEqual([])
      await d.getByLabel('Reason for suspending *').fill(REASON)
      await d.getByRole('button', { name: 'Suspend Listing' }).click()
      await toast(page, 'success', 'Listing suspended successfully').waitFor()
      await page.locator(`[data-entry-id="${target.entryId}"][data-status="SUSPENDED"]:visible`).waitFor()
      expect(await item(page, target.entryId).textContent()).toContain('by an admin')
      expect(stored(target.id)).toMatchObject({ status: 'SUSPENDED', suspendedBy: admin.user.id, suspensionReason: REASON })
      expect(await menuItems(page, target.entryId)).toEqual(['Edit', 'Share', 'Unsuspend', 'Delete'])
      await page.context().close()
    })

    test('the broker sees it suspended by an admin with the reason, cannot reactivate it, and asks for a review', async () => {
      const page = await openAs('broker', size, '/dashboard/my-listings')
      const row = item(page, target.entryId)
      await row.waitFor()
      expect(await row.getAttribute('data-status')).toBe('SUSPENDED')
      expect(await row.locator('[data-moderation]').textContent()).toBe(`Suspended by an admin${REASON}`)
      expect(await menuItems(page, target.entryId)).toEqual(['Edit', 'Share', 'Ask for a review', 'Delete'])

      // The edit form shows the status as it is, and offers no other.
      await (await openMenu(page, target.entryId)).getByRole('menuitem', { name: 'Edit' }).click()
      let d = openDialog(page)
      const status = d.getByLabel('Status', { exact: true })
      expect(await status.inputValue()).toBe('SUSPENDED')
      for (const other of ['ACTIVE', 'ON_HOLD', 'CLOSED']) expect(await status.locator(`option[value="${other}"]`).isDisabled()).toBe(true)
      expect(await d.locator('[data-moderation-notice]').textContent()).toContain(REASON)
      await page.keyboard.press('Escape')
      await d.waitFor({ state: 'detached' })

      // The details: the notice, no Reactivate, Ask for a review.
      // A click on the row (a cell other than its menu), or on a phone the card.
      const cells = row.locator('td')
      await ((await cells.count()) > 1 ? cells.nth(2) : row).click()
      d = openDialog(page)
      const notice = d.locator('[data-moderation-notice]')
      await notice.waitFor()
      expect(await notice.textContent()).toContain(`Reason: ${REASON}`)
      expect(await notice.textContent()).toContain('Only an admin of its city can reactivate it.')
      expect(await d.getByRole('button', { name: 'Reactivate' }).count()).toBe(0)
      await d.getByRole('button', { name: 'Ask for a review' }).click()
      d = openDialog(page)
      await d.getByRole('heading', { name: `Ask for a review of ${target.entryId}` }).waitFor()
      expect(await problems(page, 'review request dialog', 'dialog[open]')).toEqual([])
      await d.getByLabel('Note to the admins (optional)').fill('I called the number: it works now.')
      await d.getByRole('button', { name: 'Ask for a review' }).click()
      const told = adminsOfCity(target.cityId).length
      await toast(page, 'success', `Review requested: ${told} admins were told.`).waitFor()
      await row.locator('[data-review-requested]').waitFor()
      expect(await menuItems(page, target.entryId)).toEqual(['Edit', 'Share', 'Delete'])
      const now = stored(target.id)
      expect(now.reviewRequestedAt).toBeNumber()
      expect(now.reviewNote).toBe('I called the number: it works now.')
      // The mail to each admin is in the outbox (the server logs it there without SMTP_URL).
      const mails = await world.data.all<{ to_address: string }>('select to_address from mail_outbox where subject = ?', [`Review requested: ${target.entryId} (Mumbai)`])
      expect(mails.map((m) => m.to_address).sort()).toEqual(adminsOfCity(target.cityId).map((u) => u.email).sort())
      await page.context().close()
    })

    test('the admin finds the request through the banner, keeps it suspended with an answer, then lifts it', async () => {
      const page = await openAs('admin', size, '/dashboard/listings')
      const banner = page.locator('[data-admin-banner]')
      expect(await banner.locator('[data-review-count]').getAttribute('data-review-count')).toBe('1')
      await banner.getByRole('button', { name: 'Show review requests' }).click()
      await page.waitForURL(/review_requested=true/)
      const row = item(page, target.entryId)
      await row.locator('[data-review-requested]').waitFor()
      expect(await page.locator('[data-listing-id]:visible').count()).toBe(1)

      await (await openMenu(page, target.entryId)).getByRole('menuitem', { name: 'Keep suspended' }).click()
      const d = openDialog(page)
      await d.getByRole('heading', { name: `Keep suspended: ${target.entryId}` }).waitFor()
      expect(await d.locator('[data-moderation-notice]').textContent()).toContain('I called the number: it works now.')
      const answer = d.getByLabel('Your answer: why it stays suspended *')
      expect(await answer.inputValue()).toBe(REASON)
      expect(await problems(page, 'keep suspended dialog', 'dialog[open]')).toEqual([])
      await answer.fill('It still does not answer; the photos are of another flat.')
      await d.getByRole('button', { name: 'Keep suspended' }).click()
      await toast(page, 'success', 'Listing kept suspended').waitFor()
      // Answered: the request leaves the filtered list and the banner.
      await row.waitFor({ state: 'detached' })
      await banner.locator('[data-review-count]').waitFor({ state: 'detached' })
      expect(stored(target.id)).toMatchObject({ status: 'SUSPENDED', suspensionReason: 'It still does not answer; the photos are of another flat.', reviewRequestedAt: null })

      // Lifted: ACTIVE again, nothing of the moderation left.
      await page.goto(`${world.url}/dashboard/listings?search=${target.entryId}`)
      await page.waitForSelector('html[data-islands="hydrated"]')
      await (await openMenu(page, target.entryId)).getByRole('menuitem', { name: 'Unsuspend' }).click()
      await toast(page, 'success', 'Listing reactivated successfully').waitFor()
      await page.locator(`[data-entry-id="${target.entryId}"][data-status="ACTIVE"]:visible`).waitFor()
      expect(stored(target.id)).toMatchObject({ status: 'ACTIVE', suspendedBy: null, suspensionReason: null, reviewRequestedAt: null })
      await page.context().close()
    })
  })
}
