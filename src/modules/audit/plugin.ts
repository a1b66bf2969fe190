import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { auditApi } from './api'
import { auditPages } from './pages'

/** The audit trail: every change, who made it and the record before and after; the Audit Logs page. */
export const auditFeature = (ctx: AppContext) => ({ plugin: new Elysia({ name: 'audit' }).use(auditApi(ctx)).use(auditPages(ctx)) })
