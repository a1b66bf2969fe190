import type { AppContext } from '../../platform/context'
import { conflict, fieldError, notFound } from '../../platform/errors'
import { scopeOf, type Scope } from '../../platform/policy/scope'
import { recordAudit } from '../audit/service'
import type { AfterListingWrite } from '../listings/after-write'
import { readPrivate } from '../listings/store/private'
import { getListing } from '../listings/store/read'
import { updateListing } from '../listings/service'
import { brokerOf, namesOf } from '../users/store'
import { firstAuditAt } from '../audit/read'
import { entryAs, type DealAlert, type DealPush } from './push'
import type { CloseBody, CobrokeRequest, CounterBody, Deal, DealWithThread, RequestBody } from './model'
import {
  addMessage,
  dealIn,
  dealsIn,
  expireDue,
  insertDeal,
  insertRequest,
  messagesOf,
  recordOf,
  openRequestFor,
  requestIn,
  requestsIn,
  updateDeal,
  updateRequest,
  type DealRow,
  type RequestRow,
} from './store'

/** Who acts: a broker (their own requests and deals) or an admin reading their city's (or every) deal. */
export type Party = { id: number; role: 'MASTER_ADMIN' | 'MODULE_ADMIN' | 'BROKER'; cityId: number | null; fullName: string }

/** An unanswered request expires after 72 hours (issue 35). */
export const ANSWER_WITHIN_MS = 72 * 3_600_000

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())
const readScope = (p: Party): Scope => scopeOf(p, 'deal', 'read')
const manageScope = (p: Party): Scope => scopeOf(p, 'deal', 'manage')
const actorOf = (p: Party) => ({ id: p.id, fullName: p.fullName })

const splitOf = (r: { split_kind: 'PERCENT' | 'FLAT'; requester_percent: number | null; flat_fee: number | null }) => ({
  kind: r.split_kind,
  requester_percent: r.split_kind === 'PERCENT' ? Number(r.requester_percent) : null,
  owner_percent: r.split_kind === 'PERCENT' ? 100 - Number(r.requester_percent) : null,
  flat_fee: r.split_kind === 'FLAT' ? Number(r.flat_fee) : null,
})
const splitText = (r: Parameters<typeof splitOf>[0]) => (r.split_kind === 'FLAT' ? `a flat fee of ${Number(r.flat_fee)}` : `${r.requester_percent}/${100 - Number(r.requester_percent)}`)

/** A body's split: a flat fee, or the requester's percent (50 when none is said). */
function splitFrom(body: CounterBody): Pick<RequestRow, 'split_kind' | 'requester_percent' | 'flat_fee'> {
  if (body.flat_fee !== undefined && body.requester_percent !== undefined) throw fieldError('flat_fee', 'Propose a split or a flat fee, not both')
  if (body.flat_fee !== undefined) return { split_kind: 'FLAT', requester_percent: null, flat_fee: body.flat_fee }
  return { split_kind: 'PERCENT', requester_percent: body.requester_percent ?? 50, flat_fee: null }
}

async function names(ctx: AppContext, ids: number[]) {
  return namesOf(ctx.db, [...new Set(ids.map(Number))])
}

async function requestView(ctx: AppContext, rows: RequestRow[], viewer: Party): Promise<CobrokeRequest[]> {
  const who = await names(ctx, rows.flatMap((r) => [r.owner_id, r.requester_id]))
  const out: CobrokeRequest[] = []
  for (const r of rows) {
    // The listing as the viewer may see it (its entry ID only); gone or hidden: null.
    const listing = await getListing(ctx.db, viewer, Number(r.listing_id)).catch(() => null)
    out.push({
      id: Number(r.id),
      listing_id: r.listing_id === null ? null : Number(r.listing_id),
      listing_entry_id: listing?.entry_id ?? null,
      requester_listing_id: r.requester_listing_id === null ? null : Number(r.requester_listing_id),
      owner_id: Number(r.owner_id),
      owner_name: who.get(Number(r.owner_id)) ?? '',
      requester_id: Number(r.requester_id),
      requester_name: who.get(Number(r.requester_id)) ?? '',
      message: r.message,
      split: splitOf(r),
      status: r.status,
      awaiting: r.status === 'PENDING' ? 'OWNER' : r.status === 'COUNTERED' ? 'REQUESTER' : null,
      decline_reason: r.decline_reason,
      created_at: iso(r.created_at)!,
      expires_at: iso(r.expires_at)!,
      answered_at: iso(r.answered_at),
      deal_id: r.deal_id === null ? null : Number(r.deal_id),
    })
  }
  return out
}

