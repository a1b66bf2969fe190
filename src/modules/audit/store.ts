import type { Clause, Queryable } from '../../../db/sql'

// The only SQL of the audit trail (`audit_events`, issue 31): appended in the writing transaction, read by ./read.ts
// with the conditions it builds (`where` clauses over the trail's columns).

/** An event as stored: its JSON sides as text, its time in epoch milliseconds. */
export type StoredEvent = {
  id: number
  created_at: number
  actor_user_id: number | null
  actor_name: string | null
  action: string
  entity_type: string
  entity_id: string | null
  city_id: number | null
  reason: string | null
  before: string | null
  after: string | null
}

const COLUMNS = 'id, created_at, actor_user_id, actor_name, action, entity_type, entity_id, city_id, reason, before, after'

/** Appends an event (the values in the order of the columns below). */
export async function insertAuditEvent(db: Queryable, values: [number | null, string | null, string, string, string | null, number | null, string | null, string | null, string | null, number]): Promise<void> {
  await db.run(
    `insert into audit_events (actor_user_id, actor_name, action, entity_type, entity_id, city_id, before, after, reason, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    values,
  )
}

/** How many events a `where …` clause (or none) lets through. */
export const countEvents = async (db: Queryable, w: Clause): Promise<number> => (await db.get<{ n: number }>(`select count(*) as n from audit_events ${w.sql}`, w.params))!.n

/** A page of the events a `where …` clause lets through, newest first. */
export const eventsPage = (db: Queryable, w: Clause, limit: number, offset: number) =>
  db.all<StoredEvent>(`select ${COLUMNS} from audit_events ${w.sql} order by id desc limit ? offset ?`, [...w.params, limit, offset])

/** The first event a `where …` clause lets through (one by id). */
export const oneEvent = (db: Queryable, w: Clause) => db.get<StoredEvent>(`select ${COLUMNS} from audit_events ${w.sql}`, w.params)

/** The newest thousand events a `where …` clause lets through (the CSV's batches). */
export const eventsBatch = (db: Queryable, w: Clause) => db.all<StoredEvent>(`select ${COLUMNS} from audit_events ${w.sql} order by id desc limit 1000`, w.params)

/** The values of a column among the events a `where …` clause lets through, in order (the filters' choices). */
export const distinctValues = async (db: Queryable, col: 'action' | 'entity_type', w: Clause): Promise<string[]> =>
  (await db.all<{ v: string }>(`select distinct ${col} as v from audit_events ${w.sql} order by ${col}`, w.params)).map((r) => r.v)

/** The sides of the events about these entities of a type, newest first (the names of rows removed since). */
/** The earliest moment (epoch ms) of an entity's events of these actions, or null when it has none. */
export async function firstEventAt(db: Queryable, entityType: string, entityId: number, actions: string[]): Promise<number | null> {
  const row = await db.get<{ at: number | string | null }>(
    `select min(created_at) as at from audit_events where entity_type = ? and entity_id = ? and action in (${actions.map(() => '?').join(', ')})`,
    [entityType, String(entityId), ...actions],
  )
  return row?.at === null || row?.at === undefined ? null : Number(row.at)
}

export const eventsAbout = (db: Queryable, entityType: string, ids: number[]) =>
  db.all<{ entity_id: string; before: string | null; after: string | null }>(
    `select entity_id, before, after from audit_events where entity_type = ? and entity_id in (${ids.map(() => '?').join(', ')}) order by id desc`,
    [entityType, ...ids.map(String)],
  )
