import { t } from 'elysia'
import { pageNumber, text } from '../../shared/schema'

const idNames = (what: string) =>
  t.Record(t.String({ pattern: '^[0-9]+$' }), t.String(), { description: `${what} by id, for the ids this event mentions that can be named` })

/** The names behind the ids an event's entity, before and after mention, so a reader sees "Mumbai", not 3. */
export const AuditNames = t.Object(
  {
    users: idNames('Full names of users'),
    cities: idNames('City names'),
    states: idNames('State names'),
    countries: idNames('Country names'),
    listings: idNames('Entry IDs of listings'),
  },
  {
    description:
      'Names for ids in `entity_id`, `before` and `after` (`city_id`/`cityId`, `state_id`/`stateId`, `country_id`/`countryId`, `owner_user_id`/`ownerUserId`, `suspendedBy`), read when the event is; a row removed since is named from the event itself when it holds the name, else left out',
  },
)
export type AuditNames = typeof AuditNames.static

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
  names: AuditNames,
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