async function dealView(ctx: AppContext, rows: DealRow[]): Promise<Deal[]> {
  const who = await names(ctx, rows.flatMap((d) => [d.owner_id, d.requester_id]))
  return rows.map((d) => ({
    id: Number(d.id),
    request_id: Number(d.request_id),
    listing_id: d.listing_id === null ? null : Number(d.listing_id),
    requester_listing_id: d.requester_listing_id === null ? null : Number(d.requester_listing_id),
    owner_id: Number(d.owner_id),
    owner_name: who.get(Number(d.owner_id)) ?? '',
    requester_id: Number(d.requester_id),
    requester_name: who.get(Number(d.requester_id)) ?? '',
    city_id: Number(d.city_id),
    split: splitOf(d),
    stage: d.stage,
    visit_at: iso(d.visit_at),
    owner_outcome: d.owner_outcome,
    requester_outcome: d.requester_outcome,
    lost_reason: d.lost_reason,
    created_at: iso(d.created_at)!,
    updated_at: iso(d.updated_at)!,
    closed_at: iso(d.closed_at),
  }))
}

const audit = (ctx: AppContext, tx: Parameters<typeof recordAudit>[0], p: Party, action: string, entityType: string, id: number, cityId: number, after?: unknown, reason?: string | null, now = Date.now()) =>
  recordAudit(tx, { actor: actorOf(p), action, entityType, entityId: id, cityId, after, reason }, now)

/** The other broker of a request or deal. */
const otherOf = (row: { owner_id: number; requester_id: number }, p: Party) => Number(p.id === Number(row.owner_id) ? row.requester_id : row.owner_id)

// ---------------------------------------------------------------------------------------------------------------
// Requests

/** "I have a client for this": a request to the listing's broker, naming the requester's own listing when given. */
export async function sendRequest(ctx: AppContext, push: DealPush, p: Party, listingId: number, body: RequestBody, now = Date.now()): Promise<CobrokeRequest> {
  const listing = await getListing(ctx.db, p, listingId)
  if (listing.owner_user_id === p.id) throw conflict('This is your own listing')
  if (listing.status !== 'ACTIVE') throw conflict(`Only an active listing takes co-broke requests; this one is ${listing.status}`)
  let requesterListingId: number | null = null
  if (body.requester_listing_id !== undefined) {
    const mine = await getListing(ctx.db, p, body.requester_listing_id).catch(() => null)
    if (!mine || mine.owner_user_id !== p.id) throw fieldError('requester_listing_id', 'Name one of your own listings')
    if (mine.post_type === listing.post_type) throw fieldError('requester_listing_id', `Name your ${listing.post_type === 'AVL' ? 'requirement' : 'availability'} for this ${listing.post_type === 'AVL' ? 'availability' : 'requirement'}`)
    requesterListingId = mine.id
  }
  await expireDue(ctx.db, now)
  if (await openRequestFor(ctx.db, listing.id, p.id)) throw conflict('You already have an open request for this listing')
  const split = splitFrom(body)
  const id = await ctx.db.tx(async (tx) => {
    const id = await insertRequest(tx, {
      listing_id: listing.id,
      requester_listing_id: requesterListingId,
      owner_id: listing.owner_user_id,
      requester_id: p.id,
      city_id: listing.city_id,
      message: body.message?.trim() || null,
      ...split,
      status: 'PENDING',
      created_at: now,
      expires_at: now + ANSWER_WITHIN_MS,
    })
    await audit(ctx, tx, p, 'cobroke.request', 'cobroke_request', id, listing.city_id, { listing_id: listing.id, requester_listing_id: requesterListingId, split: splitOf(split) }, null, now)
    await push(tx, [{ to: listing.owner_user_id, step: 'request', entry: listing.entry_id, request: id }])
    return id
  })
  return (await getRequest(ctx, p, id))!
}

