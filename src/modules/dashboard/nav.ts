import type { Role } from '../../shared/constants'

/** Navigation items by role (SPEC section 2 "Authenticated area"). */
export type NavItem = { label: string; href: string; roles: readonly Role[] }

export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', href: '/dashboard', roles: ['MASTER_ADMIN', 'MODULE_ADMIN', 'BROKER'] },
  { label: 'Listings', href: '/dashboard/listings', roles: ['MASTER_ADMIN', 'MODULE_ADMIN', 'BROKER'] },
  { label: 'My Listings', href: '/dashboard/my-listings', roles: ['BROKER'] },
  // Issue 15: every role may own listings, so every role has an inbox of matches.
  { label: 'Matches', href: '/dashboard/matches', roles: ['MASTER_ADMIN', 'MODULE_ADMIN', 'BROKER'] },
  { label: 'User Approvals', href: '/dashboard/approvals', roles: ['MASTER_ADMIN', 'MODULE_ADMIN'] },
  { label: 'Brokers', href: '/dashboard/brokers', roles: ['MASTER_ADMIN', 'MODULE_ADMIN'] },
  { label: 'Module Admins', href: '/dashboard/admins', roles: ['MASTER_ADMIN'] },
  { label: 'Geographic', href: '/dashboard/geographic', roles: ['MASTER_ADMIN'] },
  { label: 'Analytics', href: '/dashboard/analytics', roles: ['MASTER_ADMIN', 'MODULE_ADMIN'] },
  { label: 'Audit Logs', href: '/dashboard/audit', roles: ['MASTER_ADMIN', 'MODULE_ADMIN'] },
]

export const navFor = (role: Role) => NAV_ITEMS.filter((item) => item.roles.includes(role))
