import { eq } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { cities, countries, states, users } from '../../db/schema'

let n = 0

/** A country with one state holding the given cities; returns their ids. */
export function seedPlace(db: Database, cityNames = ['Mumbai', 'Pune']) {
  n++
  const country = db.insert(countries).values({ name: `Country ${n}`, code: `C${n}` }).returning().get()
  const state = db.insert(states).values({ name: `State ${n}`, code: `S${n}`, countryId: country.id }).returning().get()
  const cityRows = cityNames.map((name) => db.insert(cities).values({ name, stateId: state.id }).returning().get())
  return { country, state, cities: cityRows }
}

// Real argon2id hashes at a small cost: fixtures need many, and verification reads the cost from the hash itself.
const hashes = new Map<string, Promise<string>>()
export const fixtureHash = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: 1024, timeCost: 1 }))
  return hashes.get(password)!
}

/** A user with a real password hash, ready to sign in with `password`. */
export async function createUser(db: Database, values: Partial<typeof users.$inferInsert> & { email: string }, password = 'Broker@123') {
  return db
    .insert(users)
    .values({
      passwordHash: await fixtureHash(password),
      fullName: 'Test User',
      role: 'BROKER',
      isActive: true,
      registrationStatus: 'APPROVED',
      ...values,
    })
    .returning()
    .get()
}

/** Bytes that start like the named kind of file. */
export const FILE_BYTES = {
  png: () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  pdf: () => new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n'),
  text: () => new TextEncoder().encode('just some text, not an image'),
}

/** A city's id by its name, e.g. one of the demo geography's. */
export const cityIdByName = (db: Database, name: string) => db.select({ id: cities.id }).from(cities).where(eq(cities.name, name)).get()!.id
