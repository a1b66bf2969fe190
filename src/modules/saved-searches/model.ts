import { t } from 'elysia'
import { SAVED_SEARCHES } from '../../shared/constants'
import { text } from '../../shared/schema'
import { ListingFiltersQuery } from '../listings/model'

// Issue 17, saved searches: a broker's named list filters, with what is new in each since it was last opened.

/** At most this many saved searches per user. */
export const SAVED_SEARCH_LIMIT = SAVED_SEARCHES.limit
/** A new count stops at this many (shown "99+"): counting further would read every listing of a long-unopened search. */
export const NEW_COUNT_CAP = SAVED_SEARCHES.newCountCap
export const ALERTS = ['OFF', 'INSTANT', 'DAILY'] as const
export type Alert = (typeof ALERTS)[number]

const NAME_MAX = SAVED_SEARCHES.nameMax
const NAME_REQUIRED = 'Name is required'
const NAME_TOO_LONG = `Name must be at most ${NAME_MAX} characters`
const ALERT_MESSAGE = 'alert must be OFF, INSTANT or DAILY'

const name = text({ min: 1, max: NAME_MAX, messages: { required: NAME_REQUIRED, minLength: NAME_REQUIRED, maxLength: NAME_TOO_LONG }, description: 'Unique among your searches, in any case; spaces around it are dropped' })
const alert = t.Union(
  ALERTS.map((a) => t.Literal(a)),
  { description: 'OFF; INSTANT: a `saved_search` event on GET /api/events for each new match; DAILY: at most one mail a day with the new matches', errorMessage: { type: ALERT_MESSAGE } },
)

/** The list's filters, as GET /api/listings takes them (without page and per_page), checked by the same schema. */
export const SavedSearchFilters = ListingFiltersQuery
export type SavedSearchFilters = typeof SavedSearchFilters.static

export const CreateSavedSearchBody = t.Object({ name, filters: SavedSearchFilters, alert: t.Optional(alert) })
export type CreateSavedSearchBody = typeof CreateSavedSearchBody.static

export const UpdateSavedSearchBody = t.Partial(CreateSavedSearchBody)
export type UpdateSavedSearchBody = typeof UpdateSavedSearchBody.static

export const SavedSearch = t.Object({
  id: t.Integer(),
  name: t.String(),
  filters: SavedSearchFilters,
  alert,
  new_count: t.Integer({
    minimum: 0,
    maximum: NEW_COUNT_CAP,
    description: `Listings matching the filters, as you see them, posted or with news (price changed, back on market) since it was last opened (seen_at); counted up to ${NEW_COUNT_CAP}, which means ${NEW_COUNT_CAP} or more`,
  }),
  seen_at: t.String({ format: 'date-time', description: 'When it was last opened (POST …/seen), or created' }),
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
})
export type SavedSearch = typeof SavedSearch.static

export const SavedSearchList = t.Object({
  saved_searches: t.Array(SavedSearch, { description: 'Yours, in the order you saved them' }),
  limit: t.Integer({ description: 'How many you may keep' }),
})
export type SavedSearchList = typeof SavedSearchList.static

export const SavedSearchIdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
