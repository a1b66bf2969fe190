import { can, type Permission } from '../policy/permissions'
import type { Role } from '../../shared/constants'

/**
 * A navigation item, shown to the roles holding `permission` (src/platform/policy/permissions.ts), except those also holding
 * `unless` (My Listings: whoever manages listings beyond their own works in the admin grid instead).
 */
export type NavItem = { label: string; href: string; permission: Permission; unless?: Permission }

/** Navigation (SPEC section 2 "Authenticated area"), derived from the same policy the routes check. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', href: '/dashboard', permission: 'read:listing:own' },
  { label: 'Listings', href: '/dashboard/listings', permission: 'read:listing:own' },
  { label: 'My Listings', href: '/dashboard/my-listings', permission: 'manage:listing:own', unless: 'manage:listing:city' },
  // Issue 32: a phone reaches these from the menu, not only from the dashboard's buttons and filter bar.
  { label: 'Paste from WhatsApp', href: '/dashboard/paste', permission: 'manage:listing:own', unless: 'manage:listing:city' },
  { label: 'Saved searches', href: '/dashboard/listings#saved-searches', permission: 'manage:listing:own', unless: 'manage:listing:city' },
  // Issue 15: every role may own listings, so every role has an inbox of matches.
  { label: 'Matches', href: '/dashboard/matches', permission: 'read:matching:own' },
  // Issue 35: co-broke requests in and out and the deals they opened (an admin reads their city's, or all: the disputed).
  { label: 'Deals', href: '/dashboard/deals', permission: 'read:deal:own' },
  // Issue 34: the public links one made for clients (every role may share its own listings), to see and revoke.
  { label: 'Public links', href: '/dashboard/share-links', permission: 'manage:listing:own' },
  { label: 'User Approvals', href: '/dashboard/approvals', permission: 'manage:user:city' },
  { label: 'Brokers', href: '/dashboard/brokers', permission: 'manage:user:city' },
  { label: 'Module Admins', href: '/dashboard/admins', permission: 'manage:module-admin:any' },
  { label: 'Geographic', href: '/dashboard/geographic', permission: 'manage:geography:any' },
  { label: 'Analytics', href: '/dashboard/analytics', permission: 'read:analytics:city' },
  { label: 'Audit Logs', href: '/dashboard/audit', permission: 'read:audit:city' },
  // Issue 19: the installation's health and backups, for the master admin.
  { label: 'System', href: '/dashboard/system', permission: 'read:system:any' },
  // Issue 33: push alerts on the user's devices, which kinds and when.
  { label: 'Notifications', href: '/dashboard/notifications', permission: 'manage:push:own' },
  // Issue 29: the admin's own two-factor sign-in.
  { label: 'Security', href: '/dashboard/security', permission: 'manage:second-factor:own' },
]

/** The admin's own two-factor sign-in (issue 29): where a session that may only enrol one is sent. */
export const SECURITY_PAGE = '/dashboard/security'

/** May this role see the item (and open its page)? */
export const allows = (role: Role, item: Pick<NavItem, 'permission' | 'unless'>) => can(role, item.permission) && !(item.unless && can(role, item.unless))

export const navFor = (role: Role) => NAV_ITEMS.filter((item) => allows(role, item))

/** The page guard of a navigation item: the same rule, by its address. */
export const guardOf = (href: string): Pick<NavItem, 'permission' | 'unless'> => {
  const item = NAV_ITEMS.find((i) => i.href === href)
  if (!item) throw new Error(`No navigation item for ${href}`)
  return { permission: item.permission, unless: item.unless }
}
