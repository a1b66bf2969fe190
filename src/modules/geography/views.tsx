import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import type { ShellUser } from '../../platform/pages/shell'
import { GeographicPage } from './page'
import { getHierarchy } from './service'

// Page views, imported by the page route on its first request (docs/decisions/004-lazy-start.md).

export const geographicView = async (ctx: AppContext, user: ShellUser) =>
  createElement(GeographicPage, { user, hierarchy: await getHierarchy(ctx.db) })
