import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser, openPage } from '../support/browser'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('public site in a real browser', () => {
  test('the landing page renders with no script, no console error and nothing fetched off the host', async () => {
    const w = await openPage(browser, server.url)
    const scripts: string[] = []
    w.page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()))
    await w.page.goto(server.url + '/', { waitUntil: 'networkidle' })
    await expect(w.page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Broker Network')
    for (const claim of ['500+', '50+', '15+', '99%']) expect(await w.page.getByText(claim, { exact: true }).count()).toBe(1)
    expect(scripts).toEqual([])
    expect(w.consoleErrors).toEqual([])
    expect(w.offHostRequests).toEqual([])
    await w.page.context().close()
  })

  test('on a phone the menu toggles open and closed without reloading', async () => {
    const w = await openPage(browser, server.url, { width: 375, height: 740 })
    await w.page.goto(server.url + '/')
    const desktopLinks = w.page.locator('nav[aria-label="Main"] > div').first()
    expect(await desktopLinks.isVisible()).toBe(false)
    const aboutInMenu = w.page.locator('[data-mobile-menu] a[href="/about"]')
    expect(await aboutInMenu.isVisible()).toBe(false)
    await w.page.evaluate(() => ((window as unknown as { marker: number }).marker = 42))
    await w.page.getByLabel('Toggle menu').click()
    expect(await aboutInMenu.isVisible()).toBe(true)
    await w.page.getByLabel('Toggle menu').click()
    expect(await aboutInMenu.isVisible()).toBe(false)
    expect(await w.page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42) // same document: no reload
    await w.page.getByLabel('Toggle menu').click()
    await aboutInMenu.click()
    await w.page.waitForURL(server.url + '/about')
    expect(await w.page.getByRole('heading', { name: 'Contact Us' }).isVisible()).toBe(true)
    // Nothing overflows sideways on a 375 px screen.
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    expect(w.consoleErrors).toEqual([])
    await w.page.context().close()
  })

  test('an unknown path lands on /', async () => {
    const w = await openPage(browser, server.url)
    await w.page.goto(server.url + '/definitely/not/here')
    expect(new URL(w.page.url()).pathname).toBe('/')
    await w.page.context().close()
  })

  test('the login island hydrates: show/hide password and the server schema’s messages', async () => {
    const w = await openPage(browser, server.url)
    await w.page.goto(server.url + '/login')
    await w.page.waitForSelector('html[data-islands="hydrated"]')
    const password = w.page.locator('input[name="password"]')
    await password.fill('Secret123!')
    expect(await password.getAttribute('type')).toBe('password')
    await w.page.getByLabel('Show password').click()
    expect(await password.getAttribute('type')).toBe('text')
    await password.fill('')
    await w.page.getByRole('button', { name: 'Sign in' }).click()
    await w.page.getByText('Please enter a valid email address').waitFor()
    await w.page.getByText('Password is required').waitFor()
    expect(w.consoleErrors).toEqual([])
    expect(w.offHostRequests).toEqual([])
    await w.page.context().close()
  })

  test('Swagger UI lists the API routes using only assets from this host', async () => {
    const w = await openPage(browser, server.url)
    await w.page.goto(server.url + '/swagger', { waitUntil: 'networkidle' })
    await w.page.locator('.opblock-summary-path', { hasText: '/api/health' }).first().waitFor()
    expect(await w.page.getByText('Brokernet API').first().isVisible()).toBe(true)
    expect(w.offHostRequests).toEqual([])
    expect(w.consoleErrors).toEqual([])
    await w.page.context().close()
  })
})
