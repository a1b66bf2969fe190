import type { Database } from '../../db/client'
import type { listings, users } from '../../db/schema'
import type { Param, Queryable } from '../../db/sql'
import { SqliteDb } from '../../db/sqlite'
import { USER_COLUMNS, userRow, type RawUser, type User } from '../../src/modules/users/store'

/**
 * Where fixtures write: the app's data layer (`h.ctx.db`, on any backend), or a raw SQLite handle (the browser suites'
 * connection to the server's file, the unit tests' in-memory database), which gets a data layer over its one connection.
 */
export type FixtureDb = Queryable | Database

const layers = new WeakMap<Database, Queryable>()

/** The data layer to write a fixture through. */
export function dataLayer(db: FixtureDb): Queryable {
  if (!('$client' in db)) return db
  let layer = layers.get(db)
  if (!layer) layers.set(db, (layer = new SqliteDb(db.$client, db.$client)))
  return layer
}

/** `cityId` → `city_id`: the schema's field names are its columns' in camelCase. */
const columnOf = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/**
 * Inserts one row in plain SQL, the values named by the schema's fields (camelCase; undefined ones left out), times as
 * Dates or epoch milliseconds; answers the `returning` columns of the stored row.
 */
export async function insertRow<T = { id: number }>(db: FixtureDb, table: string, values: Record<string, unknown>, returning = 'id'): Promise<T> {
  const fields = Object.entries(values).filter(([, v]) => v !== undefined)
  const params = fields.map(([, v]) => (v instanceof Date ? v.getTime() : v) as Param)
  const { rows } = await dataLayer(db).run<T>(
    `insert into ${table} (${fields.map(([k]) => columnOf(k)).join(', ')}) values (${fields.map(() => '?').join(', ')}) returning ${returning}`,
    params,
  )
  return rows[0]!
}

let n = 0

export type Place = Awaited<ReturnType<typeof seedPlace>>

/** A country with one state holding the given cities; returns their rows (ids, names, codes). */
export async function seedPlace(db: FixtureDb, cityNames = ['Mumbai', 'Pune']) {
  const i = ++n
  const now = Date.now()
  const country = await insertRow<{ id: number; name: string; code: string }>(db, 'countries', { name: `Country ${i}`, code: `C${i}`, createdAt: now, updatedAt: now }, 'id, name, code')
  const state = await insertRow<{ id: number; name: string; code: string; countryId: number }>(
    db,
    'states',
    { name: `State ${i}`, code: `S${i}`, countryId: country.id, createdAt: now, updatedAt: now },
    'id, name, code, country_id as "countryId"',
  )
  const cities: { id: number; name: string; stateId: number }[] = []
  for (const name of cityNames)
    cities.push(await insertRow(db, 'cities', { name, stateId: state.id, createdAt: now, updatedAt: now }, 'id, name, state_id as "stateId"'))
  return { country, state, cities }
}

export type UserValues = Partial<typeof users.$inferInsert>

/** Inserts a user as given (created and updated now unless said otherwise); answers the row as the app reads it. */
export async function insertUser(db: FixtureDb, values: UserValues & Pick<typeof users.$inferInsert, 'email' | 'passwordHash' | 'fullName' | 'role'>): Promise<User> {
  const now = Date.now()
  return userRow(await insertRow<RawUser>(db, 'users', { createdAt: now, updatedAt: now, ...values }, USER_COLUMNS))
}

/** The user with the email, as the app reads a user (camelCase, the flag a boolean, times as Dates). */
export async function userByEmail(db: FixtureDb, email: string): Promise<User | undefined> {
  const row = await dataLayer(db).get<RawUser>(`select ${USER_COLUMNS} from users where email = ?`, [email])
  return row && userRow(row)
}

// Real argon2id hashes at a small cost: fixtures need many, and verification reads the cost from the hash itself.
const hashes = new Map<string, Promise<string>>()
export const fixtureHash = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: 1024, timeCost: 1 }))
  return hashes.get(password)!
}

/** A user with a real password hash, ready to sign in with `password`. */
export async function createUser(db: FixtureDb, values: UserValues & { email: string }, password = 'Broker@123'): Promise<User> {
  return insertUser(db, {
    passwordHash: await fixtureHash(password),
    fullName: 'Test User',
    role: 'BROKER',
    isActive: true,
    registrationStatus: 'APPROVED',
    ...values,
  })
}

/** Inserts a listing as given (created and updated now unless said otherwise); answers its id. */
export async function insertListing(db: FixtureDb, values: typeof listings.$inferInsert): Promise<number> {
  const now = Date.now()
  return (await insertRow(db, 'listings', { createdAt: now, updatedAt: now, ...values })).id
}

export type AuditRow = {
  id: number
  actorUserId: number | null
  actorName: string | null
  action: string
  entityType: string
  entityId: string | null
  cityId: number | null
  before: unknown
  after: unknown
  reason: string | null
  createdAt: number
}

/** The audit trail's events with every given field, oldest first; their before and after parsed from JSON. */
export async function auditTrail(db: Queryable, match: { action?: string; entityType?: string; entityId?: string | number } = {}): Promise<AuditRow[]> {
  const fields = Object.entries(match).filter(([, v]) => v !== undefined)
  const where = fields.length ? `where ${fields.map(([k]) => `${columnOf(k)} = ?`).join(' and ')}` : ''
  const rows = await db.all<AuditRow & { before: string | null; after: string | null; createdAt: number | string }>(
    `select id, actor_user_id as "actorUserId", actor_name as "actorName", action, entity_type as "entityType", entity_id as "entityId",
       city_id as "cityId", before, after, reason, created_at as "createdAt" from audit_events ${where} order by id`,
    fields.map(([, v]) => String(v)),
  )
  return rows.map((r) => ({ ...r, before: r.before == null ? null : JSON.parse(r.before), after: r.after == null ? null : JSON.parse(r.after), createdAt: Number(r.createdAt) }))
}

/** Bytes that start like the named kind of file. */
export const FILE_BYTES = {
  png: () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  pdf: () => new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n'),
  text: () => new TextEncoder().encode('just some text, not an image'),
}

/** A city's id by its name, e.g. one of the demo geography's. */
export const cityIdByName = async (db: FixtureDb, name: string) => (await dataLayer(db).get<{ id: number }>('select id from cities where name = ?', [name]))!.id
