// Texts, labels and formats of the audit log screen, one place each, shared by the island, its table and its dialog.
import type { AuditEvent, AuditNames } from '../../src/modules/audit/model'
import { POST_TYPE_LABELS, REFRESH_MS, ROLE_LABELS } from '../../src/shared/constants'

export const AUDIT_TEXT = {
  empty: 'No audit events found',
  filteredEmpty: 'Try adjusting your filters',
  start: 'Changes to listings, people and geography will appear here as they happen.',
  errorTitle: 'Error Loading Audit Logs',
  loadFailed: 'Failed to load audit logs',
  actorPlaceholder: 'Filter by actor name...',
  many: 'events',
  system: 'System',
} as const

/** The trail changes whenever anyone changes anything: refreshed like the user lists. */
export const AUDIT_REFRESH_MS = REFRESH_MS.auditLog

const ACTION_LABELS: Record<string, string> = {
  'listing.create': 'Listing created',
  'listing.update': 'Listing updated',
  'listing.renew': 'Listing renewed',
  'listing.suspend': 'Listing suspended',
  'listing.reactivate': 'Listing reactivated',
  'listing.review_request': 'Review requested',
  'listing.suspension_upheld': 'Suspension upheld',
  'listing.delete': 'Listing deleted',
  'user.register': 'User registered',
  'user.create': 'User created',
  'user.update': 'User updated',
  'user.approve': 'User approved',
  'user.reject': 'User rejected',
  'user.activate': 'User activated',
  'user.deactivate': 'User deactivated',
  'user.password_reset': 'Password reset',
  'user.id_card_view': 'ID card viewed',
  'user.second_factor_enable': 'Two-factor sign-in turned on',
  'user.second_factor_disable': 'Two-factor sign-in turned off',
  'user.second_factor_reset': 'Two-factor sign-in reset',
  'user.second_factor_recovery_codes': 'Recovery codes renewed',
  'user.second_factor_recovery_used': 'Recovery code used',
  'user.second_factor_failed': 'Wrong sign-in code',
  'setting.update': 'Setting changed',
  'country.create': 'Country created',
  'country.update': 'Country updated',
  'country.delete': 'Country deleted',
  'state.create': 'State created',
  'state.update': 'State updated',
  'state.delete': 'State deleted',
  'city.create': 'City created',
  'city.update': 'City updated',
  'city.delete': 'City deleted',
  'city.match_tolerance': 'Match tolerance set',
  'city.listing_expiry': 'Listing expiry set',
  'backup.create': 'Backup started',
  'saved_search.create': 'Saved search created',
  'saved_search.update': 'Saved search changed',
  'saved_search.delete': 'Saved search deleted',
}

const PAST: Record<string, string> = { create: 'created', update: 'updated', delete: 'deleted', approve: 'approved', reject: 'rejected' }

/**
 * 'listing.update' → 'Listing updated'; an action not listed here in words all the same (issue 32: no raw names):
 * 'saved_search.archive' → 'Saved search archive'.
 */
export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action]
  if (known) return known
  const [entity = '', verb = ''] = action.split('.')
  const words = `${entityTypeLabel(entity)} ${PAST[verb] ?? verb.replace(/_/g, ' ')}`.trim()
  return words || action
}

/** 'listing' → 'Listing'. */
export const entityTypeLabel = (type: string) => (type ? type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, ' ') : type)

/** 'Listing #42', or just 'Listing' when the event names no row. */
export const entityLabel = (e: Pick<AuditEvent, 'entity_type' | 'entity_id'>) => `${entityTypeLabel(e.entity_type)}${e.entity_id ? ` #${e.entity_id}` : ''}`

/**
 * The entity as a reader names it (issue 32): a listing by its entry ID ('REQ-MUM-000266'), anything else by its
 * kind and name ('User · Rahul Sharma'); the row number only when no name is known.
 */
export function entityShown(e: Pick<AuditEvent, 'entity_type' | 'entity_id' | 'names'>): string {
  const kind = ENTITY_KINDS[e.entity_type]
  const name = kind && e.entity_id ? e.names?.[kind]?.[e.entity_id] : undefined
  if (!name) return entityLabel(e)
  return e.entity_type === 'listing' ? name : `${entityTypeLabel(e.entity_type)} · ${name}`
}

