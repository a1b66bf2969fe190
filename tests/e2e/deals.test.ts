import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Locator, Page } from 'playwright-core'
import type { SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { smallControls } from '../support/targets'
import { hydrated, openDialog } from '../support/browser'
import { startWorld, type OpenPage, type World } from '../support/world'

// Co-broking's screens (issue 35) in a real Chromium against the real server: "I have a client for this" on another
// broker's card, row, details and match; the listing broker's Deals page (accept, counter, decline with a reason) and
// the requester's answer to a counter-offer; a deal's thread (messages, stages, a site visit, a reveal, a disputed
// close); reporting a listing; and two brokers, each in their own browser, running a deal from a match to a close both
// confirm, each step reaching the other's screen live (no reload: the page only learns of it from the event stream).
// At 390 and 1440 px, with axe-core, and controls at least 44 × 44 px on the phone.
let world: World
let mumbai: number
let asha: SignedIn // broker: wants a flat (REQ), asks to co-broke
let ravi: SignedIn // broker: has flats (AVL), answers
let tara: SignedIn // broker: reports a listing
let wanted: Listed // Asha's REQ
let offered: Listed // Ravi's AVL, matching Asha's REQ
let offered2: Listed // Ravi's second AVL

type Listed = { id: number; entry_id: string; status?: string }
type Req = { id: number; status: string; listing_id: number; requester_listing_id: number | null; message: string | null; split: { kind: string; requester_percent: number | null; flat_fee: number | null }; decline_reason: string | null; deal_id: number | null }
type Deal = { id: number; stage: string; owner_outcome: string | null; requester_outcome: string | null; visit_at: string | null; split: Req['split']; messages: { kind: string; body: string }[] }

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1440, height: 900 }
const OWNER_PHONE = '+91 90000 35035' // Ravi's private owner contact: seen only once he reveals it
const common = { sale_or_rent: 'RENT', location: 'West', locality: 'Andheri West' }

beforeAll(async () => {
  world = await startWorld({ geography: true })
  mumbai = await world.cityId('Mumbai')
  asha = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  ravi = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Ravi Kumar' })
  tara = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Tara Singh' })
  wanted = await world.send(asha, 'POST', '/api/listings', { ...common, post_type: 'REQ', property_type: '2 BHK', budget: 48_000, size: 550, contact_value: '+91 98200 12345' })
  offered = await world.send(ravi, 'POST', '/api/listings', {
    ...common,
    post_type: 'AVL',
    property_type: '2 BHK Apartment',
    budget: 45_000,
    size: 600,
    contact_value: '+91 98765 43210',
    private: { owner_name: 'Owner Dealtest', owner_phone: OWNER_PHONE, address: 'Flat 35, Dealtest Towers' },
  })
  offered2 = await world.send(ravi, 'POST', '/api/listings', { ...common, post_type: 'AVL', property_type: 'Shop', budget: 90_000, size: 300, contact_value: '+91 98765 43210' })
}, 60_000)
afterAll(() => world?.stop())

const open = (who: SignedIn, path: string, viewport = DESKTOP) => world.open(who, path, { viewport, axe: true, ignore: /status of 409|status of 422/ })
async function done(w: OpenPage) {
  expect(w.errors).toEqual([])
  expect(w.offHostRequests).toEqual([])
  await w.page.context().close()
}

/**
 * The visible controls `selector` finds that are smaller than 44 × 44 px (a radio or checkbox counts as its label).
 * The dialog frame's own close button and Cancel/submit bar (islands/shared Modal, FormActions) are the shared
 * components' size, not this feature's: the selectors name this feature's controls.
 */
const smallTargets = (page: Page, selector: string) =>
  page.$$eval(selector, (els) =>
    els
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const box = (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') ? el.closest('label')! : el) as HTMLElement
        // Laid-out sizes: a dialog still scaling in as it opens would shrink a bounding box.
        return { what: `${el.tagName.toLowerCase()} ${el.getAttribute('name') ?? el.textContent?.trim().slice(0, 30)}`, h: box.offsetHeight, w: box.offsetWidth }
      })
      .filter((t) => t.h < 44 || t.w < 44),
  )
/** A form's own fields (inside a dialog: not its shared Cancel/submit bar). */
const FIELDS = ':is(input, select, textarea)'

const requestsOf = (who: SignedIn) => world.send<Req[]>(who, 'GET', '/api/cobroke-requests')
const requestFor = async (who: SignedIn, listingId: number) => (await requestsOf(who)).find((r) => r.listing_id === listingId)
const toast = (page: Page, text: string) => page.locator('[data-toast]').filter({ hasText: text }).waitFor()

