import type { AppContext } from '../../platform/context'
import { auditApi } from './index'

/** The audit trail: every change, who made it and the record before and after; its page. */
export const auditFeature = (ctx: AppContext) => ({ plugin: auditApi(ctx) })
