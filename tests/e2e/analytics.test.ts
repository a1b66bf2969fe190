import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import type { Page, Request as PwRequest } from 'playwright-core'
import type { TopBrokers, Trends } from '../../src/modules/analytics/model'
import type { DashboardStats } from '../../src/modules/listings/model'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import type { SignedIn } from '../support/auth'
import { hydrated, openDialog, type WatchedPage } from '../support/browser'
import { startWorld, type World } from '../support/world'

// The analytics screen (SPEC "Analytics & Reports") in a real Chromium against the real server with the demo data.
let world: World
let master: SignedIn
let moduleAdmin: SignedIn

beforeAll(async () => {
  world = await startWorld({ demo: true })
  master = await world.signIn('MASTER_ADMIN', { fullName: 'Maya Master', cityId: null })
  moduleAdmin = await world.signIn('MODULE_ADMIN', { fullName: 'Meera Iyer', cityId: await world.cityId('Mumbai') })
})
afterAll(() => world?.stop())

async function api<T>(who: SignedIn, path: string): Promise<T> {
  const res = await world.api(who, 'GET', path)
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

const fmt = (n: number) => n.toLocaleString('en-US')
const chart = (page: Page) => page.locator('[data-trends-chart]')
const dialog = openDialog
const period = (page: Page) => page.getByRole('combobox', { name: 'Period' })
const isTrends = (r: PwRequest) => new URL(r.url()).pathname === '/api/analytics/trends'
const analyticsRequests = (page: Page) => {
  const seen: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/analytics/')) seen.push(new URL(r.url()).pathname + new URL(r.url()).search)
  })
  return seen
}
/** Browsers log refused answers ("status of 500"): where a test asks for them, they are not faults. */
const realErrors = (w: WatchedPage, expected?: RegExp) => w.consoleErrors.filter((e) => !expected?.test(e))

async function openAs(who: SignedIn, viewport?: { width: number; height: number }) {
  const w = await world.page(who, { viewport })
  const requests = analyticsRequests(w.page)
  await w.page.goto(world.url + '/dashboard/analytics')
  await hydrated(w.page)
  // The chart mounts on hydration (or the period is empty).
  await w.page.locator('[data-trends-chart] canvas, [data-trends-empty]').first().waitFor()
  return { ...w, requests }
}

async function done(w: WatchedPage, expectedErrors?: RegExp) {
  expect(realErrors(w, expectedErrors)).toEqual([])
  expect(w.offHostRequests).toEqual([])
  await w.page.context().close()
}

/** Picks a period and waits for its answer (when asked for) and for the chart to show its days. */
async function choosePeriod(page: Page, days: number, fetches = true) {
  const answer = fetches ? page.waitForResponse((r) => isTrends(r.request()) && new URL(r.url()).searchParams.get('days') === String(days)) : null
  await period(page).selectOption(String(days))
  if (answer) {
    const body = (await (await answer).json()) as Trends
    expect(body.period_days).toBe(days)
    expect(Object.keys(body.daily_stats)).toHaveLength(days)
  }
  await page.locator(`[data-trends-chart][data-points="${days}"]`).waitFor()
}

async function openPicker(page: Page) {
  await page.getByRole('button', { name: 'Custom Range' }).click()
  await dialog(page).getByRole('heading', { name: 'Custom Date Range' }).waitFor()
  const start = dialog(page).getByLabel('Start Date')
  const end = dialog(page).getByLabel('End Date')
  return { start, end, today: (await end.getAttribute('max'))!, min: (await start.getAttribute('min'))! }
}

const CARDS = [
  ['total_requirements', 'Requirements'],
  ['total_availabilities', 'Availabilities'],
  ['active_brokers', 'Active Brokers'],
  ['new_posts_today', 'New Today'],
] as const

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