describe('“I have a client for this”', () => {
  test('at 390 px: the card’s button opens the request naming my matching requirement, 50/50 by default; a bad split is refused; the details refuse a second one', async () => {
    const w = await open(asha, `/dashboard/listings?search=${offered.entry_id}`, PHONE)
    const card = w.page.locator(`[data-listing-card="${offered.entry_id}"]`)
    await card.waitFor()
    const button = card.locator('[data-card-footer]').getByRole('button', { name: `I have a client for this: ${offered.entry_id}` })
    const box = (await button.boundingBox())!
    expect(box.height).toBeGreaterThanOrEqual(44)
    await button.click()
    const dialog = openDialog(w.page)
    await dialog.locator(`[data-cobroke-form="${offered.entry_id}"]`).waitFor()
    expect(await dialog.getByRole('heading', { name: 'Co-broke this listing' }).count()).toBe(1)
    // My requirement that matches it is named, chosen already.
    const mine = dialog.getByLabel('Your requirement for it')
    await dialog.locator(`option[value="${wanted.id}"]`).waitFor({ state: 'attached' })
    expect(await mine.inputValue()).toBe(String(wanted.id))
    expect(await dialog.getByLabel('Your share (%)').inputValue()).toBe('50')
    expect(await dialog.locator('[data-split-rest]').textContent()).toBe('Ravi Kumar’s share: 50%')
    expect(await problems(w.page, 'request dialog @390', 'dialog[open]')).toEqual([])
    expect(await smallTargets(w.page, `dialog[open] [data-cobroke-form] ${FIELDS}`)).toEqual([])

    await dialog.getByLabel('Your share (%)').fill('140')
    await dialog.getByRole('button', { name: 'Send request' }).click()
    await dialog.getByText('A share is a whole percent from 0 to 100').waitFor()
    expect(await requestFor(asha, offered.id)).toBeUndefined()
    await dialog.getByLabel('Your share (%)').fill('60')
    expect(await dialog.locator('[data-split-rest]').textContent()).toBe('Ravi Kumar’s share: 40%')
    await dialog.getByLabel('Message').fill('My client wants to see it this week.')
    await dialog.getByRole('button', { name: 'Send request' }).click()
    await toast(w.page, 'Co-broke request sent')
    await dialog.waitFor({ state: 'detached' }).catch(() => undefined)
    const sent = (await requestFor(asha, offered.id))!
    expect(sent).toMatchObject({ status: 'PENDING', requester_listing_id: wanted.id, message: 'My client wants to see it this week.', split: { kind: 'PERCENT', requester_percent: 60, flat_fee: null } })

    // The details sheet has the same action; the server's refusal (one open request per listing) stays in the dialog.
    await card.click()
    const details = w.page.locator(`dialog[open] [data-listing-details="${offered.entry_id}"]`)
    await details.waitFor()
    expect(await smallTargets(w.page, 'dialog[open] .modal-action :is([data-cobroke], [data-report])')).toEqual([])
    expect(await w.page.locator('dialog[open] .modal-action :is([data-cobroke], [data-report])').count()).toBe(2)
    await details.getByRole('button', { name: 'I have a client for this' }).click()
    const again = openDialog(w.page).locator(`[data-cobroke-form="${offered.entry_id}"]`)
    await again.waitFor()
    await again.getByRole('button', { name: 'Send request' }).click()
    expect(await again.getByRole('alert').textContent()).toBe('You already have an open request for this listing')
    expect((await requestsOf(asha)).filter((r) => r.listing_id === offered.id)).toHaveLength(1)
    await done(w)
  })

  test('at 1440 px: a row’s menu asks with a flat fee; my own listing has no such action', async () => {
    const w = await open(asha, `/dashboard/listings?search=${offered2.entry_id}`)
    const row = w.page.locator(`tr[data-entry-id="${offered2.entry_id}"]`)
    await row.waitFor()
    await row.getByRole('button', { name: `Actions for ${offered2.entry_id}` }).click()
    await w.page.getByRole('menuitem', { name: 'I have a client for this' }).click()
    const dialog = openDialog(w.page)
    await dialog.locator(`[data-cobroke-form="${offered2.entry_id}"]`).waitFor()
    // My requirement is for a 2 BHK, not a shop: nothing of mine matches, and I may still ask for a client of mine.
    expect(await dialog.getByLabel('Your requirement for it').inputValue()).toBe('')
    await dialog.getByRole('radio', { name: 'Flat fee' }).check()
    await dialog.getByRole('textbox', { name: 'Flat fee' }).fill('25,000')
    expect(await problems(w.page, 'request dialog @1440', 'dialog[open]')).toEqual([])
    await dialog.getByRole('button', { name: 'Send request' }).click()
    await toast(w.page, 'Co-broke request sent')
    expect(await requestFor(asha, offered2.id)).toMatchObject({ status: 'PENDING', requester_listing_id: null, split: { kind: 'FLAT', requester_percent: null, flat_fee: 25_000 } })
    await done(w)

    // Asha's own requirement: no co-broke action in its row.
    const own = await open(asha, `/dashboard/listings?search=${wanted.entry_id}`)
    const ownRow = own.page.locator(`tr[data-entry-id="${wanted.entry_id}"]`)
    await ownRow.waitFor()
    await ownRow.getByRole('button', { name: `Actions for ${wanted.entry_id}` }).click()
    await own.page.getByRole('menuitem', { name: 'Share' }).waitFor()
    expect(await own.page.getByRole('menuitem', { name: 'I have a client for this' }).count()).toBe(0)
    await done(own)
  })
})

