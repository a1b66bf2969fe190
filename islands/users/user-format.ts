// Texts and formats of the user management screens (SPEC section 2 "Broker Management" / "Module Admin Management"),
// one place for each, shared by the island, its table and its dialogs.
import type { User } from '../../src/modules/users/model'
import { holds, type Permission } from '../../src/shared/permissions'

export type ManagedRole = 'BROKER' | 'MODULE_ADMIN'

/** The signed-in admin, as the island needs them. */
export type Actor = { id: number; permissions: Permission[]; city_id: number | null; city_name: string | null; state_name: string | null }

/** Whoever manages users in every city (a master admin) picks the city; everyone else works in their own. */
export const managesEveryCity = (actor: Pick<Actor, 'permissions'>) => holds(actor.permissions, 'manage:user:any')

export const KIND_TEXT = {
  BROKER: {
    title: 'Broker',
    one: 'broker',
    many: 'brokers',
    empty: 'No brokers found',
    start: 'Get started by adding your first broker',
    errorTitle: 'Error Loading Brokers',
    loadFailed: 'Failed to load brokers',
    access: 'access to the platform',
  },
  MODULE_ADMIN: {
    title: 'Module Admin',
    one: 'module admin',
    many: 'module admins',
    empty: 'No module admins found',
    start: 'Get started by adding your first module admin',
    errorTitle: 'Error Loading Module Admins',
    loadFailed: 'Failed to load module admins',
    access: 'administrative access to their assigned city',
  },
} as const satisfies Record<ManagedRole, Record<string, string>>

export const FILTERED_EMPTY = 'Try adjusting your search or filters'
export const SEARCH_PLACEHOLDER = 'Search by name, email, or ID card number...'
export const CREATE_FAILED = 'Failed to create user. Please try again.'
export const UPDATE_FAILED = 'Failed to update user. Please try again.'
export const ACTIVATION_FAILED = 'Failed to change the account status. Please try again.'
/** The server's 404 detail for a user without an identity document (GET /api/users/{id}/id-card). */
export const NO_ID_CARD_DOCUMENT = 'This user has no ID card document'

/** The activation confirmation of SPEC sections 4 and 8, and the fixed reason sent with it. */
export function activationText(kind: ManagedRole, user: Pick<User, 'full_name' | 'is_active'>) {
  const deactivate = user.is_active
  return {
    title: `${deactivate ? 'Deactivate' : 'Activate'} ${KIND_TEXT[kind].title}`,
    message: `Are you sure you want to ${deactivate ? 'deactivate' : 'activate'} ${user.full_name}? They will ${deactivate ? 'lose' : 'regain'} ${KIND_TEXT[kind].access}.`,
    confirm: deactivate ? 'Deactivate' : 'Activate',
    tone: deactivate ? ('error' as const) : ('info' as const),
    reason: deactivate ? 'Deactivated by admin' : 'Activated by admin',
    done: `${user.full_name} has been ${deactivate ? 'deactivated' : 'activated'}`,
  }
}

// In UTC, so the server's render and the browser's hydration print the same day.
// Made at first use: the server imports this file at start (it shares a chunk with start-up code), and the first
// Intl.DateTimeFormat of a process loads ICU's data (~6 % of the binary's start-up CPU; issue 36).
let joined: Intl.DateTimeFormat | undefined
const JOINED = () => (joined ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }))

/** 'Nov 21, 2026' (SPEC: short month, day, year, US English). */
export const formatJoined = (iso: string) => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : JOINED().format(date)
}

export const initialOf = (name: string) => name.trim().charAt(0).toUpperCase() || '?'

/** 'Pune, Maharashtra', or null without a city. */
export const placeOf = (u: Pick<User, 'city_name' | 'state_name'>) => (u.city_name ? [u.city_name, u.state_name].filter(Boolean).join(', ') : null)

export { showingText } from '../shared/Pagination'
