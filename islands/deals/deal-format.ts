import type { CobrokeRequest, Deal } from '../../src/modules/deals/model'
import type { LiveEventHandler } from '../shared/useLiveEvents'
import { DEAL_ACTION_TEXT } from './deal-action-text'

// Co-broking's screens (issue 35): words, labels and query keys, one place each.

export const DEALS_PAGE = '/dashboard/deals'
export const dealHref = (id: number) => `${DEALS_PAGE}/${id}`

/** Every deals query starts with this key: one invalidation (a `deal` event, a step taken here) reloads them all. */
export const DEAL_QUERY_KEYS = {
  all: ['deals'] as const,
  requests: ['deals', 'requests'] as const,
  list: ['deals', 'list'] as const,
  thread: (id: number) => ['deals', 'thread', id] as const,
}

/** Any co-broking step of this user, made anywhere (the other broker's answer, a message): read the deals again. */
export const reloadDeals: LiveEventHandler = (_data, queryClient) => void queryClient.invalidateQueries({ queryKey: DEAL_QUERY_KEYS.all })

export const DEAL_TEXT = {
  ...DEAL_ACTION_TEXT,
  requestTitle: 'Co-broke this listing',
  requestSent: 'Co-broke request sent',
  requestFailed: 'Could not send the request',
  reportTitle: 'Report this listing',
  reported: 'Report sent: thank you',
  reportFailed: 'Could not send the report',
  title: 'Deals',
  lead: 'Co-broke requests in and out, and the deals they opened with other brokers.',
  incoming: 'Requests for your listings',
  outgoing: 'Your requests',
  deals: 'Deals',
  noIncoming: 'No requests for your listings yet.',
  noOutgoing: 'You have sent no co-broke requests. Use “I have a client for this” on another broker’s listing or a match.',
  noDeals: 'No deals yet: an accepted request opens one.',
  answerFailed: 'Could not answer the request',
  stepFailed: 'Could not save that step',
  loadFailed: 'Could not load deals',
}

export const STAGE_LABELS: Record<Deal['stage'], string> = {
  INTERESTED: 'Interested',
  SITE_VISIT: 'Site visit',
  NEGOTIATING: 'Negotiating',
  CLOSED_WON: 'Closed won',
  CLOSED_LOST: 'Closed lost',
  DISPUTED: 'Disputed',
}

export const stageBadge = (stage: Deal['stage']) =>
  stage === 'CLOSED_WON' ? 'badge-success' : stage === 'CLOSED_LOST' ? 'badge-neutral' : stage === 'DISPUTED' ? 'badge-error' : 'badge-info'

export const REQUEST_LABELS: Record<CobrokeRequest['status'], string> = {
  PENDING: 'Waiting for an answer',
  COUNTERED: 'Countered',
  ACCEPTED: 'Accepted',
  DECLINED: 'Declined',
  EXPIRED: 'Expired',
}

export const REPORT_REASONS = [
  { value: 'SOLD_OR_RENTED', label: 'Already sold or rented' },
  { value: 'NO_RESPONSE', label: 'The broker does not respond' },
  { value: 'WRONG_DETAILS', label: 'Wrong details' },
  { value: 'FAKE', label: 'Fake listing' },
] as const
export type ReportReason = (typeof REPORT_REASONS)[number]['value']

export const REVEAL_FIELDS = [
  { value: 'owner_name', label: 'Owner’s name' },
  { value: 'owner_phone', label: 'Owner’s phone' },
  { value: 'address', label: 'Exact address' },
] as const
export type RevealField = (typeof REVEAL_FIELDS)[number]['value']

/** A split in words from the requester's side: "50% / 50%" or "Flat fee 25,000". */
export function splitText(split: CobrokeRequest['split']): string {
  if (split.kind === 'FLAT') return `Flat fee ${Number(split.flat_fee).toLocaleString('en-IN')}`
  return `${split.requester_percent}% requester / ${split.owner_percent}% listing broker`
}

/** A moment as the server renders it (UTC, fixed) and the browser, once hydrated, in the user's own time. */
const UTC = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
const LOCAL = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })
export const formatMoment = (iso: string, local: boolean) => (local ? LOCAL.format(new Date(iso)) : `${UTC.format(new Date(iso))} UTC`)

/** The other party of a request or deal, as the viewer sees it. */
export const otherParty = (x: { owner_id: number; owner_name: string; requester_name: string }, viewerId: number) => (x.owner_id === viewerId ? x.requester_name : x.owner_name)
