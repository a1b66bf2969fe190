import { t } from 'elysia'
import { pageNumber, text } from '../../shared/schema'

export const AuditEvent = t.Object({
  id: t.Integer(),
  created_at: t.String({ format: 'date-time' }),
  actor_user_id: t.Union([t.Integer(), t.Null()]),
  actor_name: t.Union([t.String(), t.Null()]),
  action: t.String({ examples: ['listing.update'] }),
  entity_type: t.String(),
  entity_id: t.Union([t.String(), t.Null()]),
  city_id: t.Union([t.Integer(), t.Null()]),
  reason: t.Union([t.String(), t.Null()]),
  summary: t.String({ description: 'What changed, in one line' }),
  before: t.Unknown(),
  after: t.Unknown(),
})
export type AuditEvent = typeof AuditEvent.static

const date = t.Optional(t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: { pattern: 'Dates are YYYY-MM-DD' } }))
export const AuditQuery = t.Object({
  actor: t.Optional(text({ max: 100, messages: {}, description: 'Part of the actor’s name' })),
  action: t.Optional(text({ max: 50, messages: {} })),
  entity_type: t.Optional(text({ max: 30, messages: {} })),
  date_from: date,
  date_to: date,
  page: t.Optional(pageNumber),
  per_page: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 50 })),
})
export type AuditQuery = typeof AuditQuery.static

export const AuditPage = t.Object({
  events: t.Array(AuditEvent),
  page: t.Integer(),
  per_page: t.Integer(),
  total: t.Integer(),
  total_pages: t.Integer(),
  actions: t.Array(t.String(), { description: 'Every action in your scope, for the filter' }),
  entity_types: t.Array(t.String()),
})
export type AuditPage = typeof AuditPage.static