export async function listRequests(ctx: AppContext, p: Party, now = Date.now()): Promise<CobrokeRequest[]> {
  await expireDue(ctx.db, now)
  return requestView(ctx, await requestsIn(ctx.db, readScope(p)), p)
}

export async function getRequest(ctx: AppContext, p: Party, id: number): Promise<CobrokeRequest> {
  const row = await requestIn(ctx.db, readScope(p), id)
  if (!row) throw notFound('Request not found')
  return (await requestView(ctx, [row], p))[0]!
}

/** The request as its party may answer it: 404 for anyone else, 409 when it is not theirs to answer now. */
async function answerable(ctx: AppContext, p: Party, id: number, now: number): Promise<RequestRow> {
  await expireDue(ctx.db, now)
  const row = await requestIn(ctx.db, manageScope(p), id)
  if (!row) throw notFound('Request not found')
  const turn = row.status === 'PENDING' ? Number(row.owner_id) : row.status === 'COUNTERED' ? Number(row.requester_id) : null
  if (turn === null) throw conflict(`This request is ${row.status.toLowerCase()}`)
  if (turn !== p.id) throw conflict(row.status === 'PENDING' ? 'The listing’s broker answers this request' : 'The requester answers this counter-offer')
  return row
}

/** Accepted: the split is locked and a deal opens between the two brokers. */
export async function acceptRequest(ctx: AppContext, push: DealPush, p: Party, id: number, now = Date.now()): Promise<DealWithThread> {
  const row = await answerable(ctx, p, id, now)
  const to = otherOf(row, p)
  const entry = await entryAs(ctx.db, to, row.listing_id)
  const dealId = await ctx.db.tx(async (tx) => {
    // answered_at: the listing's broker's answer (a counter-offer's time stays, for their record).
    if (!(await updateRequest(tx, id, row.status, { status: 'ACCEPTED', answered_at: row.answered_at ?? now }))) throw conflict('This request changed meanwhile: look at it again')
    const dealId = await insertDeal(tx, {
      request_id: row.id,
      listing_id: row.listing_id,
      requester_listing_id: row.requester_listing_id,
      owner_id: row.owner_id,
      requester_id: row.requester_id,
      city_id: row.city_id,
      split_kind: row.split_kind,
      requester_percent: row.requester_percent,
      flat_fee: row.flat_fee,
      stage: 'INTERESTED',
      created_at: now,
      updated_at: now,
    })
    if (row.message) await addMessage(tx, dealId, Number(row.requester_id), 'MESSAGE', row.message, now)
    await addMessage(tx, dealId, p.id, 'STEP', `${p.fullName} accepted the co-broke: split ${splitText(row)}, locked`, now)
    await audit(ctx, tx, p, 'cobroke.accept', 'cobroke_request', id, Number(row.city_id), { deal_id: dealId, split: splitOf(row) }, null, now)
    await push(tx, [{ to, step: row.status === 'PENDING' ? 'accepted' : 'counterAccepted', entry, deal: dealId }])
    return dealId
  })
  return getDeal(ctx, p, dealId)
}

/** The listing's broker proposes another split; the requester then accepts or declines (72 hours again). */
export async function counterRequest(ctx: AppContext, push: DealPush, p: Party, id: number, body: CounterBody, now = Date.now()): Promise<CobrokeRequest> {
  const row = await answerable(ctx, p, id, now)
  if (row.status !== 'PENDING') throw conflict('A counter-offer is answered by accepting or declining it')
  const split = splitFrom(body)
  const to = otherOf(row, p)
  const entry = await entryAs(ctx.db, to, row.listing_id)
  await ctx.db.tx(async (tx) => {
    if (!(await updateRequest(tx, id, 'PENDING', { ...split, status: 'COUNTERED', answered_at: now, expires_at: now + ANSWER_WITHIN_MS })))
      throw conflict('This request changed meanwhile: look at it again')
    await audit(ctx, tx, p, 'cobroke.counter', 'cobroke_request', id, Number(row.city_id), { split: splitOf(split) }, null, now)
    await push(tx, [{ to, step: 'countered', entry, request: id }])
  })
  return getRequest(ctx, p, id)
}