describe('the Deals page: answering requests', () => {
  test('at 1440 px: the listing’s broker counters one request and declines the other with a reason', async () => {
    const w = await open(ravi, '/dashboard/deals')
    const incoming = w.page.locator('[data-requests="in"]')
    const first = incoming.locator(`[data-request="${(await requestFor(ravi, offered.id))!.id}"]`)
    const second = incoming.locator(`[data-request="${(await requestFor(ravi, offered2.id))!.id}"]`)
    expect((await first.innerText()).replace(/\s+/g, ' ')).toContain(`${offered.entry_id} · from Asha Verma`)
    expect(await first.locator('[data-split-text]').textContent()).toBe('Split: 60% requester / 40% listing broker')
    expect(await first.innerText()).toContain('“My client wants to see it this week.”')
    expect(await second.locator('[data-split-text]').textContent()).toBe('Split: Flat fee 25,000')
    expect(await problems(w.page, 'deals page @1440')).toEqual([])

    await first.getByRole('button', { name: 'Counter' }).click()
    const counter = openDialog(w.page).locator('[data-answer-form="counter"]')
    await counter.waitFor()
    expect(await counter.getByLabel('Asha Verma’s share (%)').inputValue()).toBe('60')
    await counter.getByLabel('Asha Verma’s share (%)').fill('50')
    expect(await problems(w.page, 'counter dialog @1440', 'dialog[open]')).toEqual([])
    await counter.getByRole('button', { name: 'Send counter-offer' }).click()
    await first.and(w.page.locator('[data-status="COUNTERED"]')).waitFor()

    await second.getByRole('button', { name: 'Decline' }).click()
    const decline = openDialog(w.page).locator('[data-answer-form="decline"]')
    await decline.waitFor()
    await decline.getByRole('button', { name: 'Decline' }).click()
    await decline.getByText('Say why you decline').waitFor()
    await decline.getByLabel('Reason').fill('The shop is let already')
    await decline.getByRole('button', { name: 'Decline' }).click()
    await second.and(w.page.locator('[data-status="DECLINED"]')).waitFor()
    expect(await second.innerText()).toContain('Declined: The shop is let already')
    expect(await requestFor(ravi, offered.id)).toMatchObject({ status: 'COUNTERED', split: { requester_percent: 50 } })
    expect(await requestFor(ravi, offered2.id)).toMatchObject({ status: 'DECLINED', decline_reason: 'The shop is let already' })
    await done(w)
  })

  test('at 390 px: the requester accepts the counter-offer and lands in the deal, its split locked', async () => {
    const w = await open(asha, '/dashboard/deals', PHONE)
    const mine = w.page.locator('[data-requests="out"]').locator(`[data-request="${(await requestFor(asha, offered.id))!.id}"]`)
    await mine.waitFor()
    expect(await mine.innerText()).toContain('Counter-offer: your answer')
    expect(await mine.locator('[data-split-text]').textContent()).toBe('Counter-offer: 50% requester / 50% listing broker')
    expect(await problems(w.page, 'deals page @390')).toEqual([])
    expect(await smallTargets(w.page, 'main :is(button, a, input, select, textarea)')).toEqual([])
    await mine.getByRole('button', { name: 'Accept counter-offer' }).click()
    await w.page.waitForURL(/\/dashboard\/deals\/\d+$/)
    const thread = w.page.locator('[data-deal-thread]')
    await thread.waitFor()
    expect(await thread.locator('[data-locked-split]').textContent()).toBe('Split, locked: 50% requester / 50% listing broker')
    expect(await thread.locator('[data-stage-badge]').textContent()).toBe('Interested')
    const req = (await requestFor(asha, offered.id))!
    expect(req.status).toBe('ACCEPTED')
    expect(w.page.url()).toEndWith(`/dashboard/deals/${req.deal_id}`)
    await done(w)
  })
})

