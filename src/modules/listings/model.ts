import { t } from 'elysia'
import { LIMITS, LISTING_STATUSES, LOCATION_ZONES, MODERATION_LIMITS, SUSPENSION_REASON_REQUIRED } from '../../shared/constants'
import { pageNumber, text, Nullable } from '../../shared/schema'

// SPEC section 3 "Listing", "Listing page response", "Listing filters"; section 5 "Broker listing form", "Admin create form".


export const POST_TYPE_MESSAGE = 'Please select a post type'
export const SALE_OR_RENT_MESSAGE = 'Please select sale or rent'

const postType = t.Union([t.Literal('REQ'), t.Literal('AVL')], { errorMessage: { required: POST_TYPE_MESSAGE, type: POST_TYPE_MESSAGE } })
const saleOrRent = t.Union([t.Literal('SALE'), t.Literal('RENT')], { errorMessage: { required: SALE_OR_RENT_MESSAGE, type: SALE_OR_RENT_MESSAGE } })
const status = t.Union(
  [t.Literal('ACTIVE'), t.Literal('CLOSED'), t.Literal('ON_HOLD'), t.Literal('SUSPENDED'), t.Literal('EXPIRED')],
  { errorMessage: { type: `Status must be one of ${LISTING_STATUSES.join(', ')}` } },
)
const zone = t.Union(
  [t.Literal('North'), t.Literal('East'), t.Literal('West'), t.Literal('South'), t.Literal('Central'), t.Literal('Outskirts')],
  { errorMessage: { type: `Location must be one of ${LOCATION_ZONES.join(', ')}` } },
)

export const VISIBILITIES = ['NETWORK', 'CIRCLE', 'ONLY_ME'] as const
const visibility = t.Union(
  [t.Literal('NETWORK'), t.Literal('CIRCLE'), t.Literal('ONLY_ME')],
  {
    description:
      'Who sees the listing (issue 35): NETWORK, every broker (the default); CIRCLE, the brokers of `circle_id`, one of its owner’s circles; ONLY_ME, its owner (private inventory, still matched for them). Admins of its scope see it whatever this says.',
    errorMessage: { type: `Visibility must be one of ${VISIBILITIES.join(', ')}` },
  },
)

export const ONWARD_SHARING = ['OFF', 'NAMED', 'ANONYMOUS'] as const
const onwardSharing = t.Union(
  [t.Literal('OFF'), t.Literal('NAMED'), t.Literal('ANONYMOUS')],
  {
    description:
      'Issue 34: whether other brokers who see the listing may make a public link of it for their clients (POST /api/listings/{id}/share-link): OFF (the default), NAMED (their pages say who listed it: the owner’s name, never a contact), ANONYMOUS (their pages never name the owner). Only the owner changes it; turned OFF, the other brokers’ links answer 410 from then on.',
    errorMessage: { type: `Onward sharing must be one of ${ONWARD_SHARING.join(', ')}` },
  },
)