export const actorLabel = (e: Pick<AuditEvent, 'actor_name'>) => e.actor_name ?? AUDIT_TEXT.system

/** Tone of an action's badge: removals red, creations green, the rest neutral. */
export function actionTone(action: string): string {
  const verb = action.split('.').at(-1) ?? ''
  if (['delete', 'reject', 'deactivate', 'suspend'].includes(verb)) return 'badge-error'
  if (['create', 'register', 'approve', 'activate', 'reactivate'].includes(verb)) return 'badge-success'
  return 'badge-ghost'
}

export type AuditFilters = { actor: string; action: string; entity_type: string; date_from: string; date_to: string }
export const NO_FILTERS: AuditFilters = { actor: '', action: '', entity_type: '', date_from: '', date_to: '' }

export const isFiltered = (f: AuditFilters) => Object.values(f).some((v) => v.trim() !== '')

/** The query of GET /api/audit and its CSV export: only the filters that are set. */
export function filterQuery(f: AuditFilters): URLSearchParams {
  const q = new URLSearchParams()
  for (const key of ['actor', 'action', 'entity_type', 'date_from', 'date_to'] as const) {
    const v = f[key].trim()
    if (v) q.set(key, v)
  }
  return q
}

export function listUrl(f: AuditFilters, page: number, perPage: number): string {
  const q = filterQuery(f)
  q.set('page', String(page))
  q.set('per_page', String(perPage))
  return `/api/audit?${q}`
}

export function exportUrl(f: AuditFilters): string {
  const q = filterQuery(f).toString()
  return `/api/audit/export.csv${q ? `?${q}` : ''}`
}

const ENTITY_KINDS: Record<string, keyof AuditNames> = { user: 'users', city: 'cities', state: 'states', country: 'countries', listing: 'listings' }

const TIME_FORMATS = new Map<string, Intl.DateTimeFormat>()

/**
 * 'Nov 21, 2026, 3:04:05 PM' in `timeZone` (the browser's own when not given); 'Nov 21, 2026' for `dayOnly`. The server and the hydrating
 * browser pass 'UTC', so both print the same text; the island then switches to the browser's zone.
 */
export function formatTime(iso: string, timeZone?: string, dayOnly = false): string {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return iso
  const key = `${timeZone ?? ''}${dayOnly ? ' day' : ''}`
  let format = TIME_FORMATS.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', ...(dayOnly ? {} : { timeStyle: 'medium' }), timeZone })
    TIME_FORMATS.set(key, format)
  }
  return format.format(at) + (timeZone === 'UTC' && !dayOnly ? ' UTC' : '')
}

/** One field of the before/after comparison; `undefined` means the field is absent on that side. */
export type FieldDiff = { field: string; before: unknown; after: unknown; changed: boolean }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Before and after, field by field, in the order the fields were recorded (before's, then fields only after has).
 * A side that is not an object (e.g. a bare value) is compared as one field named 'value'.
 */
export function diffFields(before: unknown, after: unknown): FieldDiff[] {
  const b = before === null || before === undefined ? {} : isRecord(before) ? before : { value: before }
  const a = after === null || after === undefined ? {} : isRecord(after) ? after : { value: after }
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])]
  return fields.map((field) => ({ field, before: b[field], after: a[field], changed: !(field in b && field in a && same(b[field], a[field])) }))
}

/** What the event's two sides hold: both (a change), only after (a creation), only before (a removal), or neither. */
export function eventShape(e: Pick<AuditEvent, 'before' | 'after'>): 'change' | 'created' | 'removed' | 'none' {
  const hasBefore = e.before !== null && e.before !== undefined
  const hasAfter = e.after !== null && e.after !== undefined
  return hasBefore && hasAfter ? 'change' : hasAfter ? 'created' : hasBefore ? 'removed' : 'none'
}

/** A value as indented JSON; strings too, so "" and null stay distinguishable. */
export const formatValue = (v: unknown) => (v === undefined ? '' : JSON.stringify(v, null, 2))

// ---------------------------------------------------------------------------------------------------------------
// Field labels and values as a reader says them: users are recorded in snake_case, listings and geography rows in
// camelCase; both come here as snake_case.