export async function declineRequest(ctx: AppContext, push: DealPush, p: Party, id: number, reason: string, now = Date.now()): Promise<CobrokeRequest> {
  const row = await answerable(ctx, p, id, now)
  const why = reason.trim()
  if (!why) throw fieldError('reason', 'Say why you decline')
  const to = otherOf(row, p)
  const entry = await entryAs(ctx.db, to, row.listing_id)
  await ctx.db.tx(async (tx) => {
    if (!(await updateRequest(tx, id, row.status, { status: 'DECLINED', decline_reason: why, answered_at: row.answered_at ?? now }))) throw conflict('This request changed meanwhile: look at it again')
    await audit(ctx, tx, p, 'cobroke.decline', 'cobroke_request', id, Number(row.city_id), undefined, why, now)
    await push(tx, [{ to, step: row.status === 'PENDING' ? 'declined' : 'counterDeclined', entry, request: id }])
  })
  return getRequest(ctx, p, id)
}

// ---------------------------------------------------------------------------------------------------------------
// Deals

export async function listDeals(ctx: AppContext, p: Party, stage?: string): Promise<Deal[]> {
  return dealView(ctx, await dealsIn(ctx.db, readScope(p), stage))
}

export async function getDeal(ctx: AppContext, p: Party, id: number): Promise<DealWithThread> {
  const row = await dealIn(ctx.db, readScope(p), id)
  if (!row) throw notFound('Deal not found')
  const messages = await messagesOf(ctx.db, id)
  const who = await names(ctx, messages.flatMap((m) => (m.author_id === null ? [] : [m.author_id])))
  return {
    ...(await dealView(ctx, [row]))[0]!,
    messages: messages.map((m) => ({
      id: Number(m.id),
      author_id: m.author_id === null ? null : Number(m.author_id),
      author_name: m.author_id === null ? null : (who.get(Number(m.author_id)) ?? null),
      kind: m.kind,
      body: m.body,
      created_at: iso(m.created_at)!,
    })),
  }
}

const CLOSED = new Set(['CLOSED_WON', 'CLOSED_LOST'])

/** A deal its party acts in: 404 for anyone else (an admin reads deals, never acts in them). */
async function ownDeal(ctx: AppContext, p: Party, id: number): Promise<DealRow> {
  const row = await dealIn(ctx.db, manageScope(p), id)
  if (!row) throw notFound('Deal not found')
  return row
}

/** What a step of a deal tells the other broker's devices (./push.ts): the step, and what it names. */
type Told = { push: DealPush; step: DealAlert['step']; extra?: string }

/** The push alert of a deal's step, to the broker who did not take it. */
async function toOther(ctx: AppContext, p: Party, row: DealRow, told: Told): Promise<DealAlert> {
  const to = otherOf(row, p)
  return { to, step: told.step, extra: told.extra, entry: await entryAs(ctx.db, to, row.listing_id), deal: Number(row.id) }
}

/**
 * One change of a deal with its line in the thread, the audit trail and the other broker's push, refused if the deal
 * changed meanwhile.
 */
async function step(ctx: AppContext, told: Told, p: Party, row: DealRow, changes: Partial<DealRow>, line: string, action: string, now: number, reason?: string | null) {
  const alert = await toOther(ctx, p, row, told)
  await ctx.db.tx(async (tx) => {
    if (!(await updateDeal(tx, row.id, Number(row.updated_at), { ...changes, updated_at: Math.max(now, Number(row.updated_at) + 1) }))) throw conflict('This deal changed meanwhile: look at it again')
    await addMessage(tx, row.id, p.id, 'STEP', line, now)
    await audit(ctx, tx, p, action, 'deal', row.id, Number(row.city_id), changes, reason, now)
    await told.push(tx, [alert])
  })
}

export async function postMessage(ctx: AppContext, push: DealPush, p: Party, id: number, body: string, now = Date.now()): Promise<DealWithThread> {
  const row = await ownDeal(ctx, p, id)
  // The push says a message came, never its text (it may hold what the thread alone should).
  const alert = await toOther(ctx, p, row, { push, step: 'message' })
  await ctx.db.tx(async (tx) => {
    await addMessage(tx, row.id, p.id, 'MESSAGE', body.trim(), now)
    await audit(ctx, tx, p, 'deal.message', 'deal', row.id, Number(row.city_id), undefined, null, now)
    await push(tx, [alert])
  })
  return getDeal(ctx, p, id)
}

