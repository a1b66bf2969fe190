import type { Clause, Param, Queryable } from '../../../db/sql'
import { scopeOf, type Scope, type ScopeActor } from '../../platform/policy/scope'

// The only SQL of the co-broking tables (issue 35): cobroke_requests, deals, deal_messages.

export type RequestRow = {
  id: number
  listing_id: number
  requester_listing_id: number | null
  owner_id: number
  requester_id: number
  city_id: number
  message: string | null
  split_kind: 'PERCENT' | 'FLAT'
  requester_percent: number | null
  flat_fee: number | null
  status: 'PENDING' | 'COUNTERED' | 'ACCEPTED' | 'DECLINED' | 'EXPIRED'
  decline_reason: string | null
  created_at: number
  answered_at: number | null
  expires_at: number
  deal_id: number | null
}

export type DealRow = {
  id: number
  request_id: number
  listing_id: number | null
  requester_listing_id: number | null
  owner_id: number
  requester_id: number
  city_id: number
  split_kind: 'PERCENT' | 'FLAT'
  requester_percent: number | null
  flat_fee: number | null
  stage: 'INTERESTED' | 'SITE_VISIT' | 'NEGOTIATING' | 'CLOSED_WON' | 'CLOSED_LOST' | 'DISPUTED'
  visit_at: number | null
  visit_reminded_at?: number | null
  owner_outcome: 'WON' | 'LOST' | null
  requester_outcome: 'WON' | 'LOST' | null
  lost_reason: string | null
  created_at: number
  updated_at: number
  closed_at: number | null
}

export type MessageRow = { id: number; author_id: number | null; kind: 'MESSAGE' | 'STEP' | 'REVEAL'; body: string; created_at: number }

/** The deal scope as SQL over a table with owner_id, requester_id and city_id: a party, a city, everything. */
export function partyWhere(s: Scope, alias: string): Clause {
  switch (s.kind) {
    case 'all':
      return { sql: 'true', params: [] }
    case 'city':
      return { sql: `${alias}.city_id = ?`, params: [s.cityId] }
    case 'own':
    case 'all-but-others-hidden':
      return { sql: `(${alias}.owner_id = ? or ${alias}.requester_id = ?)`, params: [s.userId, s.userId] }
    case 'none':
      return { sql: 'false', params: [] }
  }
}

const REQUEST = `r.id, r.listing_id, r.requester_listing_id, r.owner_id, r.requester_id, r.city_id, r.message, r.split_kind, r.requester_percent,
  r.flat_fee, r.status, r.decline_reason, r.created_at, r.answered_at, r.expires_at, (select d.id from deals d where d.request_id = r.id) as deal_id`

/** Requests unanswered past their time are EXPIRED, as of now (each read and answer runs this first). */
export const expireDue = async (db: Queryable, now: number): Promise<void> => {
  await db.run("update cobroke_requests set status = 'EXPIRED', answered_at = expires_at where status in ('PENDING', 'COUNTERED') and expires_at <= ?", [now])
}

export const requestsIn = (db: Queryable, scope: Scope): Promise<RequestRow[]> => {
  const where = partyWhere(scope, 'r')
  return db.all<RequestRow>(`select ${REQUEST} from cobroke_requests r where ${where.sql} order by r.id desc limit 500`, where.params)
}

export const requestIn = async (db: Queryable, scope: Scope, id: number): Promise<RequestRow | null> => {
  const where = partyWhere(scope, 'r')
  return (await db.get<RequestRow>(`select ${REQUEST} from cobroke_requests r where r.id = ? and ${where.sql}`, [id, ...where.params])) ?? null
}

/**
 * Which of these requests or deals the user reads now (the deal scope: one of its two brokers, an admin of its city):
 * the push guard's question before an alert about one leaves (issue 33's scope at send time).
 */
export async function readableCobroking(db: Queryable, user: ScopeActor, table: 'cobroke_requests' | 'deals', ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return []
  const where = partyWhere(scopeOf(user, 'deal', 'read'), 't')
  const rows = await db.all<{ id: number }>(`select t.id from ${table} t where t.id in (${ids.map(() => '?').join(', ')}) and ${where.sql}`, [...ids, ...where.params])
  return rows.map((r) => Number(r.id))
}

/** An open request (PENDING or COUNTERED) of this requester for this listing, if any. */
export const openRequestFor = async (db: Queryable, listingId: number, requesterId: number): Promise<number | null> =>
  (await db.get<{ id: number }>("select id from cobroke_requests where listing_id = ? and requester_id = ? and status in ('PENDING', 'COUNTERED')", [listingId, requesterId]))?.id ?? null