const snakeCase = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** Every field the app writes to the trail (users, registrations, listings, countries, states, cities). */
export const FIELD_LABELS: Record<string, string> = {
  // people
  email: 'Email',
  full_name: 'Full name',
  phone: 'Phone',
  role: 'Role',
  is_active: 'Active',
  registration_status: 'Registration status',
  id_card_number: 'ID card number',
  id_card_document: 'ID card document',
  // listings
  entry_id: 'Entry ID',
  post_type: 'Post type',
  sale_or_rent: 'Sale/Rent',
  property_type: 'Property type',
  contact_value: 'Contact',
  contact_name: 'Contact name',
  budget: 'Budget',
  size: 'Size (sq ft)',
  location: 'Location zone',
  locality: 'Locality',
  reference: 'Reference',
  type_details: 'Type details',
  details: 'Details',
  comments: 'Comments',
  google_location_url: 'Google location URL',
  status: 'Status',
  date: 'Date',
  owner_user_id: 'Broker',
  expires_at: 'Expires',
  via: 'Through',
  // moderation (issue 29)
  suspended_by: 'Suspended by',
  suspension_reason: 'Suspension reason',
  suspended_at: 'Suspended at',
  review_requested_at: 'Review requested',
  review_note: 'Review note',
  // co-broking (issue 35)
  visibility: 'Visibility',
  circle_id: 'Circle',
  reported_off_at: 'Taken off the network by reports',
  first_posted_at: 'First posted',
  // onward sharing (issue 34)
  onward_sharing: 'Other brokers may share it',
  // geography
  name: 'Name',
  code: 'Code',
  newsco_region: 'NEWSCO region',
  match_tolerance: 'Match tolerance (%)',
  rent_days: 'Rent listings expire after (days)',
  sale_days: 'Sale listings expire after (days)',
  // shared
  id: 'ID',
  city_id: 'City',
  state_id: 'State',
  country_id: 'Country',
  created_at: 'Created',
  updated_at: 'Updated',
  value: 'Value',
}

/** 'city_id' and 'cityId' → 'City'; a field not known here in words: 'someNewField' → 'Some new field'. */
export function fieldLabel(field: string): string {
  const key = snakeCase(field)
  if (FIELD_LABELS[key]) return FIELD_LABELS[key]
  const words = key.replace(/_/g, ' ').trim()
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : field
}

/** Fields whose value is the id of another row, and where its name is found. */
const REFERENCES: Record<string, { kind: keyof AuditNames; label: string }> = {
  city_id: { kind: 'cities', label: 'City' },
  state_id: { kind: 'states', label: 'State' },
  country_id: { kind: 'countries', label: 'Country' },
  owner_user_id: { kind: 'users', label: 'User' },
  suspended_by: { kind: 'users', label: 'User' },
}

/**
 * Moments: a listing's end, its moderation, and every other `…_at` the rows carry (created, updated, hot, renewed…),
 * kept as epoch ms or ISO text. A number this small is no moment (a count in a field so named): left as a number.
 */
const isMoment = (key: string, value: unknown) =>
  (key.endsWith('_at') || key === 'date') && ((typeof value === 'number' && value > 1e11) || (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value))))

/** The words of the fixed values (enums) the app records, where the screens have their own. */
const VALUE_LABELS: Record<string, Record<string, string>> = {
  post_type: POST_TYPE_LABELS,
  role: ROLE_LABELS,
  visibility: { NETWORK: 'Network (every broker)', CIRCLE: 'My circle', ONLY_ME: 'Only me' },
  // The listing form's own words (islands/listings/private-fields.tsx).
  onward_sharing: { OFF: 'No', NAMED: 'Yes, naming the listing broker', ANONYMOUS: 'Yes, without the listing broker’s name' },
  // How a renewal came (issue 17): from the app, or the link in the reminder mail.
  via: { api: 'The app', link: 'The reminder mail’s link' },
}

/** Fields whose values are fixed codes, not typed text: a status, a role, a kind, sale or rent. */
const isCodeField = (key: string) => key in VALUE_LABELS || /(^|_)(status|role|visibility|kind|sale_or_rent|via)$/.test(key)