describe('a deal’s thread', () => {
  const dealId = async () => (await requestFor(asha, offered.id))!.deal_id!
  const dealOf = async (who: SignedIn) => world.send<Deal>(who, 'GET', `/api/deals/${await dealId()}`)

  test('at 390 px: a message, a site visit with its date and time; no axe violation, big enough controls', async () => {
    const w = await open(asha, `/dashboard/deals/${await dealId()}`, PHONE)
    const thread = w.page.locator('[data-deal-thread]')
    await thread.waitFor()
    expect(await thread.getByRole('heading', { level: 1 }).textContent()).toBe('Deal with Ravi Kumar')
    // The request's message opened the thread.
    expect(await thread.locator('[data-message="MESSAGE"]').first().innerText()).toContain('My client wants to see it this week.')
    expect(await problems(w.page, 'deal thread @390')).toEqual([])
    expect(await smallTargets(w.page, 'main [data-deal-thread] :is(a, button, input, select, textarea)')).toEqual([])

    await thread.getByRole('button', { name: 'Send' }).click()
    await thread.getByText('Write a message').waitFor()
    await thread.getByLabel('Message to Ravi Kumar').fill('Saturday 11 am works for my client.')
    await thread.getByRole('button', { name: 'Send' }).click()
    await thread.locator('[data-message="MESSAGE"]').filter({ hasText: 'Saturday 11 am works for my client.' }).waitFor()

    await thread.getByRole('button', { name: 'Site visit' }).click()
    await thread.getByLabel('Site visit: date and time').fill('2031-03-15T11:00')
    await thread.getByRole('button', { name: 'Set site visit' }).click()
    await thread.locator('[data-stage-badge]').filter({ hasText: 'Site visit' }).waitFor()
    const visit = await thread.locator('[data-visit] time').getAttribute('datetime')
    expect(new Date(visit!).getTime()).toBe(new Date('2031-03-15T11:00').getTime())
    expect((await dealOf(asha)).stage).toBe('SITE_VISIT')
    expect(await problems(w.page, 'deal thread with a visit @390')).toEqual([])
    await done(w)
  })

  test('at 1440 px: the listing’s broker reveals the owner’s phone; outcomes that differ mark the deal disputed on both sides', async () => {
    const w = await open(ravi, `/dashboard/deals/${await dealId()}`)
    const thread = w.page.locator('[data-deal-thread]')
    await thread.waitFor()
    expect(await thread.getByText(OWNER_PHONE).count()).toBe(0)
    const reveal = thread.locator('[data-deal-reveal]')
    await reveal.getByRole('button', { name: 'Reveal' }).click()
    await reveal.getByText('Choose what to reveal').waitFor()
    await reveal.getByLabel('Owner’s phone').check()
    await reveal.getByRole('button', { name: 'Reveal' }).click()
    await thread.locator('[data-message="REVEAL"]').filter({ hasText: `Owner’s phone: ${OWNER_PHONE}` }).waitFor()
    // Only the field chosen.
    expect(await thread.getByText('Dealtest Towers').count()).toBe(0)
    expect(await problems(w.page, 'deal thread @1440')).toEqual([])

    const close = thread.locator('[data-deal-close]')
    await close.getByRole('button', { name: 'Closed lost…' }).click()
    await close.getByRole('button', { name: 'Confirm closed lost' }).click()
    await close.getByText('Say why the deal was lost').waitFor()
    await close.getByLabel('Why was it lost?').fill('The owner sold to a relative')
    await close.getByRole('button', { name: 'Confirm closed lost' }).click()
    await thread.locator('[data-waiting]').waitFor()
    expect(await thread.locator('[data-waiting]').textContent()).toBe('You confirmed closed lost; waiting for Asha Verma to confirm.')
    await done(w)

    // Asha says it was won: disputed, shown to both.
    const a = await open(asha, `/dashboard/deals/${await dealId()}`, PHONE)
    const hers = a.page.locator('[data-deal-thread]')
    expect(await hers.locator('[data-asked]').textContent()).toBe('Ravi Kumar confirmed closed lost: confirm it too to close the deal.')
    await hers.getByRole('button', { name: 'Confirm closed won' }).click()
    await hers.locator('[data-disputed]').waitFor()
    expect(await hers.locator('[data-disputed]').textContent()).toContain('Disputed: Ravi Kumar confirmed lost, Asha Verma confirmed won')
    expect(await hers.locator('[data-stage-badge]').textContent()).toBe('Disputed')
    expect(await problems(a.page, 'disputed deal @390')).toEqual([])
    expect((await dealOf(ravi)).stage).toBe('DISPUTED')
    await done(a)
  })

  test('a deal of others is not found; the Deals page lists this one as disputed', async () => {
    const w = await open(tara, `/dashboard/deals/${await dealId()}`)
    await w.page.locator('[data-deal-missing]').waitFor()
    expect(await w.page.getByText(OWNER_PHONE).count()).toBe(0)
    await done(w)
    const list = await open(ravi, '/dashboard/deals')
    const row = list.page.locator(`[data-deal="${await dealId()}"]`)
    expect(await row.getAttribute('data-stage')).toBe('DISPUTED')
    expect((await row.innerText()).replace(/\s+/g, ' ')).toContain('Deal with Asha Verma')
    await done(list)
  })
})

