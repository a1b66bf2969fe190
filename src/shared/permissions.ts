import type { Role } from './constants'

/**
 * Permissions as `action:entity:access` (the Epic Stack's idea). `any` reaches every row; `city` only rows of the
 * user's own city; `own` only the user's own rows. Routes name the permission they need; services narrow by access.
 */
export type Access = 'any' | 'city' | 'own'
export type Permission = `${'read' | 'manage'}:${'geography' | 'user' | 'module-admin' | 'listing' | 'circle' | 'deal' | 'matching' | 'saved-search' | 'analytics' | 'audit' | 'system' | 'second-factor' | 'push'}:${Access}`

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  MASTER_ADMIN: [
    'read:geography:any',
    'manage:geography:any',
    'read:user:any',
    'manage:user:any',
    'manage:module-admin:any',
    'read:listing:any',
    'manage:listing:any',
    'read:matching:own',
    'manage:matching:any',
    // Issue 35: every co-broke deal (a disputed one is theirs to see, with its thread).
    'read:deal:any',
    'read:saved-search:own',
    'manage:saved-search:own',
    'read:analytics:any',
    'read:audit:any',
    // The installation itself: the system screen and Backup now (issue 19).
    'read:system:any',
    'manage:system:any',
    // Issue 29: their own second factor, and resetting another admin's lost one.
    'manage:second-factor:any',
    // Issue 33: their own devices' push alerts and their settings.
    'read:push:own',
    'manage:push:own',
  ],
  MODULE_ADMIN: [
    'read:geography:any',
    'read:user:city',
    'manage:user:city',
    'read:listing:city',
    'manage:listing:city',
    'read:matching:own',
    'manage:matching:city',
    // Issue 35: the co-broke deals of their city.
    'read:deal:city',
    'read:saved-search:own',
    'manage:saved-search:own',
    'read:analytics:city',
    'read:audit:city',
    // Issue 29: their own second factor (a master admin's `any` covers their own too).
    'manage:second-factor:own',
    'read:push:own',
    'manage:push:own',
  ],
  BROKER: [
    'read:geography:any',
    'read:user:own',
    'read:listing:any',
    'manage:listing:own',
    // Issue 35: their own circles, the brokers their CIRCLE listings are shown to.
    'read:circle:own',
    'manage:circle:own',
    // Issue 35: co-broke requests and deals they are a party to.
    'read:deal:own',
    'manage:deal:own',
    'read:matching:own',
    'read:saved-search:own',
    'manage:saved-search:own',
    'read:push:own',
    'manage:push:own',
  ],
}

/**
 * Answers of `grantFor` and `can` by role and permission: both are asked several times per request (the guard, each
 * scope), and the roles' permissions never change while the program runs.
 */
const granted = new Map<string, Access | null>()
const allowed = new Map<string, boolean>()

/** The permission as held by this role, at the widest access the role has (any > city > own), or null. */
export function grantFor(role: Role, permission: Permission): Access | null {
  const key = `${role} ${permission}`
  let access = granted.get(key)
  if (access === undefined) granted.set(key, (access = widestGrant(role, permission)))
  return access
}

function widestGrant(role: Role, permission: Permission): Access | null {
  const [action, entity] = permission.split(':') as [string, string]
  const held = ROLE_PERMISSIONS[role].filter((p) => p.startsWith(`${action}:${entity}:`)).map((p) => p.split(':')[2] as Access)
  for (const access of ['any', 'city', 'own'] as const) if (held.includes(access)) return access
  return null
}

const RANK: Record<Access, number> = { own: 0, city: 1, any: 2 }

/**
 * True when these permissions include this one at the access asked for or wider. Islands get the user's permissions
 * as a prop (`permissionsOf`) and ask this, never the role.
 */
export function holds(held: readonly Permission[], permission: Permission): boolean {
  const [action, entity, wanted] = permission.split(':') as [string, string, Access]
  return held.some((p) => p.startsWith(`${action}:${entity}:`) && RANK[p.split(':')[2] as Access] >= RANK[wanted])
}

/** True when the role holds the permission at the access asked for or wider. */
export function can(role: Role, permission: Permission): boolean {
  const key = `${role} ${permission}`
  let answer = allowed.get(key)
  if (answer === undefined) allowed.set(key, (answer = holds(ROLE_PERMISSIONS[role], permission)))
  return answer
}

/** The role's permissions, as islands receive them. */
export const permissionsOf = (role: Role): Permission[] => [...ROLE_PERMISSIONS[role]]

/**
 * The permission of the routes a session opened for enrolment only may reach (issue 29): the caller's own second
 * factor. src/platform/http/auth.ts refuses such a session every other permission.
 */
export const ENROLMENT_PERMISSION: Permission = 'manage:second-factor:own'
