import { ROLES, type Role } from '../../shared/constants'
import { grantFor, ROLE_PERMISSIONS, type Permission } from './permissions'

/** Who is asking: the policy needs their id, role and city, nothing else. */
export type ScopeActor = { id: number; role: Role; cityId: number | null }

/** The entities whose rows are scoped. */
export type ScopedEntity = 'listing' | 'user' | 'matching' | 'analytics' | 'audit'

/**
 * Which rows of an entity an actor may see (or, with `manage`, change), as plain data. Each module's data layer turns
 * it into SQL in one place (docs/decisions/011-one-scope-rule.md); nothing else decides visibility.
 *
 * - `all`: every row.
 * - `city`: the rows of one city (`onlyRole`: of users, only those with this role).
 * - `own`: the actor's own rows (for users: themself).
 * - `all-but-others-suspended`: every row except SUSPENDED ones of others (listings: suspension hides a listing from
 *   everyone who may not manage it, its owner apart).
 * - `none`: no row (a city-scoped grant without a city, or no grant at all).
 */
export type Scope =
  | { kind: 'all' }
  | { kind: 'city'; cityId: number; onlyRole?: Role }
  | { kind: 'own'; userId: number }
  | { kind: 'all-but-others-suspended'; userId: number }
  | { kind: 'none' }

export type ScopeAction = 'read' | 'manage'

const ALL: Scope = { kind: 'all' }
const NONE: Scope = { kind: 'none' }

/**
 * The actor's scope over an entity, from the grants of their role (ROLE_PERMISSIONS) alone:
 * `any` → all, `city` → their city (none without one), `own` → their own rows, no grant → none. Two rules refine it:
 * - listings: seeing every listing without managing every one (a broker) leaves out others' SUSPENDED listings;
 * - users: a city-wide grant covers the city's brokers only (module admins are managed with `manage:module-admin:any`).
 */
export function scopeOf(actor: ScopeActor, entity: ScopedEntity, action: ScopeAction = 'read'): Scope {
  const shape = shapeOf(actor.role, entity, action)
  switch (shape) {
    case 'all':
    case 'none':
      return shape === 'all' ? ALL : NONE
    case 'own':
    case 'all-but-others-suspended':
      return { kind: shape, userId: actor.id }
    case 'city':
    case 'city-brokers':
      if (actor.cityId === null) return NONE
      return shape === 'city' ? { kind: 'city', cityId: actor.cityId } : { kind: 'city', cityId: actor.cityId, onlyRole: 'BROKER' }
  }
}

type Shape = 'all' | 'none' | 'own' | 'all-but-others-suspended' | 'city' | 'city-brokers'

function shapeFromGrants(role: Role, entity: ScopedEntity, action: ScopeAction): Shape {
  const access = grantFor(role, `${action}:${entity}:any` as Permission)
  if (access === null) return 'none'
  if (access === 'own') return 'own'
  if (access === 'city') return entity === 'user' && !ROLE_PERMISSIONS[role].includes('manage:module-admin:any') ? 'city-brokers' : 'city'
  if (entity === 'listing' && action === 'read' && grantFor(role, 'manage:listing:any') !== 'any') return 'all-but-others-suspended'
  return 'all'
}

// The shape depends on the role alone: worked out once for every role, action and entity (the listing reads ask at
// every request, so this is a lookup, not a walk through the grants).
const ENTITIES: readonly ScopedEntity[] = ['listing', 'user', 'matching', 'analytics', 'audit']
const SHAPES = Object.fromEntries(
  ROLES.map((role) => [
    role,
    { read: Object.fromEntries(ENTITIES.map((e) => [e, shapeFromGrants(role, e, 'read')])), manage: Object.fromEntries(ENTITIES.map((e) => [e, shapeFromGrants(role, e, 'manage')])) },
  ]),
) as Record<Role, Record<ScopeAction, Record<ScopedEntity, Shape>>>
const shapeOf = (role: Role, entity: ScopedEntity, action: ScopeAction): Shape => SHAPES[role][action][entity]

/** The city a scope is limited to: its id, -1 (no city: matches nothing) for `none`, null when not limited to one. */
export const scopeCity = (s: Scope): number | null => (s.kind === 'city' ? s.cityId : s.kind === 'none' ? -1 : null)