describe('reporting a listing', () => {
  const reportsOf = (id: number) => world.send<{ reports: { reason: string; note: string | null; created_at: string; reporter_name: string | null }[] }>(ravi, 'GET', `/api/listings/${id}/reports`)

  for (const [size, viewport, reporter, reason, label] of [
    // The reporters are read when the test runs (they are signed in by beforeAll, after this list is made).
    ['390', PHONE, () => tara, 'SOLD_OR_RENTED', 'Already sold or rented'],
    ['1440', DESKTOP, () => asha, 'FAKE', 'Fake listing'],
  ] as const)
    test(`at ${size} px: from the details sheet, a reason is required; sent once, a second report is refused in the dialog`, async () => {
      const w = await open(reporter(), `/dashboard/listings?search=${offered2.entry_id}`, viewport)
      if (viewport === PHONE) await w.page.locator(`[data-listing-card="${offered2.entry_id}"]`).click()
      else await w.page.locator(`tr[data-entry-id="${offered2.entry_id}"] td`).first().click()
      const details = w.page.locator(`dialog[open] [data-listing-details="${offered2.entry_id}"]`)
      await details.waitFor()
      await details.getByRole('button', { name: 'Report listing' }).click()
      const form = openDialog(w.page).locator(`[data-report-form="${offered2.entry_id}"]`)
      await form.waitFor()
      expect(await problems(w.page, `report dialog @${size}`, 'dialog[open]')).toEqual([])
      if (viewport === PHONE) expect(await smallTargets(w.page, `dialog[open] [data-report-form] ${FIELDS}`)).toEqual([])
      await form.getByRole('button', { name: 'Send report' }).click()
      await form.getByText('Choose what is wrong').waitFor()
      await form.getByLabel(label).check()
      await form.getByLabel('Note (optional)').fill(`note from ${size}`)
      await form.getByRole('button', { name: 'Send report' }).click()
      await toast(w.page, 'Report sent')
      expect((await reportsOf(offered2.id)).reports).toContainEqual({ reason, note: `note from ${size}`, created_at: expect.any(String), reporter_name: null })

      // Again: refused by the server, said in the dialog.
      if (viewport === PHONE) await w.page.locator(`[data-listing-card="${offered2.entry_id}"]`).click()
      else await w.page.locator(`tr[data-entry-id="${offered2.entry_id}"] td`).first().click()
      await details.getByRole('button', { name: 'Report listing' }).click()
      await form.getByLabel(label).check()
      await form.getByRole('button', { name: 'Send report' }).click()
      expect(await form.getByRole('alert').textContent()).toMatch(/already/i)
      expect((await reportsOf(offered2.id)).reports.filter((r) => r.reason === reason)).toHaveLength(1)
      await done(w)
    })
})