describe('a master admin', () => {
  test('the first view is complete in the server HTML: subtitle, cards, pie, top brokers, the chart box; no inline style', async () => {
    const [stats, top] = await Promise.all([api<DashboardStats>(master, '/api/analytics/dashboard'), api<TopBrokers>(master, '/api/analytics/top-brokers?limit=10')])
    const res = await fetch(world.url + '/dashboard/analytics', { headers: { cookie: `${SESSION_COOKIE}=${master.token}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("style-src 'self'")
    const html = await res.text()
    expect(html).toContain('Analytics &amp; Reports')
    expect(html).toContain('Global analytics across all cities')
    for (const [key, label] of CARDS) expect(html).toMatch(new RegExp(`data-stat="${key}"><div[^>]*><h2[^>]*>(?:<svg.*?</svg>)?${label}</h2><p[^>]*>${fmt(stats[key])}</p>`))
    expect(html).toContain('data-distribution')
    expect(html).toMatch(/<div class="h-80 w-full[^"]*" data-trends-chart="[^"]*" data-points="30"/)
    expect(top.top_brokers.length).toBeGreaterThan(0)
    for (const b of top.top_brokers) expect(html).toContain(b.email)
    expect(html).toContain(`${fmt(top.top_brokers[0]!.listing_count)} listings`)
    // style-src 'self' refuses style="" attributes: the server writes none (uPlot styles through the CSSOM, which is allowed).
    expect(html).not.toMatch(/<[^>]+\sstyle=/)
  })

  test('the page loads with the cards, the pie and the chart canvas, asking nothing more of the server', async () => {
    const w = await openAs(master)
    const { page } = w
    const stats = await api<DashboardStats>(master, '/api/analytics/dashboard')
    for (const [key, label] of CARDS) {
      const card = page.locator(`[data-stat="${key}"]`)
      expect(await card.locator('h2').textContent()).toBe(label)
      expect(await card.locator('p').textContent()).toBe(fmt(stats[key]))
    }
    expect(await chart(page).getAttribute('data-points')).toBe('30')
    // The legend names both lines; the canvas fills the box.
    expect(await chart(page).locator('.u-legend').textContent()).toContain('Requirements')
    expect(await chart(page).locator('.u-legend').textContent()).toContain('Availabilities')
    const box = (await chart(page).boundingBox())!
    const canvas = (await chart(page).locator('canvas').first().boundingBox())!
    expect(box.height).toBe(320)
    expect(Math.abs(canvas.width - box.width)).toBeLessThanOrEqual(1)
    const pieLabel = await page.locator('svg[data-distribution]').getAttribute('aria-label')
    const reqPercent = Math.round((stats.total_requirements / (stats.total_requirements + stats.total_availabilities)) * 100)
    expect(pieLabel).toContain(`Requirements ${reqPercent}%`)
    expect(await page.locator('[data-slice-label="requirements"]').textContent()).toBe(`${reqPercent}%`)
    expect(await page.getByRole('heading', { name: 'Top Brokers by Listings' }).count()).toBe(1)
    expect(w.requests).toEqual([])
    await done(w)
  })

  test("the legend shows the latest day's figures until the pointer is over the chart, then the hovered day's", async () => {
    const w = await openAs(master)
    const { page } = w
    const trends = await api<Trends>(master, '/api/analytics/trends?days=30')
    const days = Object.keys(trends.daily_stats).sort()
    const dayText = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
    const legend = async () => {
      const cells = chart(page).locator('.u-legend .u-series')
      return Promise.all([0, 1, 2].map(async (i) => [await cells.nth(i).locator('.u-label').textContent(), await cells.nth(i).locator('.u-value').textContent()]))
    }
    const latest = trends.daily_stats[days.at(-1)!]!
    const showsLatest = [
      ['Latest', dayText(days.at(-1)!)],
      ['Requirements', fmt(latest.requirements)],
      ['Availabilities', fmt(latest.availabilities)],
    ]
    // Never a row of dashes: before any pointer, the period's last day.
    expect(await legend()).toEqual(showsLatest)
    expect(await chart(page).locator('.u-legend').textContent()).not.toContain('–')

    // Over the chart: the day under the pointer (a day in the period), named 'Date'.
    const over = (await chart(page).locator('.u-over').boundingBox())!
    await page.mouse.move(over.x + over.width * 0.3, over.y + over.height / 2)
    await page.waitForFunction(() => document.querySelector('[data-trends-chart] .u-legend .u-series .u-label')?.textContent === 'Date')
    const [date, req, avl] = await legend()
    const hovered = days.find((d) => dayText(d) === date![1])
    expect(hovered).toBeDefined()
    expect(hovered).not.toBe(days.at(-1))
    expect([req, avl]).toEqual([
      ['Requirements', fmt(trends.daily_stats[hovered!]!.requirements)],
      ['Availabilities', fmt(trends.daily_stats[hovered!]!.availabilities)],
    ])

    // Away from the chart: back to the latest day.
    await page.mouse.move(5, 5)
    await page.waitForFunction(() => document.querySelector('[data-trends-chart] .u-legend .u-series .u-label')?.textContent === 'Latest')
    expect(await legend()).toEqual(showsLatest)
    await done(w)
  })

  test('each period asks for its days and the chart shows that many points; 30 comes back from the cache', async () => {
    const w = await openAs(master)
    const { page } = w
    for (const days of [7, 90, 180, 365]) await choosePeriod(page, days)
    await choosePeriod(page, 30, false)
    expect(w.requests.filter((r) => r.startsWith('/api/analytics/trends'))).toEqual([7, 90, 180, 365].map((d) => `/api/analytics/trends?days=${d}`))
    // Sorted by date: the chart runs from the period's first day to today.
    const trends = await api<Trends>(master, '/api/analytics/trends?days=30')
    expect(await chart(page).getAttribute('data-first-day')).toBe(trends.start_date)
    expect(await chart(page).getAttribute('data-last-day')).toBe(trends.end_date)
    await done(w)
  })

  test('Refresh reloads all three and is disabled while they load', async () => {
    const w = await openAs(master)
    const { page } = w
    const refresh = page.getByRole('button', { name: 'Refresh' })
    // The answers are held until the button has been seen disabled (a fixed delay let a loaded machine answer first).
    const seen = Promise.withResolvers<void>()
    await page.route('**/api/analytics/**', async (route) => (await seen.promise, route.continue()))
    await refresh.click()
    await refresh.and(page.locator(':disabled')).waitFor()
    seen.resolve()
    await page.locator('[data-analytics]:not([data-fetching])').waitFor()
    expect(await refresh.isDisabled()).toBe(false)
    expect([...w.requests].sort()).toEqual(['/api/analytics/dashboard', '/api/analytics/top-brokers?limit=10', '/api/analytics/trends?days=30'])
    await done(w)
  })

  test('a custom range: one date fills the other, Apply shows those days and puts the period back to 30; Clear and a preset undo it', async () => {
    const w = await openAs(master)
    const { page } = w
    await choosePeriod(page, 7)
    let picker = await openPicker(page)
    expect(picker.min).toBe(addDays(picker.today, -365))
    const start = addDays(picker.today, -9)
    await picker.start.fill(start)
    // Picking one date fills the empty other with the same day; the end cannot be before the start.
    expect(await picker.end.inputValue()).toBe(start)
    expect(await picker.end.getAttribute('min')).toBe(start)
    await picker.end.fill(picker.today)
    const answer = page.waitForResponse((r) => isTrends(r.request()) && new URL(r.url()).searchParams.has('start_date'))
    await dialog(page).getByRole('button', { name: 'Apply' }).click()
    const url = new URL((await answer).url())
    expect(Object.fromEntries(url.searchParams)).toEqual({ days: '30', start_date: start, end_date: picker.today })
    await page.locator('[data-trends-chart][data-points="10"]').waitFor()
    expect(await dialog(page).count()).toBe(0)
    expect(await page.locator('[data-custom-range]').getAttribute('data-custom-range')).toBe(`${start}..${picker.today}`)
    expect(await page.locator('[data-custom-range]').textContent()).toContain('(10 days)')
    expect(await period(page).inputValue()).toBe('custom')

    // Reopened, the picker shows the range; Clear removes it and the period is the 30 days set by Apply.
    picker = await openPicker(page)
    expect(await picker.start.inputValue()).toBe(start)
    await dialog(page).getByRole('button', { name: 'Clear' }).click()
    await page.locator('[data-trends-chart][data-points="30"]').waitFor()
    expect(await page.locator('[data-custom-range]').count()).toBe(0)
    expect(await period(page).inputValue()).toBe('30')

    // Apply with both dates emptied clears the range too.
    picker = await openPicker(page)
    await picker.start.fill(addDays(picker.today, -2))
    await picker.end.fill(picker.today)
    await dialog(page).getByRole('button', { name: 'Apply' }).click()
    await page.locator('[data-trends-chart][data-points="3"]').waitFor()
    picker = await openPicker(page)
    await picker.start.fill('')
    await picker.end.fill('')
    await dialog(page).getByRole('button', { name: 'Apply' }).click()
    await page.locator('[data-trends-chart][data-points="30"]').waitFor()
    expect(await page.locator('[data-custom-range]').count()).toBe(0)

    // A preset clears a custom range.
    picker = await openPicker(page)
    await picker.start.fill(addDays(picker.today, -4))
    expect(await picker.end.inputValue()).toBe(addDays(picker.today, -4))
    await picker.end.fill(picker.today)
    await dialog(page).getByRole('button', { name: 'Apply' }).click()
    await page.locator('[data-trends-chart][data-points="5"]').waitFor()
    await choosePeriod(page, 90)
    expect(await page.locator('[data-custom-range]').count()).toBe(0)
    await done(w)
  })

  test('an invalid range is refused in the dialog with SPEC’s sentences, and asks nothing of the server', async () => {
    const w = await openAs(master)
    const { page } = w
    const picker = await openPicker(page)
    await picker.end.fill(addDays(picker.today, -5))
    await picker.start.fill(addDays(picker.today, -2))
    await dialog(page).getByRole('button', { name: 'Apply' }).click()
    expect(await dialog(page).getByRole('alert').textContent()).toBe('Start date must be before or equal to end date')
    // 366 days, both ends included: one more than the server accepts.
    await picker.start.fill(picker.min)
    await picker.end.fill(picker.today)
    await dialog(page).getByRole('button', { name: 'Apply' }).click()
    expect(await dialog(page).getByRole('alert').textContent()).toBe('Date range cannot exceed 365 days')
    // Cancel leaves things as they were.
    await dialog(page).getByRole('button', { name: 'Cancel' }).click()
    expect(await dialog(page).count()).toBe(0)
    expect(await chart(page).getAttribute('data-points')).toBe('30')
    expect(w.requests).toEqual([])
    await done(w)
  })

  test('Export Report downloads analytics-report-{date}.json whose numbers are the API’s', async () => {
    const w = await openAs(master)
    const { page } = w
    await choosePeriod(page, 7)
    const download = page.waitForEvent('download')
    const before = Date.now()
    await page.getByRole('button', { name: 'Export Report' }).click()
    const file = await download
    const browserToday = await page.evaluate(() => new Intl.DateTimeFormat('en-CA').format(new Date()))
    expect(file.suggestedFilename()).toBe(`analytics-report-${browserToday}.json`)
    const report = JSON.parse(readFileSync((await file.path())!, 'utf8'))
    const [stats, trends, top] = await Promise.all([
      api<DashboardStats>(master, '/api/analytics/dashboard'),
      api<Trends>(master, '/api/analytics/trends?days=7'),
      api<TopBrokers>(master, '/api/analytics/top-brokers?limit=10'),
    ])
    const total = Object.values(trends.daily_stats).reduce((s, d) => s + d.total, 0)
    expect(Date.parse(report.generated_at)).toBeGreaterThanOrEqual(before - 1000)
    expect(report).toEqual({
      generated_at: report.generated_at,
      period_days: 7,
      start_date: trends.start_date,
      end_date: trends.end_date,
      custom_range: false,
      scope: 'global',
      user: { name: 'Maya Master', role: 'MASTER_ADMIN', city: null },
      dashboard_stats: stats,
      trends_summary: { period_days: 7, total_listings: total, average_daily_listings: Math.round((total / 7) * 10) / 10 },
      top_brokers: top.top_brokers,
    })
    expect(total).toBeGreaterThan(0)
    expect(await page.getByRole('button', { name: 'Export Report' }).isEnabled()).toBe(true)
    await done(w)
  })

  test('a failed load shows the failure panel after 2 retries; Retry brings the screen back', async () => {
    const w = await openAs(master)
    const { page } = w
    let calls = 0
    await page.route('**/api/analytics/top-brokers*', (route) => (calls++, route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"boom"}' })))
    await page.getByRole('button', { name: 'Refresh' }).click()
    const panel = page.locator('[data-analytics-error]')
    await panel.waitFor({ timeout: 15_000 })
    expect(await panel.getByRole('heading').textContent()).toBe('Failed to Load Analytics')
    expect(await panel.textContent()).toContain('There was an error loading the analytics data. Please try again.')
    expect(calls).toBe(3)
    expect(await page.locator('[data-stat]').count()).toBe(0)
    await page.unroute('**/api/analytics/top-brokers*')
    await panel.getByRole('button', { name: 'Retry' }).click()
    await chart(page).locator('canvas').first().waitFor()
    expect(await page.locator('[data-stat]').count()).toBe(4)
    expect(await panel.count()).toBe(0)
    await done(w, /status of 500\b/)
  })

  test('on a phone the chart fits the screen and follows the window when it turns', async () => {
    const w = await openAs(master, { width: 390, height: 844 })
    const { page } = w
    const fits = async (width: number) => {
      await page.waitForFunction(
        (width) => {
          const box = document.querySelector('[data-trends-chart]')!.getBoundingClientRect()
          const canvas = document.querySelector('[data-trends-chart] canvas')!.getBoundingClientRect()
          return box.right <= width && Math.abs(canvas.width - box.width) <= 1 && document.documentElement.scrollWidth <= width
        },
        width,
      )
    }
    await fits(390)
    await page.setViewportSize({ width: 844, height: 390 })
    await fits(844)
    expect((await chart(page).boundingBox())!.height).toBe(320)
    await done(w)
  })
})

describe('a module admin', () => {
  test('sees their city named, its figures, and a report of their scope', async () => {
    const w = await openAs(moduleAdmin)
    const { page } = w
    expect(await page.locator('[data-analytics-scope]').textContent()).toBe('Analytics for Mumbai')
    const stats = await api<DashboardStats>(moduleAdmin, '/api/analytics/dashboard')
    expect(stats.scope).toBe('city')
    expect(await page.locator('[data-stat="total_requirements"] p').textContent()).toBe(fmt(stats.total_requirements))
    const top = await api<TopBrokers>(moduleAdmin, '/api/analytics/top-brokers?limit=10')
    expect(await page.locator('[data-top-brokers] li').count()).toBe(top.top_brokers.length)

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export Report' }).click()
    const report = JSON.parse(readFileSync((await (await download).path())!, 'utf8'))
    expect(report.scope).toBe('city')
    expect(report.user).toEqual({ name: 'Meera Iyer', role: 'MODULE_ADMIN', city: 'Mumbai' })
    expect(report.dashboard_stats).toEqual(stats)
    expect(report.top_brokers).toEqual(top.top_brokers)
    await done(w)
  })
})