export const Listing = t.Object({
  id: t.Integer(),
  entry_id: t.String({ examples: ['REQ-MUM-000123'] }),
  post_type: postType,
  sale_or_rent: saleOrRent,
  property_type: t.String(),
  contact_value: t.String(),
  contact_name: t.String(),
  budget: Nullable(t.Number()),
  size: Nullable(t.Number({ description: 'Square feet' })),
  location: Nullable(zone),
  locality: Nullable(t.String()),
  reference: Nullable(t.String()),
  type_details: Nullable(t.String()),
  details: Nullable(t.String()),
  comments: Nullable(t.String()),
  google_location_url: Nullable(t.String()),
  status,
  date: t.String({ format: 'date', description: 'Creation date (YYYY-MM-DD)' }),
  owner_user_id: t.Integer(),
  owner_name: t.String({ description: 'Shown as Broker' }),
  visibility,
  circle_id: t.Union([t.Integer(), t.Null()], { description: 'The owner’s circle a CIRCLE listing is shown to (null otherwise, or when that circle was deleted: then its owner only)' }),
  onward_sharing: onwardSharing,
  city_id: t.Integer(),
  city_name: t.String(),
  state_name: t.String(),
  country_name: t.String(),
  is_editable: t.Boolean({ description: 'True when the caller may change this listing' }),
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
  first_posted_at: t.String({
    format: 'date-time',
    description:
      'Days on market (issue 35): when the property was first posted on Brokernet. A listing posted as a repeat of one the duplicate check found (the caller’s own, confirmed, or another broker’s) takes the earlier first posting; renewing keeps it. Days on market are the whole days since then (the answer carries the moment, not the count: answers are cached until the data changes).',
  }),
  reported_off_at: t.Union([t.String({ format: 'date-time' }), t.Null()], {
    description:
      'Issue 35: when reports by three brokers took the listing off the network (it is SUSPENDED, seen by its broker and its admins only) until its broker answers them (POST /api/listings/{id}/reports/answer); null otherwise.',
  }),
  expires_at: t.Union([t.String({ format: 'date-time' }), t.Null()], {
    description: 'When the listing leaves the network (issue 17): an ACTIVE or ON_HOLD listing becomes EXPIRED then, until renewed. Null: never.',
  }),
  hotsheet: t.Object(
    {
      event: t.Union([t.Literal('NEW'), t.Literal('PRICE_CHANGED'), t.Literal('BACK_ON_MARKET')]),
      at: t.String({ format: 'date-time' }),
    },
    { description: 'The listing’s latest news: posted (NEW), its budget changed, or back to ACTIVE, and when. The tables tag it for 72 hours.' },
  ),
  moderation: t.Union(
    [
      t.Object({
        reason: t.String({ description: 'Why the admin suspended it' }),
        suspended_at: t.String({ format: 'date-time' }),
        review_requested_at: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'When the owner asked for a review; null when not asked, or answered' }),
        review_note: t.Union([t.String(), t.Null()], { description: 'The owner’s note to the admins with their request' }),
      }),
      t.Null(),
    ],
    {
      description:
        'Issue 29: set while the listing is SUSPENDED by an admin of its city (or a master admin), not by its owner. Only an admin reactivates such a listing (its owner gets 403 on every route that would); the owner may ask for a review (POST /api/listings/{id}/review-request). Null otherwise: a listing suspended by its owner is theirs to reactivate.',
    },
  ),
  cover: Nullable(
    t.Object(
      { url: t.String({ description: 'The cover’s 320 px WebP thumbnail, served to whoever may see the listing' }), width: t.Integer(), height: t.Integer() },
      { description: 'Issue 34: the listing’s first photo as a thumbnail and its size (cards and rows reserve it); null: no photo yet. GET /api/listings/{id}/photos lists them all.' },
    ),
  ),
})
export type Listing = typeof Listing.static
export type ListingModeration = NonNullable<Listing['moderation']>

export const ListingPage = t.Object({
  listings: t.Array(Listing),
  total: t.Integer(),
  total_pages: t.Integer(),
  page: t.Integer(),
  per_page: t.Integer(),
})
export type ListingPage = typeof ListingPage.static

