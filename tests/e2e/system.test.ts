import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import type { SignedIn } from '../support/auth'
import { startWorld, type World } from '../support/world'

// The system screen (issue 19) in a real Chromium against the real server, on a phone and a laptop: the master admin
// sees the installation and presses Backup now; nobody else gets the screen or its navigation item.
let world: World
let master: SignedIn
let moduleAdmin: SignedIn

beforeAll(async () => {
  world = await startWorld({ geography: true })
  master = await world.signIn('MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })
  moduleAdmin = await world.signIn('MODULE_ADMIN', { cityId: await world.cityId('Pune'), fullName: 'Priya Nair' })
})
afterAll(() => world?.stop())

const openAs = (who: SignedIn, viewport: { width: number; height: number }) => world.open(who, '/dashboard/system', { viewport })

for (const [size, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['laptop', { width: 1440, height: 900 }],
] as const)
  describe(`on a ${size}`, () => {
    test('the master admin sees the installation, presses Backup now and sees it written', async () => {
      const w = await openAs(master, viewport)
      const { page } = w
      try {
        await page.getByRole('heading', { name: 'System', level: 1 }).waitFor()
        const text = await page.locator('[data-system-screen]').innerText()
        expect(text).toContain('SQLite')
        expect(text).toContain(world.server.dataDir)
        expect(text).toContain('None scheduled (BACKUP_EVERY is not set)')
        // Nothing wider than the screen: long paths wrap.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

        const before = await page.locator('[aria-label="Recent backups"] li').count()
        await page.getByRole('button', { name: 'Backup now' }).click()
        await page.getByText('Backup started').waitFor()
        await page.waitForFunction((n) => {
          const items = document.querySelectorAll('[aria-label="Recent backups"] li')
          return items.length === n + 1 && items[0]!.textContent!.includes('Written')
        }, before)
        const newest = await page.locator('[aria-label="Recent backups"] li').first().innerText()
        expect(newest).toContain('Backup now')
        const file = /\/\S+\.tar\.gz/.exec(newest)?.[0]
        expect(file).toBeDefined()
        expect(existsSync(file!)).toBe(true)
        expect(await page.locator('[data-last-backup]').innerText()).toMatch(/^Last backup: .+ ago\), [\d.]+ KiB$/)
        expect(await page.getByRole('button', { name: 'Backup now' }).isEnabled()).toBe(true)
        expect(w.consoleErrors).toEqual([])
      } finally {
        await page.context().close()
      }
    }, 60_000)
  })

test('a module admin has no System item and is refused the screen', async () => {
  const w = await world.open(moduleAdmin, '/dashboard/system', { hydrate: false })
  try {
    expect(w.response?.status()).toBe(403)
    expect(await w.page.getByText("You don't have permission to access this page.").isVisible()).toBe(true)
    expect(await w.page.getByRole('link', { name: 'System', exact: true }).count()).toBe(0)
  } finally {
    await w.page.context().close()
  }
})
