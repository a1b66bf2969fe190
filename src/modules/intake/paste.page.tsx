import { createElement } from 'react'
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { PASTE_PAGE_PATH, INTAKE_TEXT } from '../../../islands/intake/intake-text'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { CreateListingBody } from '../listings/model'
import { getUser } from '../users/store/read'
import { ParseBody } from './model'

/** Text shared to Brokernet from another app (issue 33), read into drafts as the screen opens. */
export type Shared = { text: string; truncated: boolean }

/** Photos shared with the text (issue 34): how many the service worker kept in the browser, how many were lost. */
export type SharedPhotos = { kept: number; dropped: number }

export type PastePageProps = { user: ShellUser; phone: string | null; rules: ObjectSchema; pasteRules: ObjectSchema; shared: Shared | null; sharedPhotos: SharedPhotos }

/** Issue 18, "Paste from WhatsApp": the shell and the PasteFromWhatsApp island, whose paste box is in the server's HTML. */
export function PastePage({ user, phone, rules, pasteRules, shared, sharedPhotos }: PastePageProps) {
  return (
    <DashboardLayout user={user} current={PASTE_PAGE_PATH} section={INTAKE_TEXT.title}>
      <Island name="PasteFromWhatsApp" props={{ rules, pasteRules, phone, country_name: user.country_name, shared, sharedPhotos }} />
    </DashboardLayout>
  )
}

/** The page for a broker: their own phone fills the contact of a draft whose message has none. */
export const view = async (ctx: AppContext, user: ShellUser, shared: Shared | null = null, sharedPhotos: SharedPhotos = { kept: 0, dropped: 0 }) => {
  const { phone } = await getUser(ctx.db, viewerOf(user), user.id)
  return createElement(PastePage, { user, phone: phone?.trim() || null, rules: formRules(CreateListingBody), pasteRules: formRules(ParseBody), shared, sharedPhotos })
}