/** 'ON_HOLD' → 'On hold', 'SALE' → 'Sale', 'api' → 'Api'. */
const codeWords = (code: string) => {
  const words = code.replace(/_/g, ' ').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export const NO_NAMES: AuditNames = { users: {}, cities: {}, states: {}, countries: {}, listings: {} }

/** How one side of a field reads: `text` is shown; `title`, when set, is the raw value behind it. */
export type ShownValue = { text: string; title?: string; muted?: boolean }

/**
 * A value as a reader wants it: null as '—', ids as the names the server sent ('Mumbai', with 'City #3' on hover),
 * yes/no for flags, grouped digits for numbers; text stays quoted, so an empty text and no value differ.
 */
export function shownValue(field: string, value: unknown, names: AuditNames = NO_NAMES, timeZone?: string): ShownValue {
  if (value === null || value === undefined) return { text: '—', muted: true }
  const ref = REFERENCES[snakeCase(field)]
  if (ref && typeof value === 'number') {
    const name = names[ref.kind]?.[String(value)]
    return name ? { text: name, title: `${ref.label} #${value}` } : { text: `${ref.label} #${value}`, title: 'No longer exists' }
  }
  if (typeof value === 'boolean') return { text: value ? 'Yes' : 'No', title: String(value) }
  const key = snakeCase(field)
  // Moments (kept as epoch ms or as ISO text): a local date and time (the reader's zone, issue 32), the recorded value
  // on hover.
  if (isMoment(key, value)) {
    // A day alone ('2026-11-27', a listing's date) has no time nor zone: the day as it is.
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return { text: formatTime(`${value}T00:00:00.000Z`, 'UTC', true), title: value }
    return { text: formatTime(new Date(value as number | string).toISOString(), timeZone), title: String(value) }
  }
  // Codes (a status, a role…) in words, as the screens show them: 'On hold', not ON_HOLD (issue 32); the code on hover.
  if (typeof value === 'string' && isCodeField(key) && /^[A-Za-z][A-Za-z0-9_]*$/.test(value))
    return { text: VALUE_LABELS[key]?.[value] ?? codeWords(value), title: value }
  if (typeof value === 'number') return { text: value.toLocaleString('en-US'), title: value >= 10_000 ? String(value) : undefined }
  return { text: formatValue(value) }
}


/** 'User #12 · Rahul Sharma', 'Listing #42 · REQ-MUM-000042', or entityLabel's text when there is no name. */
export function entityName(e: Pick<AuditEvent, 'entity_type' | 'entity_id' | 'names'>): string {
  const kind = ENTITY_KINDS[e.entity_type]
  const name = kind && e.entity_id ? e.names?.[kind]?.[e.entity_id] : undefined
  return name ? `${entityLabel(e)} · ${name}` : entityLabel(e)
}

/** In words, what the event did to its fields: 'Changed: Details, Status', 'Created', 'Removed'. */
export function changeSummary(e: Pick<AuditEvent, 'action' | 'before' | 'after'>): string {
  const shape = eventShape(e)
  if (shape === 'created') return 'Created'
  if (shape === 'removed') return 'Removed'
  if (shape === 'none') return actionLabel(e.action)
  const changed = diffFields(e.before, e.after).filter((f) => f.changed)
  return changed.length ? `Changed: ${changed.map((f) => fieldLabel(f.field)).join(', ')}` : 'Nothing changed'
}

/**
 * The table's one line about an event, in words (issue 32): 'Status: Active → On hold; Expires: Nov 30, 2026, 3:04:05
 * PM → …' with field labels and values as the details show them (names for ids, local times), at most 4 fields, and
 * the reason; 'Created', 'Removed' or the action otherwise. The server's `summary` (raw names) stays for the export.
 */
export function summaryInWords(e: Pick<AuditEvent, 'action' | 'before' | 'after' | 'reason' | 'names'>, timeZone?: string): string {
  const shape = eventShape(e)
  const names = e.names ?? NO_NAMES
  const plain = (field: string, v: unknown) => {
    const text = shownValue(field, v, names, timeZone).text
    const t = text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text
    return t.length > 40 ? `${t.slice(0, 37)}…` : t
  }
  let what: string
  if (shape === 'change') {
    const changed = diffFields(e.before, e.after).filter((f) => f.changed)
    what = changed.length
      ? changed
          .slice(0, 4)
          .map((f) => `${fieldLabel(f.field)}: ${plain(f.field, f.before)} → ${plain(f.field, f.after)}`)
          .join('; ') + (changed.length > 4 ? `; +${changed.length - 4} more` : '')
      : 'Nothing changed'
  } else what = shape === 'created' ? 'Created' : shape === 'removed' ? 'Removed' : actionLabel(e.action)
  return e.reason ? `${what} (${e.reason})` : what
}