describe('answering reports (the listing’s broker) and the reporters (the city’s admin)', () => {
  let neel: SignedIn // a fourth broker: three reporters are needed
  let n = 0
  /** Ravi's new listing, reported by three brokers (two say sold, one fake, with a note): off the network. */
  async function reportedOff() {
    neel ??= await world.signIn('BROKER', { cityId: mumbai, fullName: 'Neel Shah' })
    const l = await world.send<Listed>(ravi, 'POST', '/api/listings', { ...common, post_type: 'AVL', property_type: `Reported flat ${++n}`, budget: 40_000, contact_value: '+91 98765 43210' })
    await world.send(asha, 'POST', `/api/listings/${l.id}/reports`, { reason: 'SOLD_OR_RENTED' })
    await world.send(tara, 'POST', `/api/listings/${l.id}/reports`, { reason: 'SOLD_OR_RENTED' })
    expect(await world.send(neel, 'POST', `/api/listings/${l.id}/reports`, { reason: 'FAKE', note: 'No such building' })).toEqual({ reported_by: 3, off_network: true })
    expect((await world.api(asha, 'GET', `/api/listings/${l.id}`)).status).toBe(404)
    return l
  }
  const statusOf = async (l: Listed) => (await world.send<Listed>(ravi, 'GET', `/api/listings/${l.id}`)).status

  test('at 390 px: the card says it is off the network with the reasons counted; Still available in one tap; Close it from the details, after a confirmation', async () => {
    const back = await reportedOff()
    const gone = await reportedOff()
    const w = await open(ravi, '/dashboard/my-listings', PHONE)
    const card = w.page.locator(`[data-listing-card="${back.entry_id}"]`)
    await card.locator('[data-report-reasons]').waitFor()
    expect(await card.locator('[data-reported-off] .badge').textContent()).toBe('Off the network: reported')
    expect(await card.locator('[data-report-reasons]').textContent()).toBe('Sold or rented ×2 · Fake ×1')
    expect(await problems(w.page, 'my listings with a reported listing @390')).toEqual([])
    expect(await smallControls(w.page, `[data-listing-card="${back.entry_id}"] [data-card-footer]`)).toEqual([])
    await card.getByRole('button', { name: 'Still available' }).click()
    await toast(w.page, `${back.entry_id} is back on the network`)
    expect(await statusOf(back)).toBe('ACTIVE')
    expect((await world.api(asha, 'GET', `/api/listings/${back.id}`)).status).toBe(200)
    await card.locator('[data-reported-off]').waitFor({ state: 'detached' })

    // The details: the notice counts each reason and quotes the notes; Close it asks first.
    await w.page.locator(`[data-listing-card="${gone.entry_id}"]`).click()
    const details = w.page.locator(`dialog[open] [data-listing-details="${gone.entry_id}"]`)
    const notice = details.locator('[data-reported-notice]')
    await notice.locator('[data-report-reasons]').waitFor()
    expect(await notice.locator('[data-report-reasons] li').allTextContents()).toEqual(['Sold or rented: 2', 'Fake: 1'])
    expect(await notice.textContent()).toContain('reported by 3 brokers')
    expect(await notice.textContent()).toContain('“No such building”')
    expect(await problems(w.page, 'reported listing details @390', 'dialog[open]')).toEqual([])
    expect(await smallControls(w.page, 'dialog[open] .modal-action :is([data-still-available], [data-close-reported])')).toEqual([]) // the frame's own buttons are the shared Modal's
    await details.getByRole('button', { name: 'Close it' }).click()
    const confirm = openDialog(w.page).filter({ hasText: 'Close this listing?' })
    await confirm.waitFor()
    expect(await problems(w.page, 'close confirmation @390', 'dialog[open]')).toEqual([])
    expect(await statusOf(gone)).toBe('SUSPENDED') // nothing happens before the confirmation
    await confirm.getByRole('button', { name: 'Close it' }).click()
    await toast(w.page, `${gone.entry_id} closed`)
    expect(await statusOf(gone)).toBe('CLOSED')
    await done(w)
  })

  test('at 1440 px: the row’s status names the reasons; its menu answers (Close it can be cancelled); the details say so too', async () => {
    const l = await reportedOff()
    const w = await open(ravi, '/dashboard/my-listings')
    const row = w.page.locator(`tr[data-entry-id="${l.entry_id}"]`)
    await row.locator('[data-report-reasons]').waitFor()
    expect(await row.locator('[data-report-reasons]').textContent()).toBe('Sold or rented ×2 · Fake ×1')
    expect(await problems(w.page, 'my listings with a reported listing @1440')).toEqual([])
    await row.getByRole('button', { name: `Actions for ${l.entry_id}` }).click()
    const menu = w.page.getByRole('menu', { name: `Actions for ${l.entry_id}` })
    await menu.waitFor()
    expect(await menu.getByRole('menuitem', { name: 'Reactivate' }).count()).toBe(0) // a PATCH of its status is refused meanwhile
    await menu.getByRole('menuitem', { name: 'Close it' }).click()
    const confirm = openDialog(w.page).filter({ hasText: 'Close this listing?' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'hidden' })
    expect(await statusOf(l)).toBe('SUSPENDED')

    await row.locator('td').nth(1).click()
    const details = w.page.locator(`dialog[open] [data-listing-details="${l.entry_id}"]`)
    await details.locator('[data-reported-notice] [data-report-reasons]').waitFor()
    expect(await problems(w.page, 'reported listing details @1440', 'dialog[open]')).toEqual([])
    await details.getByRole('button', { name: 'Still available' }).click()
    await toast(w.page, `${l.entry_id} is back on the network`)
    expect(await statusOf(l)).toBe('ACTIVE')
    await row.locator('[data-reported-off]').waitFor({ state: 'detached' })
    await done(w)
  })

  for (const [size, viewport] of [
    ['1440', DESKTOP],
    ['390', PHONE],
  ] as const)
    test(`at ${size} px: the city’s admin sees the brokers whose reports were answered still available`, async () => {
      const admin = await world.signIn('MODULE_ADMIN', { cityId: mumbai, fullName: `Mumbai Admin ${size}` })
      const expected = (await world.send<{ full_name: string; reports: number; answered_still_available: number }[]>(admin, 'GET', '/api/listing-reports/reporters')).filter((r) => ['Asha Verma', 'Tara Singh', 'Neel Shah'].includes(r.full_name))
      expect(expected.length).toBe(3)
      const w = await open(admin, '/dashboard/listings', viewport)
      await w.page.getByRole('button', { name: 'Reports answered “still available”' }).click()
      const dialog = openDialog(w.page)
      await dialog.locator('[data-reporter="Neel Shah"]').first().waitFor()
      for (const r of expected) {
        const row = dialog.locator(`[data-reporter="${r.full_name}"]`).first()
        expect(await row.locator('[data-still-available-count]').textContent()).toBe(String(r.answered_still_available))
        expect(await row.getByRole('link', { name: r.full_name }).getAttribute('href')).toMatch(/^\/dashboard\/profile\/\d+$/)
      }
      expect(expected.every((r) => r.answered_still_available >= 2)).toBe(true) // two listings answered so by now
      expect(await problems(w.page, `reporters dialog @${size}`, 'dialog[open]')).toEqual([])
      if (viewport === PHONE) expect(await smallControls(w.page, 'dialog[open] [data-reporters]')).toEqual([])
      await done(w)
    })
})

