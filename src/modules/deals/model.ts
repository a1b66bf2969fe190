import { t } from 'elysia'
import { Nullable, text } from '../../shared/schema'

// Co-broking (issue 35): requests ("I have a client for this") and the deals they open.

const dateTime = t.String({ format: 'date-time' })
const percent = t.Integer({ minimum: 0, maximum: 100, description: 'The requester’s share in percent; the listing’s broker has the rest (so the two sum to 100)', errorMessage: { type: 'A share is a whole percent from 0 to 100', minimum: 'A share is a whole percent from 0 to 100', maximum: 'A share is a whole percent from 0 to 100' } })
const fee = t.Number({ minimum: 0, maximum: 1e12, description: 'A flat fee instead of a split (in the listing’s currency)', errorMessage: { type: 'A flat fee is a positive amount', minimum: 'A flat fee is a positive amount' } })

/** A proposed or locked split: a percentage to each broker, or a flat fee. */
export const Split = t.Object({
  kind: t.Union([t.Literal('PERCENT'), t.Literal('FLAT')]),
  requester_percent: Nullable(t.Integer()),
  owner_percent: Nullable(t.Integer()),
  flat_fee: Nullable(t.Number()),
})

const SplitBody = {
  requester_percent: t.Optional(percent),
  flat_fee: t.Optional(fee),
}

export const RequestBody = t.Object({
  requester_listing_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Your own listing this is for: a requirement for an availability, or the reverse' })),
  message: t.Optional(text({ max: 2000, multiline: true, messages: { maxLength: 'The message must be at most 2000 characters' } })),
  ...SplitBody,
})
export type RequestBody = typeof RequestBody.static

export const CounterBody = t.Object(SplitBody)
export type CounterBody = typeof CounterBody.static

export const DeclineBody = t.Object({
  reason: text({ min: 1, max: 500, messages: { required: 'Say why you decline', minLength: 'Say why you decline', maxLength: 'The reason must be at most 500 characters' } }),
})

export const REQUEST_STATUSES = ['PENDING', 'COUNTERED', 'ACCEPTED', 'DECLINED', 'EXPIRED'] as const
export const CobrokeRequest = t.Object({
  id: t.Integer(),
  listing_id: Nullable(t.Integer()),
  listing_entry_id: Nullable(t.String()),
  requester_listing_id: Nullable(t.Integer()),
  owner_id: t.Integer(),
  owner_name: t.String(),
  requester_id: t.Integer(),
  requester_name: t.String(),
  message: Nullable(t.String()),
  split: Split,
  status: t.Union([t.Literal('PENDING'), t.Literal('COUNTERED'), t.Literal('ACCEPTED'), t.Literal('DECLINED'), t.Literal('EXPIRED')]),
  awaiting: t.Union([t.Literal('OWNER'), t.Literal('REQUESTER'), t.Null()], { description: 'Whose answer it waits for: the listing’s broker (PENDING) or the requester (COUNTERED)' }),
  decline_reason: Nullable(t.String()),
  created_at: dateTime,
  expires_at: t.String({ format: 'date-time', description: 'Unanswered by then (72 hours after it was sent or countered), it is EXPIRED' }),
  answered_at: Nullable(dateTime),
  deal_id: Nullable(t.Integer()),
})
export type CobrokeRequest = typeof CobrokeRequest.static

export const STAGES = ['INTERESTED', 'SITE_VISIT', 'NEGOTIATING', 'CLOSED_WON', 'CLOSED_LOST', 'DISPUTED'] as const
const stage = () =>
  t.Union([t.Literal('INTERESTED'), t.Literal('SITE_VISIT'), t.Literal('NEGOTIATING'), t.Literal('CLOSED_WON'), t.Literal('CLOSED_LOST'), t.Literal('DISPUTED')], {
    errorMessage: { type: `Stage must be one of ${STAGES.join(', ')}` },
  })
export const DealMessage = t.Object({
  id: t.Integer(),
  author_id: Nullable(t.Integer()),
  author_name: Nullable(t.String()),
  kind: t.Union([t.Literal('MESSAGE'), t.Literal('STEP'), t.Literal('REVEAL')]),
  body: t.String(),
  created_at: dateTime,
})
export const Deal = t.Object({
  id: t.Integer(),
  request_id: t.Integer(),
  listing_id: Nullable(t.Integer()),
  requester_listing_id: Nullable(t.Integer()),
  owner_id: t.Integer(),
  owner_name: t.String(),
  requester_id: t.Integer(),
  requester_name: t.String(),
  city_id: t.Integer(),
  split: Split,
  stage: stage(),
  visit_at: Nullable(dateTime),
  owner_outcome: t.Union([t.Literal('WON'), t.Literal('LOST'), t.Null()]),
  requester_outcome: t.Union([t.Literal('WON'), t.Literal('LOST'), t.Null()]),
  lost_reason: Nullable(t.String()),
  created_at: dateTime,
  updated_at: dateTime,
  closed_at: Nullable(dateTime),
})
export type Deal = typeof Deal.static
export const DealWithThread = t.Object({ ...Deal.properties, messages: t.Array(DealMessage) })
export type DealWithThread = typeof DealWithThread.static

export const IdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
export const DealsQuery = t.Object({ stage: t.Optional(stage()) })

export const MessageBody = t.Object({
  body: text({ min: 1, max: 4000, multiline: true, messages: { required: 'Write a message', minLength: 'Write a message', maxLength: 'A message is at most 4000 characters' } }),
})
export const StageBody = t.Object({
  stage: t.Union([t.Literal('INTERESTED'), t.Literal('SITE_VISIT'), t.Literal('NEGOTIATING')], { errorMessage: { type: 'Stage must be INTERESTED, SITE_VISIT or NEGOTIATING (closing is POST …/close)' } }),
  visit_at: t.Optional(t.String({ format: 'date-time', description: 'With SITE_VISIT: when (both see it)', errorMessage: { format: 'visit_at must be a date and time (ISO 8601)' } })),
})
export const CloseBody = t.Object({
  outcome: t.Union([t.Literal('WON'), t.Literal('LOST')], { errorMessage: { type: 'Outcome must be WON or LOST' } }),
  reason: t.Optional(text({ max: 500, messages: { maxLength: 'The reason must be at most 500 characters' }, description: 'Required with LOST' })),
})
export const RevealBody = t.Object({
  fields: t.Array(t.Union([t.Literal('owner_name'), t.Literal('owner_phone'), t.Literal('address')]), { minItems: 1, maxItems: 3, uniqueItems: true }),
})
export type CloseBody = typeof CloseBody.static

/** A broker's record (issue 35): GET /api/brokers/{id}/record, shown on listings' details and the broker's profile. */
export const BrokerRecord = t.Object({
  user_id: t.Integer(),
  full_name: t.String(),
  verified_since: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'When their registration (and identity card) was approved; null when it is not' }),
  deals_closed: t.Integer({ description: 'Co-broke deals closed won through Brokernet' }),
  requests_received: t.Integer({ description: 'Co-broke requests on their listings no longer waiting for an answer' }),
  median_answer_minutes: t.Union([t.Integer(), t.Null()], { description: 'Median time from a request to their answer; null with none answered' }),
  answered_share: t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()], { description: 'Share of those they answered (the rest expired); null with none' }),
})
export type BrokerRecord = typeof BrokerRecord.static
