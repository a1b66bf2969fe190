import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'
import { INTAKE_TEXT, PASTE_PAGE_PATH } from '../../../islands/intake/intake-text'

const hidden = { detail: { hide: true } }
const screen = () => import('./paste.page')

/**
 * Issue 18, "Paste from WhatsApp": for those who post listings as their own (My Listings' rule: brokers; admins post
 * from their grid). Linked from the broker dashboard and My Listings rather than the navigation.
 */
export const intakePages = (ctx: AppContext) =>
  new Elysia({ name: 'intake-pages' }).get(
    PASTE_PAGE_PATH,
    dashboardPage(ctx, INTAKE_TEXT.title, async (user) => (await screen()).view(ctx, user), {
      ...guardOf('/dashboard/my-listings'),
      current: PASTE_PAGE_PATH,
      section: INTAKE_TEXT.title,
      denied: 'This page is only available for brokers.',
    }),
    hidden,
  )
