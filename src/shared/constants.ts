// Business constants of SPEC section 9, in one place so a change is one edit. Imported by server and islands.

/** The master admin created at first start when ADMIN_EMAIL is unset (src/platform/config.ts), and the bench seed's. */
export const DEFAULT_ADMIN_EMAIL = 'admin@brokernet.local'

export const ROLES = ['MASTER_ADMIN', 'MODULE_ADMIN', 'BROKER'] as const
export type Role = (typeof ROLES)[number]
export const ROLE_LABELS: Record<Role, string> = {
  MASTER_ADMIN: 'Master Admin',
  MODULE_ADMIN: 'Module Admin',
  BROKER: 'Broker',
}

export const REGISTRATION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number]

export const POST_TYPES = ['REQ', 'AVL'] as const
export type PostType = (typeof POST_TYPES)[number]
export const POST_TYPE_LABELS: Record<PostType, string> = { REQ: 'Requirement', AVL: 'Availability' }

export const SALE_OR_RENT = ['SALE', 'RENT'] as const
export type SaleOrRent = (typeof SALE_OR_RENT)[number]

/** EXPIRED (issue 17) is set by the clock when a listing's `expires_at` passes, never by hand; renewing ends it. */
export const LISTING_STATUSES = ['ACTIVE', 'CLOSED', 'ON_HOLD', 'SUSPENDED', 'EXPIRED'] as const
export type ListingStatus = (typeof LISTING_STATUSES)[number]

/** The statuses a listing can expire from: an ACTIVE or ON_HOLD listing whose `expires_at` has passed becomes EXPIRED. */
export const EXPIRING_STATUSES = ['ACTIVE', 'ON_HOLD'] as const

/** How long a listing stays on the network after posting or renewal, by default and within a city's setting (issue 17). */
export const EXPIRY_DAYS = { RENT: 30, SALE: 90, min: 1, max: 365 } as const

/** An owner is reminded this long before their listing expires (issue 17). */
export const EXPIRY_REMINDER_MS = 3 * 24 * 3600 * 1000
/** A reminder's one-click renew link works for this long after it is mailed (and once: a renewal ends it). */
export const RENEW_LINK_MS = 7 * 24 * 3600 * 1000

export const LOCATION_ZONES = ['North', 'East', 'West', 'South', 'Central', 'Outskirts'] as const
export type LocationZone = (typeof LOCATION_ZONES)[number]

export const LIMITS = {
  passwordMin: 8,
  fullNameMin: 2,
  phoneMin: 10,
  contactValueMin: 5,
  propertyTypeMin: 2,
  geoNameMin: 2,
  geoCodeMin: 2,
  geoCodeMax: 10,
  newscoRegionMax: 50,
  registrationFileBytes: 5 * 1024 * 1024,
  adminUploadFileBytes: 10 * 1024 * 1024,
} as const

/** Moderation (issue 29): the longest reason an admin gives for suspending, and note an owner adds asking for a review. */
export const MODERATION_LIMITS = { reasonMax: 500, noteMax: 1000 } as const
export const SUSPENSION_REASON_REQUIRED = 'A reason is required when an admin suspends a listing'

export const PAGE_SIZES = [10, 25, 50, 100] as const
/** The last page number a list accepts: far past any real list, and small enough that offsets stay exact. */
export const MAX_PAGE = 1_000_000
export const DEFAULT_PAGE_SIZE = { dashboard: 25, service: 50 } as const
/**
 * The broker's network list opens on their own city (issue 32) unless they widened it to every city, remembered in
 * this cookie ('all'), which the page reads before it renders (so no other city flashes by first).
 */
export const CITY_SCOPE_COOKIE = 'bn_cities'

export const ANALYTICS = { topBrokersLimit: 10, defaultPeriodDays: 30, presets: [7, 30, 90, 180, 365], maxRangeDays: 365, queryRetries: 2 } as const

/** The custom range's rules (SPEC section 5), said by the server's 422 and the picker's alert alike. */
export const ANALYTICS_RANGE_MESSAGES = {
  order: 'Start date must be before or equal to end date',
  tooLong: 'Date range cannot exceed 365 days',
} as const

export const SEARCH_DEBOUNCE_MS = 300

/** Refresh intervals in milliseconds (SPEC section 9). */
export const REFRESH_MS = {
  dashboardListings: 120_000,
  dashboardStats: 300_000,
  myListings: 30_000,
  userLists: 30_000,
  pendingApprovalsScreen: 10_000,
  pendingApprovalsNav: 30_000,
  // Not in the SPEC (matching came later): the unseen-matches badge, polled only while the live stream is down.
  unseenMatchesNav: 30_000,
  analytics: 300_000,
  // Not in the SPEC (the original had no audit log): as often as the other lists.
  auditLog: 30_000,
} as const

/** Toast lifetimes in milliseconds; loading toasts stay until replaced (SPEC section 9). */
export const TOAST = {
  successMs: 2000,
  errorMs: 4000,
  blankMs: 4000,
  defaultMs: 4000,
  /** A toast offering to take back what was just done ("Not interested", issue 32): long enough to reach Undo. */
  undoMs: 10_000,
  max: 20,
  maxWidthPx: 400,
} as const

export const SESSION_DAYS = 30

const MINUTE_MS = 60_000
/** Rate limits of sign-in and password reset (429 with Retry-After beyond them). */
export const RATE_LIMITS = {
  failedLoginPerAccount: { limit: 5, windowMs: 15 * MINUTE_MS },
  failedLoginPerAddress: { limit: 20, windowMs: 15 * MINUTE_MS },
  resetRequestPerAccount: { limit: 3, windowMs: 60 * MINUTE_MS },
  resetRequestPerAddress: { limit: 10, windowMs: 60 * MINUTE_MS },
  registrationPerAddress: { limit: 20, windowMs: 60 * MINUTE_MS },
  // Issue 29: wrong one-time codes (sign-in's second step, enrolment, regeneration, turning it off), per account and address.
  failedSecondFactorPerAccount: { limit: 5, windowMs: 15 * MINUTE_MS },
  failedSecondFactorPerAddress: { limit: 20, windowMs: 15 * MINUTE_MS },
} as const

/**
 * Second factor (issue 29): RFC 6238 codes of 6 digits every 30 s, SHA-1 (what every authenticator app reads), one
 * step either side accepted for clocks that drift; ten recovery codes; the sign-in's second step waits 5 minutes.
 */
export const SECOND_FACTOR = { periodSeconds: 30, digits: 6, windowSteps: 1, recoveryCodes: 10, challengeMs: 5 * MINUTE_MS, issuer: 'Brokernet' } as const

/**
 * Characters of WhatsApp pastes one user may have read per minute, per process (POST /api/listings/parse): five pastes of
 * the largest size, or hundreds of ordinary ones. Reading costs time in proportion to the characters.
 */
export const PASTE_BUDGET = { chars: 100_000, windowMs: MINUTE_MS } as const

export const RESET_TOKEN_MINUTES = 60

/**
 * Saved searches (issue 17): how many a user keeps, a name's length, and where a new count stops (shown "99+"; see
 * docs/decisions/018-saved-searches.md).
 */
export const SAVED_SEARCHES = { limit: 20, nameMax: 60, newCountCap: 100 } as const

/** Devices one user may take push alerts on (issue 33): a limit a person never meets, and a bound on what one account makes the server send. */
export const MAX_PUSH_DEVICES = 10
