import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail, fileAnswer } from '../../shared/schema'
import { AuditEvent, AuditPage, AuditQuery } from './model'
import { auditCsv, getAuditEvent, listAudit } from './read'

const tags = ['Audit']
const errors = { 401: Detail, 403: Detail, 404: Detail }

/** The audit trail, read-only: there is no route that edits or deletes an event. */
export const auditApi = (ctx: AppContext) =>
  new Elysia({ name: 'audit-api', prefix: '/api/audit' })
    .use(authGuard(ctx))
    .get('/', ({ user, query }) => listAudit(ctx.db, user, query), {
      permission: 'read:audit:city',
      query: AuditQuery,
      response: { 200: AuditPage, ...errors },
      detail: { tags, summary: 'Audit events, newest first', description: 'Master admin: all events; module admin: events of their city.' },
    })
    .get(
      '/export.csv',
      ({ user, query }) => {
        const lines = auditCsv(ctx.db, user, query)
        const encoder = new TextEncoder()
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const next = await lines.next()
            if (next.done) controller.close()
            else controller.enqueue(encoder.encode(next.value))
          },
        })
        return new Response(body, {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
            'cache-control': 'no-store',
          },
        })
      },
      { permission: 'read:audit:city', query: AuditQuery, detail: { tags, summary: 'The filtered audit trail as CSV', responses: fileAnswer('The trail, as an attachment', 'text/csv') } },
    )
    .get('/:id', ({ user, params }) => getAuditEvent(ctx.db, user, params.id), {
      permission: 'read:audit:city',
      params: t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
      response: { 200: AuditEvent, ...errors },
      detail: { tags, summary: 'One audit event with its before and after' },
    })
