import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'
import { INTAKE_TEXT, PASTE_PAGE_PATH, SHARE_PATH } from '../../../islands/intake/intake-text'
import { decodeShared, forgetShared, keepShared, SHARED_COOKIE, sharedPhotos } from './share-target'

const hidden = { detail: { hide: true } }
const screen = () => import('./paste.page')

/**
 * Issue 18, "Paste from WhatsApp": for those who post listings as their own (My Listings' rule: brokers; admins post
 * from their grid). Linked from the broker dashboard and My Listings rather than the navigation.
 */
export const intakePages = (ctx: AppContext) => {
  const secure = ctx.config.publicUrl.startsWith('https://')
  const guard = { ...guardOf('/dashboard/my-listings'), current: PASTE_PAGE_PATH, section: INTAKE_TEXT.title, denied: 'This page is only available for brokers.' }
  return (
    new Elysia({ name: 'intake-pages' })
      .get(
        PASTE_PAGE_PATH,
        async (c: Parameters<ReturnType<typeof dashboardPage>>[0] & { query: Record<string, string | undefined> }) => {
          // Issue 33: text shared to Brokernet (./share-target.ts), read once into drafts, then forgotten.
          const shared = c.query.shared === '1' ? decodeShared(c.cookie[SHARED_COOKIE]?.value as string | undefined) : null
          const photos = sharedPhotos(c.query)
          const page = await dashboardPage(ctx, INTAKE_TEXT.title, async (user) => (await screen()).view(ctx, user, shared, photos), guard)(c)
          if (shared && page.status === 200) page.headers.append('set-cookie', forgetShared(secure))
          return page
        },
        hidden,
      )
      // Android's share sheet (the manifest's share_target): kept, then on to the paste screen, signed in or not yet.
      // Multipart (text with photos, issue 34) or form-encoded (what the service worker forwards).
      .post(SHARE_PATH, ({ body }) => keepShared((body ?? {}) as Record<string, unknown>, secure), hidden)
  )
}