const optionalId = t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))
const isoDate = t.Optional(t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: { pattern: 'Dates are YYYY-MM-DD' } }))
export const ListingQuery = t.Object({
  search: t.Optional(text({ max: 200, messages: {}, description: 'Entry ID (or a part of it), broker name, locality, property type, details: word prefixes, any case' })),
  post_type: t.Optional(postType),
  location: t.Optional(zone),
  sale_or_rent: t.Optional(saleOrRent),
  property_type: t.Optional(text({ max: 100, messages: {} })),
  country_id: optionalId,
  state_id: optionalId,
  city_id: optionalId,
  date_from: isoDate,
  date_to: isoDate,
  min_budget: t.Optional(t.Number({ minimum: 0 })),
  max_budget: t.Optional(t.Number({ minimum: 0 })),
  status: t.Optional(status),
  changed_since: t.Optional(
    t.String({ format: 'date-time', description: 'Only listings with news (posted, budget changed, back to ACTIVE) at or after this moment', errorMessage: { format: 'changed_since must be a date and time (ISO 8601)' } }),
  ),
  possible_duplicates: t.Optional(t.Boolean({ description: 'Only listings posted as a near-copy of another broker’s ACTIVE listing (duplicate control)' })),
  review_requested: t.Optional(t.Boolean({ description: 'Only listings suspended by an admin whose owner asked for a review that no admin has answered yet (issue 29)' })),
  on_market_over_days: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 3650,
      description:
        'Issue 35: only listings on the market more than this many whole days (since `first_posted_at`; the list’s "on market over 60 days" is 60). Judged by the hour: a listing crossing the line joins within the hour.',
      errorMessage: { type: 'on_market_over_days must be a whole number of days from 1 to 3650', minimum: 'on_market_over_days must be a whole number of days from 1 to 3650', maximum: 'on_market_over_days must be a whole number of days from 1 to 3650' },
    }),
  ),
  page: t.Optional(pageNumber),
  per_page: t.Optional(
    t.Integer({ minimum: 1, maximum: 100, default: 50, description: 'One of 10, 25, 50, 100', errorMessage: { type: 'per_page must be 10, 25, 50 or 100', minimum: 'per_page must be 10, 25, 50 or 100', maximum: 'per_page must be 10, 25, 50 or 100' } }),
  ),
})
export type ListingQuery = typeof ListingQuery.static
export type ListingFilters = Omit<ListingQuery, 'page' | 'per_page'>

/** The list's filters without paging (a zone filter is accepted and set aside): GET /api/listings/zones. */
export const ListingFiltersQuery = t.Omit(ListingQuery, ['page', 'per_page'])

export const ZoneCounts = t.Object(
  {
    total: t.Integer({ description: 'Every listing matching the filters, whatever its zone (and with none)' }),
    zones: t.Object(Object.fromEntries(LOCATION_ZONES.map((z) => [z, t.Integer()])) as Record<(typeof LOCATION_ZONES)[number], ReturnType<typeof t.Integer>>),
  },
  { description: 'How many listings the caller sees in each zone with the filters' },
)
export type ZoneCounts = typeof ZoneCounts.static

const optionalText = (max: number, what: string, multiline = false) =>
  t.Optional(Nullable(text({ max, multiline, messages: { maxLength: `${what} must be at most ${max} characters` } })))

const privateText = (max: number, what: string, multiline = false) =>
  t.Optional(Nullable(text({ max, multiline, messages: { maxLength: `${what} must be at most ${max} characters` } })))

/**
 * A listing's private fields (issue 35; docs/decisions/038-private-fields.md): seen only by its broker and the admins
 * of its scope, never in a list, search, export, share text, match, mail or log. Sent fields replace, absent ones stay,
 * null clears.
 */
export const PrivateFieldsBody = t.Object(
  {
    owner_name: privateText(100, 'Owner name'),
    owner_phone: privateText(40, 'Owner phone'),
    address: privateText(300, 'Exact address'),
    bottom_price: t.Optional(t.Union([t.Number({ minimum: 0 }), t.Null()], { errorMessage: { type: 'Bottom price must be positive' } })),
    note: privateText(2000, 'Private note', true),
  },
  { description: 'The owner’s or client’s name and phone, the exact address or unit, the bottom price and a private note' },
)
export type PrivateFieldsBody = typeof PrivateFieldsBody.static

export const PrivateFields = t.Object({
  listing_id: t.Integer(),
  owner_name: Nullable(t.String()),
  owner_phone: Nullable(t.String()),
  address: Nullable(t.String()),
  bottom_price: Nullable(t.Number()),
  note: Nullable(t.String()),
  updated_at: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'Null: none saved yet' }),
})
export type PrivateFields = typeof PrivateFields.static

export const ContactCheckBody = t.Object({ contact_value: t.String({ maxLength: 200 }) })
export const ContactCheckAnswer = t.Object({
  private_owner_phone_of: t.Array(t.Object({ id: t.Integer(), entry_id: t.String() }), {
    description: 'The caller’s own listings (at most 10) whose private owner phone is this contact, compared as duplicate control compares contacts',
  }),
})
export type ContactCheckAnswer = typeof ContactCheckAnswer.static

