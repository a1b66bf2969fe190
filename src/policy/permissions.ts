import type { Role } from '../shared/constants'

/**
 * Permissions as `action:entity:access` (the Epic Stack's idea). `any` reaches every row; `city` only rows of the
 * user's own city; `own` only the user's own rows. Routes name the permission they need; services narrow by access.
 */
export type Access = 'any' | 'city' | 'own'
export type Permission = `${'read' | 'manage'}:${'geography' | 'user' | 'module-admin' | 'listing' | 'matching' | 'analytics' | 'audit'}:${Access}`

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  MASTER_ADMIN: [
    'read:geography:any',
    'manage:geography:any',
    'read:user:any',
    'manage:user:any',
    'manage:module-admin:any',
    'read:listing:any',
    'manage:listing:any',
    'manage:matching:any',
    'read:analytics:any',
    'read:audit:any',
  ],
  MODULE_ADMIN: [
    'read:geography:any',
    'read:user:city',
    'manage:user:city',
    'read:listing:city',
    'manage:listing:city',
    'manage:matching:city',
    'read:analytics:city',
    'read:audit:city',
  ],
  BROKER: ['read:geography:any', 'read:user:own', 'read:listing:any', 'manage:listing:own'],
}

/** The permission as held by this role, at the widest access the role has (any > city > own), or null. */
export function grantFor(role: Role, permission: Permission): Access | null {
  const [action, entity] = permission.split(':') as [string, string]
  const held = ROLE_PERMISSIONS[role].filter((p) => p.startsWith(`${action}:${entity}:`)).map((p) => p.split(':')[2] as Access)
  for (const access of ['any', 'city', 'own'] as const) if (held.includes(access)) return access
  return null
}

/** True when the role holds the permission at the access asked for or wider. */
export function can(role: Role, permission: Permission): boolean {
  const access = grantFor(role, permission)
  if (!access) return false
  const wanted = permission.split(':')[2] as Access
  const rank = { own: 0, city: 1, any: 2 }
  return rank[access] >= rank[wanted]
}
