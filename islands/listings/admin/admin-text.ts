// Texts and small rules of the admin listings grid (SPEC section 2 "Admin listings", section 8 "Listings"),
// one place each, shared by the island and its dialogs.
import { holds, type Permission } from '../../../src/shared/permissions'
import { ApiError } from '../../shared/api'
import type { FieldErrors } from '../../shared/form-rules'
import { LISTING_TEXT } from '../listing-format'

/** The signed-in admin, as the island needs them. */
export type AdminActor = {
  id: number
  /** The admin's permissions (src/shared/permissions.ts): what to show is decided from these, not the role. */
  permissions: Permission[]
  full_name: string
  city_id: number | null
  city_name: string | null
  state_name: string | null
  country_name: string | null
}

export const TEXT = {
  title: 'Listings Management',
  add: 'Add Listing',
  empty: LISTING_TEXT.emptyTitle,
  emptyHint: LISTING_TEXT.emptyText,
  loadError: LISTING_TEXT.loadErrorTitle,
  loadFailed: LISTING_TEXT.loadFailed,
  suspended: 'Listing suspended successfully',
  keptSuspended: 'Listing kept suspended: the broker is told your answer',
  reactivated: 'Listing reactivated successfully',
  updated: 'Listing updated successfully',
  deleted: 'Listing deleted successfully',
  created: 'Listing created successfully',
  deleting: 'Deleting listing...',
  networkError: 'Network error - please check your connection',
  deleteFailed: 'Failed to delete listing',
  updateFailed: 'Failed to update listing',
  createFailed: 'Failed to create listing. Please try again.',
  auditNote: 'Changes are logged in the audit trail.',
} as const

/** Whoever manages listings in every city (a master admin) filters and posts by place; a module admin works in their own. */
export const seesEveryCity = (actor: Pick<AdminActor, 'permissions'>) => holds(actor.permissions, 'manage:listing:any')

/** 'Admin Mode: ...' with the admin's city (module admin) or every city (master admin). */
export function bannerText(actor: AdminActor): string {
  const where = seesEveryCity(actor) ? 'across all cities' : `in ${actor.city_name ?? 'your city'}`
  return `Admin Mode: You can edit, suspend, and delete any listing ${where}`
}

export const suspendedText = (n: number) =>
  n === 0 ? 'No suspended listings need attention.' : `${n.toLocaleString('en-US')} suspended ${n === 1 ? 'listing needs' : 'listings need'} attention.`

/** The banner's second line (issue 29): owners asking for a review of an admin's suspension. */
export const reviewRequestedText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'broker asks' : 'brokers ask'} for a review of a suspension.`

export const deleteMessage = (entryId: string) =>
  `Are you sure you want to delete listing ${entryId}? This closes the listing permanently and removes it from every view.`

const detailOf = (err: unknown) => (err instanceof ApiError ? (err.body as { detail?: unknown } | null)?.detail : undefined)

/**
 * A toast for a failed change (SPEC section 8): the server's detail, then a network failure's own text, then the
 * error's message, then the fallback. (The transport gives every error a message, so status 0 is checked first.)
 */
export function failureMessage(err: unknown, fallback: string): string {
  const detail = detailOf(err)
  if (typeof detail === 'string' && detail) return detail
  if (err instanceof ApiError && err.status === 0) return TEXT.networkError
  if (err instanceof Error && err.message) return err.message
  return fallback
}

/** A create or edit refusal: a 422 list maps each message to its last location field; a string detail is general. */
export function describeFormError(err: unknown, fallback: string): { fields: FieldErrors; general: string | null } {
  const detail = detailOf(err)
  if (Array.isArray(detail)) {
    const fields: FieldErrors = {}
    for (const d of detail as { loc?: (string | number)[]; msg?: string }[]) {
      const field = String(d.loc?.at(-1) ?? '')
      if (field && d.msg && !fields[field]) fields[field] = d.msg
    }
    if (Object.keys(fields).length) return { fields, general: null }
  }
  return { fields: {}, general: typeof detail === 'string' && detail ? detail : fallback }
}
