import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { problems } from '../support/axe'
import { startDemo, type Demo } from '../support/demo'

// Issue 30, "Import a chat export", in a real Chromium against the real server with the demo network: a Mumbai
// broker's WhatsApp export (their own number among the senders) read into drafts with the day posted, a message posted
// three times as one draft, the other senders invited, the drafts selected all and posted; a chat where the broker
// appears by name, where they choose themselves; a file that is no export. At 390 and 1440 px, with axe.

setDefaultTimeout(120_000)

const PHONE = { width: 390, height: 844 }
const LAPTOP = { width: 1440, height: 900 }

let demo: Demo
let token: string
let brokerPhone: string

beforeAll(async () => {
  demo = await startDemo()
  const broker = await demo.signIn('priya.mehta@brokernet.example')
  token = broker.token
  brokerPhone = broker.user.phone!
  expect(brokerPhone).toStartWith('+91')
})
afterAll(() => demo?.stop())

type Mine = { entry_id: string; property_type: string; details: string | null }
const myListings = async (): Promise<Mine[]> => (await fetch(`${demo.server.url}/api/listings/my`, { headers: { authorization: `Bearer ${token}` } })).json()
const open = (path: string, viewport: { width: number; height: number }) => demo.open(token, path, viewport, { ignore: /status of (409|422)\b/ })