const STAGE_WORDS = { INTERESTED: 'Interested', SITE_VISIT: 'Site visit', NEGOTIATING: 'Negotiating' } as const

/** Interested → Site visit (with its date and time) → Negotiating, by either broker; closing is `confirmClose`. */
export async function setStage(ctx: AppContext, push: DealPush, p: Party, id: number, stage: keyof typeof STAGE_WORDS, visitAt: string | undefined, now = Date.now()): Promise<DealWithThread> {
  const row = await ownDeal(ctx, p, id)
  if (CLOSED.has(row.stage) || row.stage === 'DISPUTED') throw conflict(`This deal is ${row.stage === 'DISPUTED' ? 'disputed' : 'closed'}: its stage does not move`)
  let visit: number | null = row.visit_at
  if (stage === 'SITE_VISIT') {
    if (!visitAt) throw fieldError('visit_at', 'Say when the site visit is')
    visit = Date.parse(visitAt)
    if (!(visit > now)) throw fieldError('visit_at', 'The site visit must be in the future')
  }
  const when = stage === 'SITE_VISIT' ? ` on ${new Date(visit!).toISOString()}` : ''
  await step(ctx, { push, step: 'stage', extra: STAGE_WORDS[stage] }, p, row, { stage, visit_at: visit, ...(visit !== row.visit_at ? { visit_reminded_at: null } : {}) }, `${p.fullName} moved the deal to ${STAGE_WORDS[stage]}${when}`, 'deal.stage', now)
  return getDeal(ctx, p, id)
}

const REVEAL_WORDS = { owner_name: 'Owner’s name', owner_phone: 'Owner’s phone', address: 'Exact address' } as const

/**
 * A staged reveal (issue 35): a broker shows the other some private fields of their own listing in the deal, at the
 * step they choose (e.g. the owner's phone after the site visit). The values are read through the private store as
 * that broker (their scope), and written into this deal's thread, which only its two brokers and its city's admins read.
 */
export async function reveal(ctx: AppContext, push: DealPush, p: Party, id: number, fields: (keyof typeof REVEAL_WORDS)[], now = Date.now()): Promise<DealWithThread> {
  const row = await ownDeal(ctx, p, id)
  const listingId = p.id === Number(row.owner_id) ? row.listing_id : row.requester_listing_id
  if (listingId === null) throw conflict('You named no listing of yours in this deal: there is nothing of yours to reveal')
  const values = await readPrivate(ctx.db, p, Number(listingId))
  const lines = fields.map((f) => `${REVEAL_WORDS[f]}: ${values?.[f] ?? '(not saved)'}`)
  const alert = await toOther(ctx, p, row, { push, step: 'reveal' })
  await ctx.db.tx(async (tx) => {
    await addMessage(tx, row.id, p.id, 'REVEAL', `${p.fullName} revealed\n${lines.join('\n')}`, now)
    // The trail names what was revealed, never the values; so does the push (that something was).
    await audit(ctx, tx, p, 'deal.reveal', 'deal', row.id, Number(row.city_id), { fields }, null, now)
    await push(tx, [alert])
  })
  return getDeal(ctx, p, id)
}

/**
 * Each broker confirms the outcome (LOST with a reason). Both the same: closed; different: DISPUTED, shown to the
 * admins of its city, the thread kept whole (either may confirm again to settle it). A deal closed won closes the
 * listings in it (SALE) or puts them ON_HOLD (RENT), each in its broker's name, as the listings' own rules allow.
 */
