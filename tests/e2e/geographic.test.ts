import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { hydrated, openDialog } from '../support/browser'
import { codeFor, giveSecondFactor } from '../support/second-factor'
import { startWorld, type World } from '../support/world'

let world: World

beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world?.stop())

/** A new admin of the role, their window on `path` (before it is live). */
const openAs = async (role: 'MASTER_ADMIN' | 'MODULE_ADMIN', path: string) => world.open(await world.signIn(role), path, { hydrate: false })

const dialog = openDialog

describe('geographic management', () => {
  test('signed out: sent to /login, remembering the page', async () => {
    const w = await world.open(null, '/dashboard/geographic', { hydrate: false })
    expect(new URL(w.page.url()).pathname + new URL(w.page.url()).search).toBe('/login?redirect=%2Fdashboard%2Fgeographic')
    await w.page.context().close()
  })

  test('signing in through the login page returns to the page asked for; Sign out lands on /login', async () => {
    const password = 'Master@12345'
    const { user } = await world.signIn('MASTER_ADMIN', { passwordHash: await Bun.password.hash(password) })
    // Issue 29: a master admin signs in with a password and a code of their authenticator app.
    const secret = await giveSecondFactor(world.data, user.id)
    const w = await world.open(null, '/dashboard/geographic')
    await w.page.getByLabel('Email').fill(user.email)
    await w.page.locator('input[name="password"]').fill(password)
    await w.page.getByRole('button', { name: 'Sign in' }).click()
    await w.page.getByLabel('Authentication code').fill(codeFor(secret))
    await w.page.getByRole('button', { name: 'Verify' }).click()
    await w.page.waitForURL(world.url + '/dashboard/geographic')
    await w.page.getByRole('heading', { name: 'Geographic Management' }).waitFor()
    await w.page.getByLabel('User menu').click()
    await w.page.getByRole('button', { name: 'Sign out' }).click()
    await w.page.waitForURL(world.url + '/login')
    await w.page.goto(world.url + '/dashboard')
    expect(new URL(w.page.url()).pathname).toBe('/login')
    expect(w.consoleErrors).toEqual([])
    await w.page.context().close()
  })

  test('a module admin is told Access Denied', async () => {
    const w = await openAs('MODULE_ADMIN', '/dashboard/geographic')
    await w.page.getByText('Access Denied').waitFor()
    expect(await w.page.getByText('Only Master Administrators can manage geographic data.').isVisible()).toBe(true)
    await w.page.context().close()
  })

  test('a master admin builds a country, a state and a city through the tree, edits one, moves a city with the cascading select, and sees a refused delete explained', async () => {
    const w = await openAs('MASTER_ADMIN', '/dashboard/geographic')
    const { page } = w
    await hydrated(page)
    await page.getByText('No Countries Found').waitFor()

    // Validation with the server's messages, before anything is sent.
    await page.getByRole('button', { name: 'Add First Country' }).click()
    await dialog(page).getByRole('button', { name: 'Create Country' }).click()
    await dialog(page).getByText('Name is required').waitFor()
    expect(await dialog(page).getByText('Code is required').isVisible()).toBe(true)

    // Country: the code is upper-cased as typed.
    await dialog(page).getByLabel('Name').fill('Kenya')
    await dialog(page).getByLabel('Code').fill('ke')
    expect(await dialog(page).getByLabel('Code').inputValue()).toBe('KE')
    await dialog(page).getByRole('button', { name: 'Create Country' }).click()
    await page.locator('[data-country="Kenya"]').waitFor()
    expect(await page.locator('[data-country="Kenya"] .badge').first().textContent()).toBe('KE')

    // State under the country: its country select is locked.
    await page.getByRole('button', { name: 'Add State Kenya' }).click()
    expect(await dialog(page).locator('#geo-form-country').isDisabled()).toBe(true)
    await dialog(page).getByLabel('Name').fill('Nairobi County')
    await dialog(page).getByLabel('Code').fill('ke-nb')
    await dialog(page).getByRole('button', { name: 'Create State' }).click()
    await page.locator('[data-state="Nairobi County"]').waitFor()

    // City under the state, with its NEWSCO region.
    await page.getByRole('button', { name: 'Add City Nairobi County' }).click()
    expect(await dialog(page).locator('#geo-form-state_id').isDisabled()).toBe(true)
    await dialog(page).getByLabel('Name').fill('Nairobi')
    await dialog(page).getByLabel('NEWSCO Region (optional)').fill('Central')
    await dialog(page).getByRole('button', { name: 'Create City' }).click()
    await page.locator('[data-city="Nairobi"]').getByText('NEWSCO: Central').waitFor()

    // Edit the city's name.
    await page.getByRole('button', { name: 'Edit Nairobi', exact: true }).click()
    await dialog(page).getByLabel('Name').fill('Nairobi City')
    await dialog(page).getByRole('button', { name: 'Save Changes' }).click()
    await page.locator('[data-city="Nairobi City"]').waitFor()

    // The cascading select: another country and state exist; moving the city there clears and reloads the state list.
    await page.getByRole('button', { name: 'Add Country' }).click()
    await dialog(page).getByLabel('Name').fill('Tanzania')
    await dialog(page).getByLabel('Code').fill('TZ')
    await dialog(page).getByRole('button', { name: 'Create Country' }).click()
    await page.getByRole('button', { name: 'Add State Tanzania' }).click()
    await dialog(page).getByLabel('Name').fill('Dar es Salaam')
    await dialog(page).getByLabel('Code').fill('TZ-02')
    await dialog(page).getByRole('button', { name: 'Create State' }).click()
    await page.locator('[data-state="Dar es Salaam"]').waitFor()

    await page.getByRole('button', { name: 'Edit Nairobi City' }).click()
    const country = dialog(page).locator('#geo-form-country_id')
    const state = dialog(page).locator('#geo-form-state_id')
    expect(await country.isDisabled()).toBe(false)
    expect(await state.inputValue()).not.toBe('')
    await country.selectOption({ label: 'Tanzania' })
    expect(await state.inputValue()).toBe('') // a new country clears the state
    await state.locator('option', { hasText: 'Dar es Salaam' }).waitFor({ state: 'attached' })
    expect(await state.locator('option').allTextContents()).toEqual(['Select state', 'Dar es Salaam'])
    await state.selectOption({ label: 'Dar es Salaam' })
    await dialog(page).getByRole('button', { name: 'Save Changes' }).click()
    await page.locator('[data-state="Dar es Salaam"] [data-city="Nairobi City"]').waitFor()

    // A refused delete is explained with the server's reason.
    await page.getByRole('button', { name: 'Delete Kenya' }).click()
    await dialog(page).getByText('Are you sure you want to delete "Kenya"? This action cannot be undone and may affect related data.').waitFor()
    await dialog(page).getByRole('button', { name: 'Delete' }).click()
    await dialog(page).getByText('Cannot delete "Kenya": it still has 1 state. Delete or move them first.').waitFor()
    await page.keyboard.press('Escape')
    expect(await dialog(page).count()).toBe(0)
    expect(await page.locator('[data-country="Kenya"]').count()).toBe(1)

    expect(w.consoleErrors.filter((e) => !e.includes('409'))).toEqual([])
    expect(w.offHostRequests).toEqual([])
    await page.context().close()
  })
})
