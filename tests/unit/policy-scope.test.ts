// The one scope rule (docs/decisions/011-one-scope-rule.md): scopeOf over every role × entity × action, as plain data,
// and the SQL each data layer makes of it (the listing clauses' text is what the cached statements are keyed by).
import { describe, expect, test } from 'bun:test'
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core'
import { HIDDEN_FROM_OTHERS, scopeOf, scopeCity, type Scope, type ScopeAction, type ScopedEntity } from '../../src/platform/policy/scope'
import { LISTING_STATUSES, ROLES, type Role } from '../../src/shared/constants'
import { canEdit, inScope, NOT_SHOWN_TO, scopeWhere as listingWhere, shownTo, visibleTo } from '../../src/modules/listings/store/where'
import { scopeWhere as userWhere } from '../../src/modules/users/store/read'
import { auditScope } from '../../src/modules/audit/read'

const ENTITIES: ScopedEntity[] = ['listing', 'user', 'matching', 'analytics', 'audit']
const ACTIONS: ScopeAction[] = ['read', 'manage']

const all: Scope = { kind: 'all' }
const none: Scope = { kind: 'none' }
const city = (cityId: number, onlyRole?: Role): Scope => (onlyRole ? { kind: 'city', cityId, onlyRole } : { kind: 'city', cityId })
const own = (userId: number): Scope => ({ kind: 'own', userId })

/** What each role may see and change, written out once: the policy must give exactly this. */
const EXPECTED: Record<Role, Record<`${ScopeAction}:${ScopedEntity}`, (id: number, cityId: number | null) => Scope>> = {
  MASTER_ADMIN: {
    'read:listing': () => all,
    'read:user': () => all,
    'read:matching': (id) => own(id),
    'read:analytics': () => all,
    'read:audit': () => all,
    'manage:listing': () => all,
    'manage:user': () => all,
    'manage:matching': () => all,
    'manage:analytics': () => none,
    'manage:audit': () => none,
    // Issue 35: every deal to read (disputes), none to act in.
    'read:deal': () => all,
    'manage:deal': () => none,
  },
  MODULE_ADMIN: {
    'read:listing': (_, c) => (c === null ? none : city(c)),
    'read:user': (_, c) => (c === null ? none : city(c, 'BROKER')),
    'read:matching': (id) => own(id),
    'read:analytics': (_, c) => (c === null ? none : city(c)),
    'read:audit': (_, c) => (c === null ? none : city(c)),
    'manage:listing': (_, c) => (c === null ? none : city(c)),
    'manage:user': (_, c) => (c === null ? none : city(c, 'BROKER')),
    'manage:matching': (_, c) => (c === null ? none : city(c)),
    'manage:analytics': () => none,
    'manage:audit': () => none,
    'read:deal': (_, c) => (c === null ? none : city(c)),
    'manage:deal': () => none,
  },
  BROKER: {
    'read:listing': (id) => ({ kind: 'all-but-others-hidden', userId: id }),
    'read:user': (id) => own(id),
    'read:matching': (id) => own(id),
    'read:analytics': () => none,
    'read:audit': () => none,
    'manage:listing': (id) => own(id),
    'manage:user': () => none,
    'manage:matching': () => none,
    'manage:analytics': () => none,
    'manage:audit': () => none,
    'read:deal': (id) => own(id),
    'manage:deal': (id) => own(id),
  },
}

describe('scopeOf', () => {
  for (const role of ROLES)
    for (const cityId of [7, null])
      for (const action of ACTIONS)
        for (const entity of ENTITIES)
          test(`${role} (city ${cityId}) ${action} ${entity}`, () => {
            const actor = { id: 42, role, cityId }
            const scope = scopeOf(actor, entity, action)
            expect(scope).toEqual(EXPECTED[role][`${action}:${entity}`](42, cityId))
            // Plain data: it survives JSON unchanged, so it can be logged, compared and cached by value.
            expect(JSON.parse(JSON.stringify(scope))).toEqual(scope)
          })

  test('asked twice, the same answer (the shape is worked out once per role), and never for another actor', () => {
    expect(scopeOf({ id: 1, role: 'BROKER', cityId: 3 }, 'listing')).toEqual({ kind: 'all-but-others-hidden', userId: 1 })
    expect(scopeOf({ id: 2, role: 'BROKER', cityId: 3 }, 'listing')).toEqual({ kind: 'all-but-others-hidden', userId: 2 })
    expect(scopeOf({ id: 3, role: 'MODULE_ADMIN', cityId: 9 }, 'audit')).toEqual(city(9))
  })

  test('scopeCity: a city, -1 for none (matches nothing), null for the network', () => {
    expect(scopeCity(city(4))).toBe(4)
    expect(scopeCity(none)).toBe(-1)
    expect(scopeCity(all)).toBeNull()
    expect(scopeCity({ kind: 'all-but-others-hidden', userId: 1 })).toBeNull()
  })
})

