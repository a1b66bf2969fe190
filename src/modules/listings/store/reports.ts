import type { Queryable } from '../../../../db/sql'
import { ROW, type Row } from '../store'

// The SQL of brokers' reports of a listing (`listing_reports`, issue 35) and of the listing's going off and back on the
// network because of them; the rules (who may report, how many take it off, who answers) are ../reports.ts'.

/** ../reports.ts' REPORT_REASONS (a store imports nothing of the rules that use it). */
export type ReportReason = 'SOLD_OR_RENTED' | 'NO_RESPONSE' | 'WRONG_DETAILS' | 'FAKE'

/** How many brokers report the listing and are not answered yet (one broker's reports count once). */
export const openReporters = async (db: Queryable, listingId: number): Promise<number> =>
  Number((await db.get<{ n: number }>('select count(distinct reporter_id) as n from listing_reports where listing_id = ? and answered_at is null', [listingId]))!.n)

/** Records a report; false when this broker has an unanswered report of the listing already. */
export async function insertReport(tx: Queryable, r: { listingId: number; reporterId: number; cityId: number; reason: ReportReason; note: string | null; now: number }): Promise<boolean> {
  const { changes } = await tx.run(
    'insert into listing_reports (listing_id, reporter_id, city_id, reason, note, created_at) values (?, ?, ?, ?, ?, ?) on conflict do nothing',
    [r.listingId, r.reporterId, r.cityId, r.reason, r.note, r.now],
  )
  return changes > 0
}

/** A listing's unanswered reports, oldest first. */
export const openReports = (db: Queryable, listingId: number) =>
  db.all<{ reporter_id: number; reason: ReportReason; note: string | null; created_at: number }>(
    'select reporter_id, reason, note, created_at from listing_reports where listing_id = ? and answered_at is null order by id',
    [listingId],
  )

/** Answers a listing's open reports; how many there were. */
export const answerOpenReports = async (tx: Queryable, listingId: number, answer: string, now: number): Promise<number> =>
  (await tx.run('update listing_reports set answered_at = ?, answer = ? where listing_id = ? and answered_at is null', [now, answer, listingId])).changes

/**
 * Brokers whose reports were answered "still available", most first, up to 200: of one city's reports (a city id),
 * of every city's (null), or none (`'none'`: a scope of no rows).
 */
export function reportersAnsweredAvailable(db: Queryable, cityId: number | null | 'none') {
  const where = cityId === 'none' ? { sql: 'false', params: [] } : cityId === null ? { sql: 'true', params: [] } : { sql: 'city_id = ?', params: [cityId] }
  return db.all<{ reporter_id: number; reports: number; still_available: number }>(
    `select reporter_id, count(*) as reports, sum(case when answer = 'STILL_AVAILABLE' then 1 else 0 end) as still_available
     from listing_reports where ${where.sql} group by reporter_id having sum(case when answer = 'STILL_AVAILABLE' then 1 else 0 end) > 0
     order by still_available desc, reporter_id limit 200`,
    where.params,
  )
}

/** Takes an ACTIVE listing not yet reported off the network (SUSPENDED, `reported_off_at` set); undefined when it was not so. */
export const takeOffNetwork = async (tx: Queryable, id: number, why: string, now: number): Promise<Row | undefined> =>
  (
    await tx.run<Row>(
      `update listings set status = 'SUSPENDED', reported_off_at = ?, suspended_at = ?, suspension_reason = ?, suspended_by = null, updated_at = ? where id = ? and status = 'ACTIVE' and reported_off_at is null returning ${ROW}`,
      [now, now, why, now, id],
    )
  ).rows[0]

/** When the listing was taken off the network by reports (epoch ms), or null. */
export const reportedOffAt = async (db: Queryable, id: number): Promise<number | null> => {
  const at = (await db.get<{ at: number | null }>('select reported_off_at as at from listings where id = ?', [id]))?.at
  return at === null || at === undefined ? null : Number(at)
}

/** The listing after its broker answered its reports: `status`, no longer reported off (and no longer suspended when `wasOff`). */
export const settleReports = async (tx: Queryable, id: number, status: string, wasOff: boolean, now: number): Promise<Row> =>
  (
    await tx.run<Row>(
      `update listings set status = ?, reported_off_at = null, updated_at = ?${wasOff ? ', suspended_at = null, suspension_reason = null' : ''} where id = ? returning ${ROW}`,
      [status, now, id],
    )
  ).rows[0]!