/** The broker form's rules (SPEC section 5); admins send the same body, plus `city_id`. */
export const CreateListingBody = t.Object({
  post_type: postType,
  sale_or_rent: saleOrRent,
  contact_value: text({ min: LIMITS.contactValueMin, max: 200, messages: { required: 'Contact value must be at least 5 characters', minLength: 'Contact value must be at least 5 characters', maxLength: 'Contact value must be at most 200 characters' } }),
  property_type: text({ min: LIMITS.propertyTypeMin, max: 100, messages: { required: 'Property type is required', minLength: 'Property type is required', maxLength: 'Property type must be at most 100 characters' } }),
  // A union reports its own failure, not its members': the message sits on the union too.
  budget: t.Optional(t.Union([t.Number({ minimum: 0 }), t.Null()], { errorMessage: { type: 'Budget must be positive' } })),
  size: t.Optional(t.Union([t.Number({ minimum: 0 }), t.Null()], { errorMessage: { type: 'Size must be positive' } })),
  location: t.Optional(Nullable(zone)),
  locality: optionalText(200, 'Locality'),
  reference: optionalText(200, 'Reference'),
  type_details: optionalText(500, 'Type details', true),
  details: optionalText(4000, 'Details', true),
  comments: optionalText(2000, 'Comments', true),
  google_location_url: t.Optional(
    t.Union([t.String({ maxLength: 2000, pattern: '^https?://[^\\s]+\\.[^\\s]+$' }), t.Null()], { errorMessage: { type: 'Please enter a valid URL' } }),
  ),
  status: t.Optional(status),
  contact_name: optionalText(100, 'Contact name'),
  city_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Admins: the listing’s city (module admins: always their own). Brokers: ignored, the broker’s city is used.' })),
  visibility: t.Optional(visibility),
  circle_id: t.Optional(
    t.Union([t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), t.Null()], { description: 'With visibility CIRCLE: one of the listing owner’s circles (GET /api/circles); required then, ignored otherwise' }),
  ),
  onward_sharing: t.Optional(onwardSharing),
  private: t.Optional(PrivateFieldsBody),
  confirm_duplicate: t.Optional(
    t.Boolean({ description: 'Post it even though it repeats one of the caller’s own ACTIVE listings (otherwise 409 `duplicate listing`, naming it)' }),
  ),
  expires_at: t.Optional(
    t.String({
      format: 'date-time',
      description: 'An earlier end than the default (the city’s days for RENT or SALE from now): in the future, and never later than that default (422 otherwise). Absent: the default.',
      errorMessage: { format: 'expires_at must be a date and time (ISO 8601)' },
    }),
  ),
})
export type CreateListingBody = typeof CreateListingBody.static

/** A listing being written, as far as duplicate control compares it (POST /api/listings/duplicates). */
export const DuplicateDraft = t.Object({
  post_type: postType,
  sale_or_rent: saleOrRent,
  contact_value: t.Optional(Nullable(t.String({ maxLength: 200 }))),
  property_type: t.Optional(Nullable(t.String({ maxLength: 100 }))),
  locality: t.Optional(Nullable(t.String({ maxLength: 200 }))),
  details: t.Optional(Nullable(t.String({ maxLength: 4000 }))),
  budget: t.Optional(t.Union([t.Number({ minimum: 0 }), t.Null()], { errorMessage: { type: 'Budget must be positive' } })),
  size: t.Optional(t.Union([t.Number({ minimum: 0 }), t.Null()], { errorMessage: { type: 'Size must be positive' } })),
  city_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Master admins: the city the listing would go to. Others: their own city is used.' })),
})
export type DuplicateDraft = typeof DuplicateDraft.static

