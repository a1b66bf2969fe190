import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startWorld, type World } from '../support/world'

let world: World

beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world?.stop())

describe('public site in a real browser', () => {
  test('the landing page renders with no script, no console error and nothing fetched off the host', async () => {
    const w = await world.page(null)
    const scripts: string[] = []
    w.page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()))
    await w.page.goto(world.url + '/', { waitUntil: 'networkidle' })
    await expect(w.page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Broker Network')
    for (const claim of ['500+', '50+', '15+', '99%']) expect(await w.page.getByText(claim, { exact: true }).count()).toBe(1)
    expect(scripts).toEqual([])
    expect(w.consoleErrors).toEqual([])
    expect(w.offHostRequests).toEqual([])
    await w.page.context().close()
  })

  test('on a phone the menu toggles open and closed without reloading', async () => {
    const w = await world.page(null, { viewport: { width: 375, height: 740 } })
    await w.page.goto(world.url + '/')
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
    await w.page.waitForURL(world.url + '/about')
    expect(await w.page.getByRole('heading', { name: 'Contact Us' }).isVisible()).toBe(true)
    // Nothing overflows sideways on a 375 px screen.
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    expect(w.consoleErrors).toEqual([])
    await w.page.context().close()
  })

  test('short public pages fill the window: the footer ends at its bottom, no white band above it', async () => {
    const cases = [
      ['/forgot-password', { width: 1440, height: 900 }],
      ['/login', { width: 1440, height: 900 }],
      ['/login', { width: 1440, height: 1400 }],
      ['/reset-password?token=abc', { width: 1440, height: 1200 }],
      ['/forgot-password', { width: 390, height: 844 }],
    ] as const
    for (const [path, viewport] of cases) {
      const w = await world.page(null, { viewport })
      await w.page.goto(world.url + path)
      const m = await w.page.evaluate(() => {
        const footer = document.querySelector('footer')!.getBoundingClientRect()
        const backdrop = document.querySelector('main > *')!.getBoundingClientRect()
        return { footerTop: footer.top, footerBottom: footer.bottom, backdropBottom: backdrop.bottom, page: document.documentElement.scrollHeight, window: innerHeight }
      })
      const where = `${path} at ${viewport.width}×${viewport.height}`
      // The content's backdrop reaches the footer: nothing of another colour between them.
      expect({ where, gap: m.footerTop - m.backdropBottom }).toEqual({ where, gap: 0 })
      // A page shorter than the window ends at the window's bottom edge, footer last.
      if (m.page <= m.window) expect({ where, bottom: m.footerBottom }).toEqual({ where, bottom: m.window })
      else expect(m.footerBottom).toBe(m.page)
      await w.page.context().close()
    }
    // The first one (/forgot-password at 1440×900) is a short page: the case the layout is for.
    const w = await world.page(null)
    await w.page.goto(world.url + '/forgot-password')
    expect(await w.page.evaluate(() => [document.documentElement.scrollHeight, document.querySelector('footer')!.getBoundingClientRect().bottom])).toEqual([900, 900])
    await w.page.context().close()
  })

  test('an unknown path lands on /', async () => {
    const w = await world.page(null)
    await w.page.goto(world.url + '/definitely/not/here')
    expect(new URL(w.page.url()).pathname).toBe('/')
    await w.page.context().close()
  })

  test('the login island hydrates: show/hide password and the server schema’s messages', async () => {
    const w = await world.page(null)
    await w.page.goto(world.url + '/login')
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
    const w = await world.page(null)
    await w.page.goto(world.url + '/swagger', { waitUntil: 'networkidle' })
    await w.page.locator('.opblock-summary-path', { hasText: '/api/health' }).first().waitFor()
    expect(await w.page.getByText('Brokernet API').first().isVisible()).toBe(true)
    expect(w.offHostRequests).toEqual([])
    expect(w.consoleErrors).toEqual([])
    await w.page.context().close()
  })
})
