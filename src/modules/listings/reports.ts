import type { AppContext } from '../../platform/context'
import { conflict, forbidden, notFound } from '../../platform/errors'
import { scopeOf } from '../../platform/policy/scope'
import { recordAudit } from '../audit/service'
import { namesOf } from '../users/store'
import type { AfterListingWrite } from './after-write'
import { getListing } from './store/read'
import { listingRow } from './store'
import { answerOpenReports, insertReport, openReporters, openReports, reportedOffAt, reportersAnsweredAvailable as answeredAvailable, settleReports, takeOffNetwork } from './store/reports'
import { canEdit, type Viewer } from './store/where'

// Keeping the network true (issue 35): brokers report a listing (sold or rented, no response, wrong details, fake). One
// broker's reports of one listing count once; three brokers' open reports take it off the network (SUSPENDED, hidden
// from other brokers as every suspended listing is, `reported_off_at` set) until its broker answers: still available
// (ACTIVE again, the reports answered so: admins see the brokers whose reports keep being answered so) or closed.

export const REPORTS_TO_TAKE_OFF = 3
export const REPORT_REASONS = ['SOLD_OR_RENTED', 'NO_RESPONSE', 'WRONG_DETAILS', 'FAKE'] as const
export type ReportReason = (typeof REPORT_REASONS)[number]

type Actor = Viewer & { fullName: string }

/** A broker's report; the third broker's takes the listing off the network. Answers how many brokers report it now. */
export async function reportListing(ctx: AppContext, written: AfterListingWrite, actor: Actor, id: number, reason: ReportReason, note: string | undefined, now = Date.now()) {
  const listing = await getListing(ctx.db, actor, id)
  if (listing.owner_user_id === actor.id) throw conflict('This is your own listing')
  if (listing.status !== 'ACTIVE') throw conflict(`Only a listing on the network is reported; this one is ${listing.status}`)
  const result = await ctx.db.tx(async (tx) => {
    const recorded = await insertReport(tx, { listingId: id, reporterId: actor.id, cityId: listing.city_id, reason, note: note?.trim() || null, now })
    if (!recorded) throw conflict('You have reported this listing already: its broker has not answered yet')
    await recordAudit(tx, { actor: { id: actor.id, fullName: actor.fullName }, action: 'listing.report', entityType: 'listing', entityId: id, cityId: listing.city_id, after: { reason } }, now)
    const brokers = await openReporters(tx, id)
    if (brokers < REPORTS_TO_TAKE_OFF) return { brokers, write: null }
    const why = `Reported by ${brokers} brokers: off the network until its broker answers`
    const before = (await listingRow(tx, id))!
    const after = await takeOffNetwork(tx, id, why, now)
    if (!after) return { brokers, write: null }
    const w = { action: 'listing.reported_off', actor: null, before, after, now, reason: why }
    await written.within(tx, w)
    return { brokers, write: w }
  })
  if (result.write) written.committed(result.write)
  return { reported_by: result.brokers, off_network: result.write !== null || (await getListing(ctx.db, actor, id).catch(() => null)) === null }
}

/** The open reports of a listing, for its broker and its admins (admins also see who reported). */
export async function reportsOf(ctx: AppContext, actor: Viewer, id: number) {
  const listing = await getListing(ctx.db, actor, id)
  if (!canEdit(actor, { ownerUserId: listing.owner_user_id, cityId: listing.city_id })) throw forbidden('Only the listing’s broker and its admins see its reports')
  const admin = listing.owner_user_id !== actor.id
  const rows = await openReports(ctx.db, id)
  const names = admin ? await namesOf(ctx.db, rows.map((r) => Number(r.reporter_id))) : new Map<number, string>()
  return {
    off_network: (await reportedOffAt(ctx.db, id)) !== null,
    reports: rows.map((r) => ({ reason: r.reason, note: r.note, created_at: new Date(Number(r.created_at)).toISOString(), reporter_name: admin ? (names.get(Number(r.reporter_id)) ?? null) : null })),
  }
}

/**
 * Its broker answers the reports: STILL_AVAILABLE (back on the network, the reports answered so) or CLOSED (the
 * listing closed). Only the listing's broker (an admin has their own moderation); 409 when there is nothing to answer.
 */
export async function answerReports(ctx: AppContext, written: AfterListingWrite, actor: Actor, id: number, answer: 'STILL_AVAILABLE' | 'CLOSED', now = Date.now()) {
  const listing = await getListing(ctx.db, actor, id)
  if (listing.owner_user_id !== actor.id) throw forbidden('Only the listing’s broker answers its reports')
  const write = await ctx.db.tx(async (tx) => {
    const changes = await answerOpenReports(tx, id, answer, now)
    const before = (await listingRow(tx, id))!
    if (changes === 0 && before.reportedOffAt === null) throw conflict('This listing has no reports to answer')
    const status = answer === 'CLOSED' ? 'CLOSED' : before.reportedOffAt !== null ? 'ACTIVE' : before.status
    const after = await settleReports(tx, id, status, before.reportedOffAt !== null, now)
    const w = { action: 'listing.reports_answered', actor: { id: actor.id, fullName: actor.fullName }, before, after, now, reason: answer }
    await written.within(tx, w)
    return w
  })
  written.committed(write)
  return getListing(ctx.db, actor, write.after.id)
}

/** For admins: brokers whose reports were answered "still available", most first (a module admin: their city's reports). */
export async function reportersAnsweredAvailable(ctx: AppContext, admin: Viewer) {
  const scope = scopeOf(admin, 'listing', 'manage')
  const rows = await answeredAvailable(ctx.db, scope.kind === 'city' ? scope.cityId : scope.kind === 'all' ? null : 'none')
  const names = await namesOf(ctx.db, rows.map((r) => Number(r.reporter_id)))
  return rows.map((r) => ({ user_id: Number(r.reporter_id), full_name: names.get(Number(r.reporter_id)) ?? '', reports: Number(r.reports), answered_still_available: Number(r.still_available) }))
}