/** An Android export (`17/06/2025, 10:15 am - Sender: text`) of messages `ago` days back. */
function androidExport(lines: { ago: number; sender: string; text: string }[]): string {
  const two = (n: number) => String(n).padStart(2, '0')
  return lines
    .map((l) => {
      const d = new Date(Date.now() - l.ago * 86_400_000)
      return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}, 10:15 am - ${l.sender}: ${l.text}`
    })
    .join('\n')
}
const spaced = (phone: string) => phone.replace(/^\+91(\d{5})(\d{5})$/, '+91 $1 $2')
const RENT = 'Available for Rent\n\nPowai, Hiranandani\n\n2 BHK semi furnished\n\n55K\n\n950 sqft'
const WANTED = 'Wanted 3 BHK in Bandra West, budget 1.5 L per month, family'
const chat = (me: string) =>
  androidExport([
    { ago: 9, sender: me, text: RENT },
    { ago: 8, sender: '+91 99999 00071', text: 'Good morning all 🙏' },
    { ago: 6, sender: me, text: RENT },
    { ago: 5, sender: '+91 99999 00071', text: 'Req 1 BHK Andheri West rent 30k 9999900071' },
    { ago: 3, sender: 'Sunil Estate Agent', text: 'Shop for rent Malad West 300 sqft 60k' },
    { ago: 2, sender: me, text: WANTED },
    { ago: 1, sender: me, text: RENT },
  ])

async function chooseFile(page: Page, name: string, text: string | Buffer) {
  await page.getByLabel('Chat export file').setInputFiles({ name, mimeType: name.endsWith('.zip') ? 'application/zip' : 'text/plain', buffer: Buffer.isBuffer(text) ? text : Buffer.from(text) })
}

const cards = (page: Page) => page.locator('article[data-draft]')
const toast = (page: Page, text: string) => page.locator('[data-toast]').filter({ hasText: text })
const smallTargets = (page: Page) =>
  page.$$eval('[data-import] :is(button, a, input, select), [data-post-bar] :is(button, a)', (els) =>
    els
      .filter((el) => el.getClientRects().length > 0 && !el.closest('.sr-only'))
      .map((el) => {
        const r = el.getBoundingClientRect()
        return { what: `${el.tagName.toLowerCase()} ${el.textContent?.trim().slice(0, 30)}`, h: Math.round(r.height), w: Math.round(r.width) }
      })
      .filter((t) => t.h < 44 || t.w < 44),
  )

describe('Import a chat export (issue 30)', () => {
  test('at 390 px: the broker’s own messages become drafts with their day, one for a message posted three times; others are invited; all are posted', async () => {
    const { page, errors } = await open('/dashboard/paste', PHONE)
    expect(await problems(page, 'paste screen with the import at 390 px')).toEqual([])
    // The import's own rule: a file first.
    await page.getByRole('button', { name: 'Read export' }).click()
    await page.getByText('Choose the chat export file first.').waitFor()

    await chooseFile(page, 'WhatsApp Chat with Mumbai Brokers.txt', chat(spaced(brokerPhone)))
    // Held until the progress shows, so what is seen while a long file is sent and read is checked, not raced.
    let release: () => void = () => {}
    const held = new Promise<void>((r) => (release = r))
    await page.route('**/api/listings/import', async (route) => (await held, route.continue()))
    await page.getByRole('button', { name: 'Read export' }).click()
    await page.locator('[data-import-progress] progress').waitFor()
    release()
    await page.locator('[data-import-answer]').waitFor()
    await page.unroute('**/api/listings/import')

    expect(await page.locator('[data-import-summary]').innerText()).toMatch(/^7 messages in this chat, .+\. 4 messages of yours in the period: 2 drafts\.$/)
    await page.getByRole('heading', { name: '2 drafts to check' }).waitFor()
    expect(await cards(page).count()).toBe(2)
    const first = cards(page).first()
    expect(await first.locator('[data-times]').innerText()).toBe('posted 3 times')
    expect(await first.locator('[data-imported]').innerText()).toMatch(/^Posted \w{3} \d{1,2}, \d{4}/)
    expect(await first.getByLabel('Property Type').inputValue()).toBe('2 BHK Apartment')
    expect(await page.getByLabel('You in this chat').inputValue()).toBe(spaced(brokerPhone))
    const others = page.locator('[data-import-others] li')
    expect(await others.count()).toBe(2)
    const invite = others.first().getByRole('link', { name: /Invite on WhatsApp/ })
    expect(await invite.getAttribute('href')).toStartWith('https://wa.me/')
    expect(await problems(page, 'an export read into drafts at 390 px')).toEqual([])
    expect(await smallTargets(page)).toEqual([])

    await page.getByRole('button', { name: 'Select all' }).click()
    await page.getByText('2 drafts left · 2 selected').waitFor()
    await page.getByRole('button', { name: 'Post selected (2)' }).click()
    await toast(page, '2 listings posted').waitFor()
    const mine = await myListings()
    expect(mine.filter((l) => l.details === RENT || l.details === WANTED).map((l) => l.property_type).sort()).toEqual(['2 BHK Apartment', '3 BHK Apartment'])
    await page.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 20_000 })
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('at 1440 px: a chat that shows the broker by name asks who they are; a repeat says which listing it looks like; a file that is no export says so', async () => {
    const { page, errors } = await open('/dashboard/paste', LAPTOP)
    await chooseFile(page, 'WhatsApp Chat with Mumbai Brokers.txt', chat('Priya Mehta'))
    await page.getByRole('button', { name: 'Read export' }).click()
    await page.locator('[data-import-answer]').waitFor()
    await page.getByText('Your number was not found among the senders').waitFor()
    expect(await problems(page, 'an export whose sender is to be chosen at 1440 px')).toEqual([])
    await page.getByLabel('Which sender are you in this chat?').selectOption('Priya Mehta')
    await page.getByRole('button', { name: 'Read my messages' }).click()
    await page.getByRole('heading', { name: '2 drafts to check' }).waitFor()
    // Both were posted by the previous test: each says which of the broker's listings it looks like.
    const alike = page.locator('[data-alike]')
    await alike.first().waitFor()
    expect(await alike.count()).toBe(2)
    expect(await alike.first().innerText()).toMatch(/^Looks like (AVL|REQ)-MUM-\d+, one of your listings\.$/)
    expect(await problems(page, 'drafts that repeat listings at 1440 px')).toEqual([])

    await chooseFile(page, 'photo.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))
    await page.getByRole('button', { name: 'Read export' }).click()
    await page.getByRole('alert').filter({ hasText: 'This is not a WhatsApp chat export' }).waitFor()
    expect(await problems(page, 'a file that is no export at 1440 px')).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
