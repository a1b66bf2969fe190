import { createElement } from 'react'
import { SHARE_LINKS_PAGE } from '../../../islands/share-links/share-link-text'
import { viewerOf } from '../../platform/http/page-auth'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { MyShareLink } from './model'
import type { ShareLinks } from './service'

/** /dashboard/share-links (issue 34): the user's public links, to see and revoke. The first view is complete. */
export function ShareLinksPage({ user, links }: { user: ShellUser; links: MyShareLink[] }) {
  return (
    <DashboardLayout user={user} current={SHARE_LINKS_PAGE} section="Public links">
      <Island name="ShareLinksBoard" props={{ initialLinks: links }} />
    </DashboardLayout>
  )
}

export const view = async (links: ShareLinks, user: ShellUser) => createElement(ShareLinksPage, { user, links: await links.mine(viewerOf(user)) })
