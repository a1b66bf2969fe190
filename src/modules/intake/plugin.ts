import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import type { PublicLink } from './service'
import { intakeApi } from './api'
import { intakePages } from './pages'

/**
 * WhatsApp in and out (issues 18, 30): pasted messages and chat exports read into drafts, listings shared; the paste
 * page. `publicLink`: the share-links feature's page for a listing, which the WhatsApp text then links to (issue 34).
 */
export const intakeFeature = (ctx: AppContext, uses: { publicLink?: PublicLink } = {}) => ({
  plugin: new Elysia({ name: 'intake' }).use(intakeApi(ctx, uses.publicLink)).use(intakePages(ctx)),
})
