import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Browser, Page } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { users } from '../../db/schema'
import { seedGeography } from '../../db/seed/demo'
import { loadConfig } from '../../src/platform/config'
import { createContext, type AppContext } from '../../src/platform/context'
import { approveUser } from '../../src/modules/users/service'
import { launchBrowser, openPage, type WatchedPage, hydrated } from '../support/browser'
import { startServer, type RunningServer } from '../support/server'
import { dataLayer } from '../support/fixtures'
import { startSmtp } from '../support/smtp'

// The whole account journey in a real Chromium against the real server, with mail delivered to a real SMTP server.
let server: RunningServer
let browser: Browser
let db: Database
let ctx: AppContext
let smtp: Awaited<ReturnType<typeof startSmtp>>

beforeAll(async () => {
  smtp = await startSmtp()
  server = await startServer({ env: { SMTP_URL: smtp.url } })
  browser = await launchBrowser()
  db = openDatabase(join(server.dataDir, 'brokernet.db'))
  await seedGeography(dataLayer(db))
  // The test's own services over the server's database file: used to approve "as an admin would".
  ctx = createContext(db, loadConfig({ DATA_DIR: server.dataDir, SMTP_URL: smtp.url, NODE_ENV: 'production' }))
})
afterAll(async () => {
  await ctx?.mail.close()
  if (db) closeDatabase(db)
  await browser?.close()
  await server?.stop()
  await smtp?.close()
})

const input = (page: Page, label: string) => page.getByLabel(label, { exact: true })
const path = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search
/** Browsers log refused requests ("status of 403"); those answers are under test here, not faults. */
const realErrors = (w: WatchedPage) => w.consoleErrors.filter((e) => !/status of (400|401|403|409|422)\b/.test(e))

async function signInThroughForm(page: Page, email: string, password: string) {
  await hydrated(page)
  await input(page, 'Email').fill(email)
  await input(page, 'Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

const EMAIL = 'meera.iyer@example.com'
const FIRST_PASSWORD = 'First#Pass1'
const NEW_PASSWORD = 'Second#Pass2'

describe('account journey', () => {
  let w: WatchedPage

  test('register → pending screen; the city admin and master admin are told by mail', async () => {
    w = await openPage(browser, server.url)
    await w.page.goto(server.url + '/register')
    await hydrated(w.page)
    await input(w.page, 'Full Name').fill('Meera Iyer')
    await input(w.page, 'Email').fill(EMAIL)
    await input(w.page, 'Password').fill(FIRST_PASSWORD)
    await input(w.page, 'Confirm Password').fill(FIRST_PASSWORD)
    await input(w.page, 'Country').selectOption({ label: 'India' })
    await input(w.page, 'State').locator('option', { hasText: 'Maharashtra' }).waitFor({ state: 'attached' })
    await input(w.page, 'State').selectOption({ label: 'Maharashtra' })
    await input(w.page, 'City').locator('option', { hasText: 'Pune' }).waitFor({ state: 'attached' })
    await input(w.page, 'City').selectOption({ label: 'Pune' })
    await w.page.getByRole('button', { name: 'Create Account' }).click()
    await w.page.getByText('Registration Submitted Successfully!').waitFor()
    expect(await w.page.getByText('1-2 business days').count()).toBeGreaterThan(0)
    // Registration does not sign in.
    expect((await w.page.context().cookies()).map((c) => c.name)).not.toContain('brokernet_session')
    expect(await smtp.messageTo(EMAIL)).toContain('Registration received')
    const admin = db.select({ email: users.email }).from(users).where(eq(users.role, 'MASTER_ADMIN')).get()!
    expect(await smtp.messageTo(admin.email)).toContain('Meera Iyer')
  })

  test('sign-in is refused while the registration is pending, saying so', async () => {
    await w.page.goto(server.url + '/login')
    await signInThroughForm(w.page, EMAIL, FIRST_PASSWORD)
    await w.page.getByRole('alert').filter({ hasText: 'pending approval' }).waitFor()
    expect(path(w.page)).toBe('/login')
  })

  test('after approval, signing in returns to the page first asked for', async () => {
    const master = db.select().from(users).where(eq(users.role, 'MASTER_ADMIN')).get()!
    const pending = db.select().from(users).where(eq(users.email, EMAIL)).get()!
    await approveUser(ctx, { ...master, access: 'any' }, pending.id)
    await ctx.mail.idle()
    expect(await smtp.messageTo(EMAIL, 'Subject: Your Brokernet account is approved')).toContain('/login')

    await w.page.goto(server.url + '/dashboard/my-listings')
    expect(path(w.page)).toBe('/login?redirect=%2Fdashboard%2Fmy-listings')
    await signInThroughForm(w.page, EMAIL, FIRST_PASSWORD)
    await w.page.waitForURL(server.url + '/dashboard/my-listings')
    expect(await w.page.getByRole('heading', { name: 'My Listings' }).count()).toBe(1)
  })

  test('the user menu shows who is signed in; Sign out lands on /login and the dashboard is closed again', async () => {
    await w.page.getByLabel('User menu').click()
    const menu = w.page.locator('[data-user-menu]')
    await menu.getByText(EMAIL).waitFor()
    expect(await menu.textContent()).toContain('Broker')
    expect(await menu.textContent()).toContain('Pune, Maharashtra')
    await menu.getByRole('button', { name: 'Sign out' }).click()
    await w.page.waitForURL(server.url + '/login')
    await w.page.goto(server.url + '/dashboard')
    expect(path(w.page)).toBe('/login?redirect=%2Fdashboard')
  })

  test('forgot → mail → reset link → new password → sign in with it; the old one no longer works', async () => {
    await w.page.goto(server.url + '/login')
    await hydrated(w.page)
    await w.page.getByRole('link', { name: 'Forgot your password?' }).click()
    await w.page.waitForURL(server.url + '/forgot-password')
    await hydrated(w.page)
    await input(w.page, 'Email').fill(EMAIL)
    await w.page.getByRole('button', { name: 'Send Reset Link' }).click()
    await w.page.getByText('Check your email').waitFor()

    const mail = await smtp.messageTo(EMAIL, '/reset-password?token=')
    const link = /\/reset-password\?token=([A-Za-z0-9%_-]+)/.exec(mail)
    expect(link).not.toBeNull()
    await w.page.goto(`${server.url}/reset-password?token=${link![1]}`)
    await hydrated(w.page)
    await input(w.page, 'New Password').fill(NEW_PASSWORD)
    await input(w.page, 'Confirm New Password').fill(NEW_PASSWORD)
    await w.page.getByRole('button', { name: 'Reset Password' }).click()
    await w.page.getByText('Password Reset Successful!').waitFor()
    await w.page.getByRole('link', { name: 'Sign in' }).click()
    await w.page.waitForURL(server.url + '/login')

    await signInThroughForm(w.page, EMAIL, FIRST_PASSWORD)
    await w.page.getByRole('alert').filter({ hasText: 'Incorrect email or password' }).waitFor()
    await input(w.page, 'Password').fill(NEW_PASSWORD)
    await w.page.getByRole('button', { name: 'Sign in' }).click()
    await w.page.waitForURL(server.url + '/dashboard')
    await w.page.getByText('Welcome back, Meera Iyer!').waitFor()
    expect(realErrors(w)).toEqual([])
    expect(w.offHostRequests).toEqual([])
    await w.page.context().close()
  })
})