describe('the Matches tab of a listing’s details', () => {
  for (const [size, viewport] of [
    ['1440', DESKTOP],
    ['390', PHONE],
  ] as const)
    test(`at ${size} px: each counterpart has “I have a client for this”, naming my listing whose matches these are`, async () => {
      // A fresh pair: the listings of the tests above may have moved on (a deal closed, a request sent).
      const wanted = await world.send<Listed>(asha, 'POST', '/api/listings', { ...common, post_type: 'REQ', property_type: '2 BHK', budget: 47_000, size: 560, contact_value: '+91 98200 12345', confirm_duplicate: true })
      const offered = await world.send<Listed>(ravi, 'POST', '/api/listings', { ...common, post_type: 'AVL', property_type: '2 BHK Apartment', budget: 46_000, size: 580, contact_value: '+91 98765 43210', confirm_duplicate: true })
      const w = await open(asha, '/dashboard/my-listings', viewport)
      if (viewport === PHONE) await w.page.locator(`[data-listing-card="${wanted.entry_id}"]`).click()
      else await w.page.locator(`tr[data-entry-id="${wanted.entry_id}"] td`).nth(1).click()
      const details = w.page.locator(`dialog[open] [data-listing-details="${wanted.entry_id}"]`)
      await details.getByRole('tab', { name: 'Matches' }).click()
      const match = details.locator(`[data-match="${offered.entry_id}"]`)
      const button = match.getByRole('button', { name: `I have a client for this: ${offered.entry_id}` })
      await button.waitFor()
      expect(await problems(w.page, `matches tab @${size}`, 'dialog[open]')).toEqual([])
      if (viewport === PHONE) expect(await smallControls(w.page, `dialog[open] [data-match="${offered.entry_id}"]`)).toEqual([])
      await button.click()
      const form = w.page.locator(`dialog[open] [data-cobroke-form="${offered.entry_id}"]`)
      await form.waitFor()
      await form.locator(`option[value="${wanted.id}"]`).waitFor({ state: 'attached' })
      expect(await form.getByLabel('Your requirement for it').inputValue()).toBe(String(wanted.id))
      expect(await problems(w.page, `request from the matches tab @${size}`, 'dialog[open]:has([data-cobroke-form])')).toEqual([])
      await done(w)
    })
})

