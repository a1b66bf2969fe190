import { createElement } from 'react'
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { PASTE_PAGE_PATH, INTAKE_TEXT } from '../../../islands/intake/intake-text'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { CreateListingBody } from '../listings/model'
import { getUser } from '../users/read'
import { ParseBody } from './model'

export type PastePageProps = { user: ShellUser; phone: string | null; rules: ObjectSchema; pasteRules: ObjectSchema }

/** Issue 18, "Paste from WhatsApp": the shell and the PasteFromWhatsApp island, whose paste box is in the server's HTML. */
export function PastePage({ user, phone, rules, pasteRules }: PastePageProps) {
  return (
    <DashboardLayout user={user} current={PASTE_PAGE_PATH} section={INTAKE_TEXT.title}>
      <Island name="PasteFromWhatsApp" props={{ rules, pasteRules, phone, country_name: user.country_name }} />
    </DashboardLayout>
  )
}

/** The page for a broker: their own phone fills the contact of a draft whose message has none. */
export const view = async (ctx: AppContext, user: ShellUser) => {
  const { phone } = await getUser(ctx.db, viewerOf(user), user.id)
  return createElement(PastePage, { user, phone: phone?.trim() || null, rules: formRules(CreateListingBody), pasteRules: formRules(ParseBody) })
}
