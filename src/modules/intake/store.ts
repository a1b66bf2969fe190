import type { Queryable } from '../../../db/sql'

// The only SQL of the localities a module admin accepted or dismissed (`city_localities`, issue 30 and 31).

/** A city's accepted localities, in their spelling and zone. */
export const acceptedLocalities = (db: Queryable, cityId: number) =>
  db.all<{ name: string; zone: string | null }>("select name, zone from city_localities where city_id = ? and status = 'ACCEPTED'", [cityId])

/** The keys of a city's decided localities (accepted or dismissed). */
export const decidedLocalityKeys = async (db: Queryable, cityId: number): Promise<Set<string>> =>
  new Set((await db.all<{ key: string }>('select key from city_localities where city_id = ?', [cityId])).map((r) => r.key))

/** Records an admin's decision about a locality of a city (the newest decision stands). */
export async function decideLocality(db: Queryable, d: { cityId: number; name: string; key: string; zone: string | null; status: string; decidedBy: number }, now: number): Promise<void> {
  await db.run(
    `insert into city_localities (city_id, name, key, zone, status, decided_by, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (city_id, key) do update set name = excluded.name, zone = excluded.zone, status = excluded.status, decided_by = excluded.decided_by, updated_at = excluded.updated_at`,
    [d.cityId, d.name, d.key, d.zone, d.status, d.decidedBy, now, now],
  )
}