describe('each data layer turns the scope into SQL in one place', () => {
  test('listings: one fixed clause text per scope (the compiled statements are keyed by it and reused)', () => {
    expect(listingWhere(all)).toBeNull()
    expect(listingWhere(none)).toEqual({ sql: 'false', params: [] })
    expect(listingWhere(city(3))).toEqual({ sql: 'listings.city_id = ?', params: [3] })
    // Issue 35: and not others' listings kept from the broker (ONLY_ME, or a circle they are not in).
    expect(listingWhere({ kind: 'all-but-others-hidden', userId: 8 })).toEqual({
      sql: `(listings.status not in ('SUSPENDED', 'EXPIRED') or listings.owner_user_id = ?) and listings.id not in (${NOT_SHOWN_TO})`,
      params: [8, 8, 8],
    })
    expect(visibleTo({ id: 8, role: 'BROKER', cityId: 1 })).toEqual(listingWhere({ kind: 'all-but-others-hidden', userId: 8 }))
    expect(visibleTo({ id: 1, role: 'MODULE_ADMIN', cityId: 3 })).toEqual(listingWhere(city(3)))
  })

  test('listings: a broker sees others’ listings in every status but SUSPENDED and EXPIRED, their own in every status', () => {
    const broker = scopeOf({ id: 8, role: 'BROKER', cityId: 3 }, 'listing')
    expect(HIDDEN_FROM_OTHERS).toEqual(['SUSPENDED', 'EXPIRED'])
    for (const status of LISTING_STATUSES) {
      expect(inScope(broker, { ownerUserId: 9, cityId: 3, status })).toBe(!HIDDEN_FROM_OTHERS.includes(status as never))
      expect(inScope(broker, { ownerUserId: 8, cityId: 3, status })).toBe(true)
      // Admins: their scope as before, whatever the status.
      expect(inScope(scopeOf({ id: 1, role: 'MASTER_ADMIN', cityId: null }, 'listing'), { ownerUserId: 9, cityId: 3, status })).toBe(true)
      expect(inScope(scopeOf({ id: 2, role: 'MODULE_ADMIN', cityId: 3 }, 'listing'), { ownerUserId: 9, cityId: 3, status })).toBe(true)
    }
  })

  test('listings: in memory, others’ ONLY_ME listings are out of a broker’s scope, their CIRCLE ones unknown there (SQL decides)', () => {
    const broker = scopeOf({ id: 8, role: 'BROKER', cityId: 3 }, 'listing')
    const admin = scopeOf({ id: 2, role: 'MODULE_ADMIN', cityId: 3 }, 'listing')
    expect(inScope(broker, { ownerUserId: 9, cityId: 3, status: 'ACTIVE', visibility: 'ONLY_ME' })).toBe(false)
    expect(inScope(broker, { ownerUserId: 8, cityId: 3, status: 'ACTIVE', visibility: 'ONLY_ME' })).toBe(true)
    expect(inScope(broker, { ownerUserId: 9, cityId: 3, status: 'ACTIVE', visibility: 'NETWORK' })).toBe(true)
    expect(inScope(admin, { ownerUserId: 9, cityId: 3, status: 'ACTIVE', visibility: 'ONLY_ME' })).toBe(true)
    expect(shownTo(8, { ownerUserId: 9, visibility: 'CIRCLE' })).toBe('maybe')
    expect(shownTo(8, { ownerUserId: 9 })).toBe(true)
  })

  test('listings: who may change a listing follows the manage scope', () => {
    const listing = { ownerUserId: 8, cityId: 3 }
    expect(canEdit({ id: 1, role: 'MASTER_ADMIN', cityId: null }, listing)).toBe(true)
    expect(canEdit({ id: 2, role: 'MODULE_ADMIN', cityId: 3 }, listing)).toBe(true)
    expect(canEdit({ id: 2, role: 'MODULE_ADMIN', cityId: 4 }, listing)).toBe(false)
    expect(canEdit({ id: 2, role: 'MODULE_ADMIN', cityId: null }, listing)).toBe(false)
    expect(canEdit({ id: 8, role: 'BROKER', cityId: 3 }, listing)).toBe(true)
    expect(canEdit({ id: 9, role: 'BROKER', cityId: 3 }, listing)).toBe(false)
  })

  test('users and audit', () => {
    const sql = (s: Parameters<SQLiteSyncDialect['sqlToQuery']>[0] | undefined) => {
      if (!s) return undefined
      const { sql, params } = new SQLiteSyncDialect().sqlToQuery(s)
      return { sql, params }
    }
    expect(userWhere(all)).toBeUndefined()
    expect(userWhere(city(3, 'BROKER'))).toEqual({ sql: 'users.role = ? and users.city_id = ?', params: ['BROKER', 3] })
    expect(userWhere(own(5))).toEqual({ sql: 'users.id = ?', params: [5] })
    expect(userWhere(none)).toEqual({ sql: 'users.id = ?', params: [-1] })
    expect(auditScope({ id: 1, role: 'MASTER_ADMIN', cityId: null })).toBeUndefined()
    expect(auditScope({ id: 1, role: 'MODULE_ADMIN', cityId: 3 })).toEqual({ sql: 'city_id = ?', params: [3] })
    expect(auditScope({ id: 1, role: 'BROKER', cityId: 3 })).toEqual({ sql: '1 = 0', params: [] })
  })
})