describe('two brokers, two browsers: from a match to a close both confirm, each step live on the other’s screen', () => {
  test('Kiran asks from his match; Dev sees it, accepts; messages, a site visit, a reveal, the stage and both confirmations reach each other live', async () => {
    const pune = await world.cityId('Pune')
    const kiran = await world.signIn('BROKER', { cityId: pune, fullName: 'Kiran Rao' })
    const dev = await world.signIn('BROKER', { cityId: pune, fullName: 'Dev Shah' })
    const place = { sale_or_rent: 'SALE', location: 'East', locality: 'Kharadi' }
    const req = await world.send<Listed>(kiran, 'POST', '/api/listings', { ...place, post_type: 'REQ', property_type: '3 BHK', budget: 15_000_000, size: 1200, contact_value: '+91 98111 22222' })
    const avl = await world.send<Listed>(dev, 'POST', '/api/listings', {
      ...place,
      post_type: 'AVL',
      property_type: '3 BHK Flat',
      budget: 14_500_000,
      size: 1300,
      contact_value: '+91 98333 44444',
      private: { owner_phone: '+91 90000 77777' },
    })
    const ms: Record<string, number> = {}
    /** Waits for `what` on the other broker's page and notes how long it took from `since`. */
    const seen = async (name: string, what: Locator, since: number) => {
      await what.waitFor()
      ms[name] = Date.now() - since
    }

    // Dev's Deals page is open, listening, before Kiran asks.
    const d = await world.open(dev, '/dashboard/deals', { viewport: PHONE, streaming: true })
    const k = await world.open(kiran, '/dashboard/matches', { viewport: DESKTOP, streaming: true })
    const match = k.page.locator(`[data-match="${avl.entry_id}"]`)
    await match.getByRole('button', { name: `I have a client for this: ${avl.entry_id}` }).click()
    const form = openDialog(k.page).locator(`[data-cobroke-form="${avl.entry_id}"]`)
    await form.waitFor()
    // The match names Kiran's own requirement.
    expect(await form.getByLabel('Your requirement for it').inputValue()).toBe(String(req.id))
    await form.getByLabel('Message').fill('A family of four, ready to buy.')
    let t = Date.now()
    await form.getByRole('button', { name: 'Send request' }).click()
    const incoming = d.page.locator('[data-requests="in"] [data-request]').filter({ hasText: avl.entry_id })
    await seen('request → listing broker', incoming, t)
    expect(await incoming.innerText()).toContain('“A family of four, ready to buy.”')

    // Kiran watches his Deals page; Dev accepts.
    const stream = (p: Page) => p.waitForResponse((r) => new URL(r.url()).pathname === '/api/events')
    const kStream = stream(k.page)
    await k.page.goto(world.url + '/dashboard/deals')
    await kStream
    const dStream = stream(d.page)
    t = Date.now()
    await incoming.getByRole('button', { name: 'Accept' }).click()
    const dealLink = k.page.locator('[data-deals] [data-deal]').filter({ hasText: 'Deal with Dev Shah' })
    await seen('accept → requester', dealLink, t)
    await d.page.waitForURL(/\/dashboard\/deals\/\d+$/)
    const dealId = Number(d.page.url().split('/').pop())
    const kThreadStream = stream(k.page)
    await dealLink.click()
    await k.page.waitForURL(`**/dashboard/deals/${dealId}`)
    const kt = k.page.locator('[data-deal-thread]')
    const dt = d.page.locator('[data-deal-thread]')
    // Both threads' streams are answered (the server subscribes before it answers): no step after this is missed.
    await Promise.all([kThreadStream, dStream, hydrated(k.page), hydrated(d.page)])

    t = Date.now()
    await kt.getByLabel('Message to Dev Shah').fill('Can we see it on Sunday?')
    await kt.getByRole('button', { name: 'Send' }).click()
    await seen('message → other broker', dt.locator('[data-message="MESSAGE"]').filter({ hasText: 'Can we see it on Sunday?' }), t)

    await dt.getByRole('button', { name: 'Site visit' }).click()
    await dt.getByLabel('Site visit: date and time').fill('2031-06-01T10:00')
    t = Date.now()
    await dt.getByRole('button', { name: 'Set site visit' }).click()
    await seen('site visit → other broker', kt.locator('[data-stage-badge]').filter({ hasText: 'Site visit' }), t)
    expect(await kt.locator('[data-visit] time').getAttribute('datetime')).toBe(await dt.locator('[data-visit] time').getAttribute('datetime'))

    await dt.locator('[data-deal-reveal]').getByLabel('Owner’s phone').check()
    t = Date.now()
    await dt.locator('[data-deal-reveal]').getByRole('button', { name: 'Reveal' }).click()
    await seen('reveal → other broker', kt.locator('[data-message="REVEAL"]').filter({ hasText: '+91 90000 77777' }), t)

    t = Date.now()
    await kt.getByRole('button', { name: 'Negotiating' }).click()
    await seen('stage → other broker', dt.locator('[data-stage-badge]').filter({ hasText: 'Negotiating' }), t)

    t = Date.now()
    await kt.getByRole('button', { name: 'Confirm closed won' }).click()
    await seen('first confirmation → other broker', dt.locator('[data-asked]').filter({ hasText: 'Kiran Rao confirmed closed won' }), t)
    t = Date.now()
    await dt.getByRole('button', { name: 'Confirm closed won' }).click()
    await seen('close → other broker', kt.locator('[data-stage-badge]').filter({ hasText: 'Closed won' }), t)
    expect(await kt.locator('[data-deal-close]').count()).toBe(0)

    // Both confirmed: closed won, and each sale listing closed in its broker's name.
    const deal = await world.send<Deal>(kiran, 'GET', `/api/deals/${dealId}`)
    expect(deal).toMatchObject({ stage: 'CLOSED_WON', owner_outcome: 'WON', requester_outcome: 'WON', split: { kind: 'PERCENT', requester_percent: 50 } })
    expect((await world.send<Listed>(dev, 'GET', `/api/listings/${avl.id}`)).status).toBe('CLOSED')
    expect((await world.send<Listed>(kiran, 'GET', `/api/listings/${req.id}`)).status).toBe('CLOSED')
    console.info('[deals] step → other broker’s screen (ms):', JSON.stringify(ms))
    await done(k)
    await done(d)
  })
})