export async function insertRequest(tx: Queryable, r: Omit<RequestRow, 'id' | 'deal_id' | 'answered_at' | 'decline_reason'>): Promise<number> {
  const cols = Object.keys(r)
  const { rows } = await tx.run<{ id: number }>(`insert into cobroke_requests (${cols.join(', ')}) values (${cols.map(() => '?').join(', ')}) returning id`, Object.values(r) as Param[])
  return Number(rows[0]!.id)
}

/** Moves a request on from the status it was read in; false when it changed meanwhile. */
export async function updateRequest(tx: Queryable, id: number, from: RequestRow['status'], changes: Partial<RequestRow>): Promise<boolean> {
  const cols = Object.keys(changes)
  const { changes: n } = await tx.run(`update cobroke_requests set ${cols.map((c) => `${c} = ?`).join(', ')} where id = ? and status = ?`, [...(Object.values(changes) as Param[]), id, from])
  return n > 0
}

export async function insertDeal(tx: Queryable, d: Omit<DealRow, 'id' | 'visit_at' | 'owner_outcome' | 'requester_outcome' | 'lost_reason' | 'closed_at'>): Promise<number> {
  const cols = Object.keys(d)
  const { rows } = await tx.run<{ id: number }>(`insert into deals (${cols.join(', ')}) values (${cols.map(() => '?').join(', ')}) returning id`, Object.values(d) as Param[])
  return Number(rows[0]!.id)
}

export const dealsIn = (db: Queryable, scope: Scope, stage?: string): Promise<DealRow[]> => {
  const where = partyWhere(scope, 'd')
  return db.all<DealRow>(`select d.* from deals d where ${where.sql}${stage ? ' and d.stage = ?' : ''} order by d.updated_at desc, d.id desc limit 500`, stage ? [...where.params, stage] : where.params)
}

export const dealIn = async (db: Queryable, scope: Scope, id: number): Promise<DealRow | null> => {
  const where = partyWhere(scope, 'd')
  return (await db.get<DealRow>(`select d.* from deals d where d.id = ? and ${where.sql}`, [id, ...where.params])) ?? null
}

/** Changes a deal read at `updatedAt`; false when another change came first (the caller reads it again). */
export async function updateDeal(tx: Queryable, id: number, updatedAt: number, changes: Partial<DealRow>): Promise<boolean> {
  const cols = Object.keys(changes)
  const { changes: n } = await tx.run(`update deals set ${cols.map((c) => `${c} = ?`).join(', ')} where id = ? and updated_at = ?`, [...(Object.values(changes) as Param[]), id, updatedAt])
  return n > 0
}

export const messagesOf = (db: Queryable, dealId: number): Promise<MessageRow[]> =>
  db.all<MessageRow>('select id, author_id, kind, body, created_at from deal_messages where deal_id = ? order by id', [dealId])

export async function addMessage(tx: Queryable, dealId: number, authorId: number | null, kind: MessageRow['kind'], body: string, now: number): Promise<void> {
  await tx.run('insert into deal_messages (deal_id, author_id, kind, body, created_at) values (?, ?, ?, ?, ?)', [dealId, authorId, kind, body, now])
}

/** Deals with a site visit in the next 24 hours whose brokers were not reminded of it yet. */
export const visitsDue = (db: Queryable, now: number): Promise<DealRow[]> =>
  db.all<DealRow>("select d.* from deals d where d.stage = 'SITE_VISIT' and d.visit_reminded_at is null and d.visit_at > ? and d.visit_at <= ?", [now, now + 86_400_000])

/** Claims a deal's visit reminder (once, whichever process looks first): false when it was claimed already. */
export const claimVisitReminder = async (tx: Queryable, id: number, now: number): Promise<boolean> =>
  (await tx.run('update deals set visit_reminded_at = ? where id = ? and visit_reminded_at is null', [now, id])).changes > 0

/** A broker's co-broking figures: deals closed won, requests received, and how long each answered one took (ms). */
export async function recordOf(db: Queryable, brokerId: number): Promise<{ closedWon: number; received: number; answerTimes: number[] }> {
  const won = await db.get<{ n: number }>("select count(*) as n from deals where stage = 'CLOSED_WON' and (owner_id = ? or requester_id = ?)", [brokerId, brokerId])
  const received = await db.all<{ status: string; created_at: number; answered_at: number | null }>(
    "select status, created_at, answered_at from cobroke_requests where owner_id = ? and status <> 'PENDING'",
    [brokerId],
  )
  const answered = received.filter((r) => r.status !== 'EXPIRED' && r.answered_at !== null)
  return { closedWon: Number(won!.n), received: received.length, answerTimes: answered.map((r) => Number(r.answered_at) - Number(r.created_at)) }
}
