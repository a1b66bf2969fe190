import { ROLES, type ListingStatus, type Role } from '../../shared/constants'
import { grantFor, ROLE_PERMISSIONS, type Permission } from './permissions'

/** Who is asking: the policy needs their id, role and city, nothing else. */
export type ScopeActor = { id: number; role: Role; cityId: number | null }

/** The entities whose rows are scoped. */
export type ScopedEntity = 'listing' | 'user' | 'matching' | 'analytics' | 'audit' | 'deal'

/**
 * Which rows of an entity an actor may see (or, with `manage`, change), as plain data. Each module's data layer turns
 * it into SQL in one place (docs/decisions/011-one-scope-rule.md); nothing else decides visibility.
 *
 * - `all`: every row.
 * - `city`: the rows of one city (`onlyRole`: of users, only those with this role).
 * - `own`: the actor's own rows (for users: themself).
 * - `all-but-others-hidden`: every row except others' rows in a status HIDDEN_FROM_OTHERS names (listings: a
 *   suspended or expired listing is hidden from everyone who may not manage it, its owner apart).
 * - `none`: no row (a city-scoped grant without a city, or no grant at all).
 */
export type Scope =
  | { kind: 'all' }
  | { kind: 'city'; cityId: number; onlyRole?: Role }
  | { kind: 'own'; userId: number }
  | { kind: 'all-but-others-hidden'; userId: number }
  | { kind: 'none' }

export type ScopeAction = 'read' | 'manage'

/**
 * The listing statuses the `all-but-others-hidden` scope (a broker's) shows of the reader's own listings only: a
 * SUSPENDED listing was taken off the network by an admin, an EXPIRED one left it when its end passed (issue 17,
 * docs/decisions/017-listing-expiry.md). Its owner still sees it (My Listings, the status filter) and may act on it.
 */
export const HIDDEN_FROM_OTHERS = ['SUSPENDED', 'EXPIRED'] as const satisfies readonly ListingStatus[]

/** Is a listing of this status one that only its owner (and those who may manage it) see? */
export const hiddenFromOthers = (status: string | undefined): boolean => status !== undefined && (HIDDEN_FROM_OTHERS as readonly string[]).includes(status)

const ALL: Scope = { kind: 'all' }
const NONE: Scope = { kind: 'none' }

/**
 * The actor's scope over an entity, from the grants of their role (ROLE_PERMISSIONS) alone:
 * `any` → all, `city` → their city (none without one), `own` → their own rows, no grant → none. Two rules refine it:
 * - listings: seeing every listing without managing every one (a broker) leaves out others' SUSPENDED and EXPIRED
 *   listings (HIDDEN_FROM_OTHERS);
 * - users: a city-wide grant covers the city's brokers only (module admins are managed with `manage:module-admin:any`).
 */
export function scopeOf(actor: ScopeActor, entity: ScopedEntity, action: ScopeAction = 'read'): Scope {
  const shape = shapeOf(actor.role, entity, action)
  switch (shape) {
    case 'all':
    case 'none':
      return shape === 'all' ? ALL : NONE
    case 'own':
    case 'all-but-others-hidden':
      return { kind: shape, userId: actor.id }
    case 'city':
    case 'city-brokers':
      if (actor.cityId === null) return NONE
      return shape === 'city' ? { kind: 'city', cityId: actor.cityId } : { kind: 'city', cityId: actor.cityId, onlyRole: 'BROKER' }
  }
}

type Shape = 'all' | 'none' | 'own' | 'all-but-others-hidden' | 'city' | 'city-brokers'

function shapeFromGrants(role: Role, entity: ScopedEntity, action: ScopeAction): Shape {
  const access = grantFor(role, `${action}:${entity}:any` as Permission)
  if (access === null) return 'none'
  if (access === 'own') return 'own'
  if (access === 'city') return entity === 'user' && !ROLE_PERMISSIONS[role].includes('manage:module-admin:any') ? 'city-brokers' : 'city'
  if (entity === 'listing' && action === 'read' && grantFor(role, 'manage:listing:any') !== 'any') return 'all-but-others-hidden'
  return 'all'
}

// The shape depends on the role alone: worked out once for every role, action and entity (the listing reads ask at
// every request, so this is a lookup, not a walk through the grants).
const ENTITIES: readonly ScopedEntity[] = ['listing', 'user', 'matching', 'analytics', 'audit', 'deal']
const SHAPES = Object.fromEntries(
  ROLES.map((role) => [
    role,
    { read: Object.fromEntries(ENTITIES.map((e) => [e, shapeFromGrants(role, e, 'read')])), manage: Object.fromEntries(ENTITIES.map((e) => [e, shapeFromGrants(role, e, 'manage')])) },
  ]),
) as Record<Role, Record<ScopeAction, Record<ScopedEntity, Shape>>>
const shapeOf = (role: Role, entity: ScopedEntity, action: ScopeAction): Shape => SHAPES[role][action][entity]

/** The city a scope is limited to: its id, -1 (no city: matches nothing) for `none`, null when not limited to one. */
export const scopeCity = (s: Scope): number | null => (s.kind === 'city' ? s.cityId : s.kind === 'none' ? -1 : null)