export async function confirmClose(ctx: AppContext, push: DealPush, written: AfterListingWrite, p: Party, id: number, body: CloseBody, now = Date.now()): Promise<DealWithThread> {
  const row = await ownDeal(ctx, p, id)
  if (CLOSED.has(row.stage)) throw conflict('This deal is closed')
  const reason = body.reason?.trim() || null
  if (body.outcome === 'LOST' && !reason) throw fieldError('reason', 'Say why the deal was lost')
  const mine = p.id === Number(row.owner_id) ? 'owner_outcome' : 'requester_outcome'
  const outcomes = { owner_outcome: row.owner_outcome, requester_outcome: row.requester_outcome, [mine]: body.outcome }
  const both = outcomes.owner_outcome !== null && outcomes.requester_outcome !== null
  const stage: DealRow['stage'] = !both ? row.stage : outcomes.owner_outcome === outcomes.requester_outcome ? (body.outcome === 'WON' ? 'CLOSED_WON' : 'CLOSED_LOST') : 'DISPUTED'
  const changes: Partial<DealRow> = { [mine]: body.outcome, stage, ...(reason && body.outcome === 'LOST' ? { lost_reason: reason } : {}), ...(CLOSED.has(stage) ? { closed_at: now } : {}) }
  const line =
    stage === 'DISPUTED'
      ? `${p.fullName} confirmed ${body.outcome}; the other broker said otherwise: disputed, shown to the admins of the city`
      : CLOSED.has(stage)
        ? `${p.fullName} confirmed ${body.outcome}: the deal is closed ${body.outcome === 'WON' ? 'won' : 'lost'}`
        : `${p.fullName} confirmed ${body.outcome}${reason ? ` (${reason})` : ''}; waiting for the other broker`
  const outcome = body.outcome === 'WON' ? 'won' : 'lost'
  const told: Told = stage === 'DISPUTED' ? { push, step: 'disputed' } : CLOSED.has(stage) ? { push, step: 'closed', extra: outcome } : { push, step: 'confirmed', extra: outcome }
  await step(ctx, told, p, row, changes, line, stage === 'DISPUTED' ? 'deal.dispute' : CLOSED.has(stage) ? 'deal.close' : 'deal.confirm', now, reason)
  if (stage === 'CLOSED_WON') await closeListings(ctx, written, row, now)
  return getDeal(ctx, p, id)
}

/** A won deal's listings: CLOSED for a sale, ON_HOLD for a rent, each changed in its own broker's name. */
async function closeListings(ctx: AppContext, written: AfterListingWrite, row: DealRow, now: number): Promise<void> {
  const who = await names(ctx, [row.owner_id, row.requester_id])
  for (const [listingId, brokerId] of [
    [row.listing_id, row.owner_id],
    [row.requester_listing_id, row.requester_id],
  ] as const) {
    if (listingId === null) continue
    const broker = { id: Number(brokerId), role: 'BROKER' as const, cityId: Number(row.city_id), fullName: who.get(Number(brokerId)) ?? '' }
    const note = async (text: string) => ctx.db.tx((tx) => addMessage(tx, row.id, null, 'STEP', text, now))
    try {
      const listing = await getListing(ctx.db, broker, Number(listingId))
      if (listing.owner_user_id !== broker.id) continue
      const status = listing.sale_or_rent === 'SALE' ? 'CLOSED' : 'ON_HOLD'
      if (listing.status !== status) await updateListing(ctx, written, broker, listing.id, { status })
      await note(`${listing.entry_id} is now ${status === 'CLOSED' ? 'closed' : 'on hold'}`)
    } catch (e) {
      // A listing suspended or gone meanwhile keeps its state; the thread says so.
      await note(`Listing ${listingId} could not be closed: ${(e as Error).message}`)
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A broker's record

/**
 * A broker's record (issue 35), for anyone who sees listings: verified (identity approved) since, deals closed won
 * through Brokernet, the median time to answer a co-broke request, and the share of requests answered (of those no
 * longer waiting: answered, or expired unanswered).
 */
export async function brokerRecord(ctx: AppContext, id: number) {
  const broker = await brokerOf(ctx.db, id)
  if (!broker) throw notFound('Broker not found')
  const approvedAt = broker.approved ? ((await firstAuditAt(ctx.db, 'user', id, ['user.approve', 'user.create'])) ?? broker.createdAt) : null
  const r = await recordOf(ctx.db, id)
  const times = [...r.answerTimes].sort((a, b) => a - b)
  const median = times.length === 0 ? null : times.length % 2 ? times[(times.length - 1) / 2]! : (times[times.length / 2 - 1]! + times[times.length / 2]!) / 2
  return {
    user_id: broker.id,
    full_name: broker.fullName,
    verified_since: iso(approvedAt),
    deals_closed: r.closedWon,
    requests_received: r.received,
    median_answer_minutes: median === null ? null : Math.round(median / 60_000),
    answered_share: r.received === 0 ? null : Math.round((r.answerTimes.length / r.received) * 100) / 100,
  }
}