/** `same_photo` (issue 34): one of its photos is a photo of the other listing, resized or recompressed or not. */
const DUPLICATE_REASONS = ['same_contact', 'similar_details', 'same_locality', 'size_within_5_percent', 'budget_within_10_percent', 'same_photo'] as const
export const DuplicatesAnswer = t.Object({
  duplicates: t.Array(
    t.Object({
      listing: Listing,
      own: t.Boolean({ description: 'The caller’s own listing: posting a near-copy of it needs confirm_duplicate' }),
      similarity: t.Number({ description: 'Overlap of the words of the details (shared words over all words, 0 to 1); 0.6 or more is similar' }),
      reasons: t.Array(t.Union(DUPLICATE_REASONS.map((r) => t.Literal(r)))),
    }),
    { description: 'Most alike first, at most 10' },
  ),
})
export type DuplicatesAnswer = typeof DuplicatesAnswer.static

const SUSPENSION_REASON_MAX = MODERATION_LIMITS.reasonMax

/** Partial: any subset of the create fields, e.g. only `status`; an admin suspending another's listing adds why. */
export const UpdateListingBody = t.Object({
  ...t.Partial(CreateListingBody).properties,
  suspension_reason: t.Optional(
    text({
      max: SUSPENSION_REASON_MAX,
      multiline: true,
      messages: { required: SUSPENSION_REASON_REQUIRED, maxLength: `The reason must be at most ${SUSPENSION_REASON_MAX} characters` },
      description:
        'Issue 29: required when an admin suspends a listing that is not their own (422 without it); shown to the owner, who cannot reactivate it. Sent on a listing already suspended by an admin, it replaces the reason and answers a pending review (the suspension stays). Only with status SUSPENDED, by an admin.',
    }),
  ),
})
export type UpdateListingBody = typeof UpdateListingBody.static

const REVIEW_NOTE_MAX = MODERATION_LIMITS.noteMax

/** POST /api/listings/{id}/review-request: the owner's optional note to the admins. */
export const ReviewRequestBody = t.Object({
  note: t.Optional(
    text({ max: REVIEW_NOTE_MAX, multiline: true, messages: { maxLength: `The note must be at most ${REVIEW_NOTE_MAX} characters` }, description: 'What the owner wants the admins to know (e.g. what they corrected)' }),
  ),
})
export type ReviewRequestBody = typeof ReviewRequestBody.static

/** Its answer: the listing, now awaiting a review, and how many admins were told by mail. */
export const ReviewRequestAnswer = t.Object({
  listing: Listing,
  admins_notified: t.Integer({ description: 'The active module admins of the listing’s city and master admins mailed' }),
})

/** POST /api/listings/{id}/renew's answer: the listing, ACTIVE again if it had expired, until its new `expires_at`. */
export const RenewAnswer = t.Object({ listing: Listing })

export const ListingIdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })

export const DashboardStats = t.Object({
  total_requirements: t.Integer(),
  total_availabilities: t.Integer(),
  active_brokers: t.Integer(),
  new_posts_today: t.Integer(),
  scope: t.String({ description: "'global', or 'city' for a module admin" }),
})
export type DashboardStats = typeof DashboardStats.static

/**
 * The admin create form's rules (SPEC section 5 "Admin create form"): the islands check these in the browser; the
 * server applies the same requirements to admins (city and details) with the same messages.
 */
export const AdminListingForm = t.Object({
  post_type: t.Union([t.Literal('REQ'), t.Literal('AVL')], { errorMessage: { required: 'Post type is required', type: 'Post type is required' } }),
  contact_value: text({ min: 1, max: 200, messages: { required: 'Contact value is required', minLength: 'Contact value is required' } }),
  sale_or_rent: t.Union([t.Literal('SALE'), t.Literal('RENT')], { errorMessage: { required: 'Sale or rent is required', type: 'Sale or rent is required' } }),
  property_type: text({ min: 1, max: 100, messages: { required: 'Property type is required', minLength: 'Property type is required' } }),
  country_id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, errorMessage: { required: 'Country is required', type: 'Country is required', minimum: 'Country is required' } }),
  state_id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, errorMessage: { required: 'State is required', type: 'State is required', minimum: 'State is required' } }),
  city_id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, errorMessage: { required: 'City is required', type: 'City is required', minimum: 'City is required' } }),
  details: text({ min: 1, max: 4000, multiline: true, messages: { required: 'Details are required', minLength: 'Details are required' } }),
})
