import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { intakeApi } from './api'
import { intakePages } from './pages'

/** WhatsApp in and out (issues 18, 30): pasted messages and chat exports read into drafts, listings shared; the paste page. */
export const intakeFeature = (ctx: AppContext) => ({ plugin: new Elysia({ name: 'intake' }).use(intakeApi(ctx)).use(intakePages(ctx)) })
