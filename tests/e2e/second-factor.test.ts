import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { problems } from '../support/axe'
import { hydrated } from '../support/browser'
import { codeFor, giveSecondFactor, stepNow } from '../support/second-factor'
import { smallControls } from '../support/targets'
import { startWorld, type World } from '../support/world'

// Issue 29: a master admin sets up two-factor sign-in on the page (the key read off the page's manual-entry text, the
// code computed here as an authenticator app would), signs out, signs in with the password and then a code, and again
// with a recovery code; on a 390 px phone and a 1440 px laptop, with axe-core on every state and 44 px controls on the
// phone.

setDefaultTimeout(120_000)

let world: World
const PASSWORD = 'Master@12345'
const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1440, height: 900 } } as const

beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world?.stop())

const path = (page: Page) => new URL(page.url()).pathname


async function signInWithPassword(page: Page, email: string) {
  await page.goto(world.url + '/login')
  await hydrated(page)
  await page.getByLabel('Email').fill(email)
  await page.locator('input[name="password"]').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

async function signOut(page: Page) {
  await page.getByLabel('User menu').click()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(world.url + '/login')
}

for (const [name, viewport] of Object.entries(SIZES)) {
  describe(`two-factor sign-in on a ${viewport.width} px screen`, () => {
    test('set up on the page, sign out, sign in with a code, then with a recovery code', async () => {
      const phone = name === 'phone'
      const { user } = await world.signIn('MASTER_ADMIN', { passwordHash: await Bun.password.hash(PASSWORD), cityId: null })
      // Refused codes are logged by the browser (their 4xx): only the page's own errors count here.
      const { page, pageErrors: errors } = await world.page(null, { viewport, axe: true })
      const found: string[] = []

      // The password alone leads to the setup, outside the dashboard.
      await signInWithPassword(page, user.email)
      await page.waitForURL(world.url + '/dashboard/security')
      await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor()
      found.push(...(await problems(page, 'setup, not started')))
      // Any other dashboard page sends the session back here.
      await page.goto(world.url + '/dashboard/listings')
      expect(path(page)).toBe('/dashboard/security')
      await hydrated(page)

      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
      const key = page.locator('[data-manual-key]')
      await key.waitFor()
      expect(await page.locator('[data-qr-code] svg').count()).toBe(1)
      const secret = (await key.textContent())!.replace(/\s/g, '')
      expect(secret).toMatch(/^[A-Z2-7]{32}$/)
      const field = page.getByLabel('Authentication code')
      expect(await field.getAttribute('inputmode')).toBe('numeric')
      expect(await field.getAttribute('autocomplete')).toBe('one-time-code')
      found.push(...(await problems(page, 'setup: QR code, key and code field')))
      if (phone) found.push(...(await smallControls(page, '[data-second-factor-form]')))

      // A wrong code is refused on the field; the right one turns it on and shows the recovery codes once.
      await field.fill(codeFor(secret, stepNow() + 9))
      await page.getByRole('button', { name: 'Turn on' }).click()
      await page.getByText('That code is not right').waitFor()
      await field.fill(codeFor(secret))
      await page.getByRole('button', { name: 'Turn on' }).click()
      const list = page.locator('[data-recovery-codes] li')
      await list.first().waitFor()
      const codes = (await list.allTextContents()).map((c) => c.trim())
      expect(codes).toHaveLength(10)
      expect(await page.getByRole('link', { name: 'Download' }).getAttribute('download')).toBe('brokernet-recovery-codes.txt')
      const done = page.getByRole('button', { name: 'Done' })
      expect(await done.isDisabled()).toBe(true)
      found.push(...(await problems(page, 'recovery codes shown')))
      if (phone) found.push(...(await smallControls(page, '[data-recovery-codes-card]')))
      await page.getByLabel('I have saved them').check()
      await done.click()
      await page.waitForURL(world.url + '/dashboard')
      await signOut(page)

      // Password, then a code of the app: back to the dashboard.
      await signInWithPassword(page, user.email)
      const step = page.locator('[data-second-factor-step]')
      await step.waitFor()
      const codeField = step.getByLabel('Authentication code')
      expect(await codeField.getAttribute('inputmode')).toBe('numeric')
      expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code')
      found.push(...(await problems(page, 'login second step')))
      if (phone) found.push(...(await smallControls(page, '[data-second-factor-step]')))
      // The setup spent this step's code: the next step's is the app's next code.
      await codeField.fill(codeFor(secret, stepNow() + 1))
      await step.getByRole('button', { name: 'Verify' }).click()
      await page.waitForURL(world.url + '/dashboard')
      await signOut(page)

      // Password, then a recovery code.
      await signInWithPassword(page, user.email)
      await step.waitFor()
      await step.getByRole('button', { name: 'Use a recovery code' }).click()
      const recovery = step.getByLabel('Recovery code')
      await recovery.waitFor()
      found.push(...(await problems(page, 'login second step, recovery code')))
      await recovery.fill(codes[0]!)
      await step.getByRole('button', { name: 'Verify' }).click()
      await page.waitForURL(world.url + '/dashboard')

      // The Security page in the shell: on, one recovery code spent; a master admin cannot turn it off.
      await page.goto(world.url + '/dashboard/security')
      await page.locator('[data-second-factor-status="on"]').waitFor()
      expect(await page.locator('[data-recovery-codes-left]').textContent()).toBe('9')
      expect(await page.getByRole('button', { name: 'Turn off' }).count()).toBe(0)
      found.push(...(await problems(page, 'security page, on')))

      expect(found).toEqual([])
      expect(errors).toEqual([])
      await page.context().close()
    })

    test("Module Admins: a master admin requires two-factor sign-in for module admins and resets one's lost factor", async () => {
      const master = await world.signIn('MASTER_ADMIN', { cityId: null })
      const city = (await world.data.get<{ id: number }>('select id from cities limit 1'))?.id ?? null
      const lost = await world.signIn('MODULE_ADMIN', { fullName: `Lost Phone ${name}`, cityId: city })
      await giveSecondFactor(world.data, lost.user.id)
      const { page } = await world.open(master, '/dashboard/admins', { viewport, axe: true })
      const found: string[] = []

      const policy = page.locator('[data-second-factor-policy]')
      await policy.getByLabel('Require two-factor sign-in for module admins').check()
      await policy.getByRole('button', { name: 'Save' }).click()
      await policy.locator('[data-second-factor-policy-now]', { hasText: /^Required:/ }).waitFor()
      const setting = await world.data.get<{ value: string }>("select value from settings where name = 'second_factor_module_admins'")
      expect(setting?.value).toBe('true')

      const row = page.locator(`[data-user-email="${lost.user.email}"]`)
      expect(await row.getByText('Two-factor on').count()).toBe(1)
      found.push(...(await problems(page, 'Module Admins: the setting, a row with two-factor on')))
      await row.getByRole('button', { name: `Reset 2FA (two-factor sign-in) of ${lost.user.fullName}` }).click()
      const dialog = page.locator('dialog[open]')
      await dialog.getByRole('heading', { name: 'Reset two-factor sign-in' }).waitFor()
      found.push(...(await problems(page, 'reset two-factor dialog', 'dialog[open]')))
      await dialog.getByRole('button', { name: 'Reset' }).click()
      await dialog.waitFor({ state: 'detached' })
      await row.getByText('Two-factor on').waitFor({ state: 'detached' })
      expect(await world.data.get('select user_id from second_factors where user_id = ?', [lost.user.id])).toBeFalsy()
      // Their session ended with the reset.
      expect((await world.api(lost, 'GET', '/api/auth/me')).status).toBe(401)
      expect(found).toEqual([])
      await page.context().close()
    })
  })
}
