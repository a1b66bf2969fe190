import { t } from 'elysia'
import { pageNumber } from '../../shared/schema'
import { Listing } from '../listings/model'
import { MAX_TOLERANCE } from './rules'

// Issue 15: a listing's matches, the caller's inbox, a city's tolerance.

const perPage = t.Integer({
  minimum: 1,
  maximum: 100,
  default: 25,
  description: 'One of 10, 25, 50, 100',
  errorMessage: { type: 'per_page must be 10, 25, 50 or 100', minimum: 'per_page must be 10, 25, 50 or 100', maximum: 'per_page must be 10, 25, 50 or 100' },
})

export const MatchesQuery = t.Object({ page: t.Optional(pageNumber), per_page: t.Optional(perPage) })
export type MatchesQuery = typeof MatchesQuery.static

const score = t.Integer({ minimum: 0, maximum: 100, description: '0–100, best first' })
const reasons = t.Array(t.String(), { description: 'Why they match, in words (e.g. "Asking ₹45,000 within budget ₹48,000")' })

export const ListingMatches = t.Object({
  matches: t.Array(t.Object({ listing: Listing, score, reasons })),
  total: t.Integer(),
  page: t.Integer(),
  per_page: t.Integer(),
})
export type ListingMatches = typeof ListingMatches.static

export const InboxQuery = t.Object({
  unseen: t.Optional(t.Union([t.Literal('1'), t.Literal('0'), t.Literal('true'), t.Literal('false')], { description: '1: only the unseen', errorMessage: { type: 'unseen must be 1 or 0' } })),
  order: t.Optional(
    t.Union([t.Literal('newest'), t.Literal('unseen_first')], { description: 'newest (the default), or unseen_first: the unseen entries, newest first, then the seen ones', errorMessage: { type: 'order must be newest or unseen_first' } }),
  ),
  page: t.Optional(pageNumber),
  per_page: t.Optional(perPage),
})
export type InboxQuery = typeof InboxQuery.static

export const InboxEntry = t.Object({
  id: t.Integer(),
  listing_id: t.Integer({ description: 'The caller’s listing' }),
  listing: Listing,
  match: Listing,
  score,
  reasons,
  created_at: t.String({ format: 'date-time' }),
  seen: t.Boolean(),
})
export type InboxEntry = typeof InboxEntry.static

export const Inbox = t.Object({
  matches: t.Array(InboxEntry),
  unseen: t.Integer({ description: 'Unseen matches in the whole inbox' }),
  total: t.Integer({ description: 'Entries of this view (all, or only the unseen)' }),
  page: t.Integer(),
  per_page: t.Integer(),
})
export type Inbox = typeof Inbox.static

export const MatchIdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
export const CityIdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })

const toleranceMessage = `Tolerance must be a whole number from 0 to ${MAX_TOLERANCE}`
export const ToleranceBody = t.Object({
  match_tolerance: t.Integer({ minimum: 0, maximum: MAX_TOLERANCE, description: 'Percent over a requirement’s budget an availability may ask', errorMessage: { type: toleranceMessage, minimum: toleranceMessage, maximum: toleranceMessage, required: toleranceMessage } }),
})
export const Tolerance = t.Object({ city_id: t.Integer(), match_tolerance: t.Integer() })

const idsMessage = 'ids must be 1 to 100 listing ids separated by commas'
export const MatchCountsQuery = t.Object({
  ids: t.String({ pattern: '^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15}){0,99}$', description: 'Listing ids, comma-separated (at most 100)', errorMessage: { pattern: idsMessage, type: idsMessage } }),
})
export const MatchCounts = t.Object({
  counts: t.Record(t.String(), t.Integer(), { description: 'Listing id → how many listings match it for you; listings you may not see are left out' }),
})
export type MatchCounts = typeof MatchCounts.static
