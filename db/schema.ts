import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { CONTACT_KEY_SQL } from '../src/shared/contact-key'
import { PROPERTY_KEY_SQL } from '../src/shared/property-key'
import { LISTING_STATUSES, LOCATION_ZONES, POST_TYPES, REGISTRATION_STATUSES, ROLES, SALE_OR_RENT } from '../src/shared/constants'

// Timestamps are stored as epoch milliseconds: compact, indexable, and serialised as ISO 8601 by JSON.
const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`)
const updatedAt = () =>
  integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`)

export const countries = sqliteTable(
  'countries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('countries_name_unique').on(t.name), uniqueIndex('countries_code_unique').on(t.code)],
)

export const states = sqliteTable(
  'states',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('states_country_name_unique').on(t.countryId, t.name), uniqueIndex('states_code_unique').on(t.code)],
)

export const cities = sqliteTable(
  'cities',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    stateId: integer('state_id')
      .notNull()
      .references(() => states.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    newscoRegion: text('newsco_region'),
    /** How far over a requirement's budget an availability may ask and still match, in percent (0–30; issue 15). */
    matchTolerance: integer('match_tolerance').notNull().default(10),
    /** How long a RENT and a SALE listing stays on the network after posting or renewal, in days (1–365; issue 17). */
    rentDays: integer('rent_days').notNull().default(30),
    saleDays: integer('sale_days').notNull().default(90),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('cities_state_name_unique').on(t.stateId, t.name)],
)

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    // Stored lower-cased: emails compare case-insensitively.
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name').notNull(),
    phone: text('phone'),
    role: text('role', { enum: ROLES }).notNull(),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(false),
    registrationStatus: text('registration_status', { enum: REGISTRATION_STATUSES }).notNull().default('PENDING'),
    rejectionReason: text('rejection_reason'),
    idCardNumber: text('id_card_number'),
    // Random file name under DATA_DIR/documents; never a path a client can reach directly.
    idCardDocument: text('id_card_document'),
    idCardDocumentType: text('id_card_document_type'),
    cityId: integer('city_id').references(() => cities.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_id_card_number_unique').on(t.idCardNumber),
    index('users_role_city_idx').on(t.role, t.cityId),
    index('users_status_idx').on(t.registrationStatus, t.createdAt),
    index('users_role_active_city_idx').on(t.role, t.isActive, t.cityId),
  ],
)

export const sessions = sqliteTable(
  'sessions',
  {
    // SHA-256 of the token, hex: a leaked database row cannot be replayed as a cookie.
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    /**
     * Opened by a password alone for an admin who must prove a second factor and has none yet (issue 29): it reaches
     * only the enrolment routes and page until enrolment completes (docs/decisions/025-admin-second-factor.md).
     */
    enrolmentOnly: integer('enrolment_only', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(), // SHA-256 of the emailed token
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
)

export const listings = sqliteTable(
  'listings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    entryId: text('entry_id').notNull(),
    postType: text('post_type', { enum: POST_TYPES }).notNull(),
    saleOrRent: text('sale_or_rent', { enum: SALE_OR_RENT }).notNull(),
    propertyType: text('property_type').notNull(),
    contactValue: text('contact_value').notNull(),
    contactName: text('contact_name').notNull(),
    budget: real('budget'),
    size: real('size'),
    location: text('location', { enum: LOCATION_ZONES }),
    locality: text('locality'),
    reference: text('reference'),
    typeDetails: text('type_details'),
    details: text('details'),
    comments: text('comments'),
    googleLocationUrl: text('google_location_url'),
    status: text('status', { enum: LISTING_STATUSES }).notNull().default('ACTIVE'),
    // The creation date as the user's calendar sees it (YYYY-MM-DD), used by date filters and "today".
    date: text('date').notNull(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The property type as matching compares it (src/shared/property-key.ts): computed by the database from
     * property_type, so every writer (the API, seeds, imports) agrees without a line of code.
     */
    propertyKey: text('property_key').generatedAlwaysAs(PROPERTY_KEY_SQL, { mode: 'virtual' }),
    /** The contact as duplicate control compares it (src/shared/contact-key.ts), computed by the database too. */
    contactKey: text('contact_key').generatedAlwaysAs(CONTACT_KEY_SQL, { mode: 'virtual' }),
    /**
     * Set when the listing was posted as a near-copy of another broker's ACTIVE listing (issue 17): co-listing is
     * allowed, and admins see these through the "Possible duplicates" filter. No foreign key: the other may go.
     */
    possibleDuplicateOf: integer('possible_duplicate_of'),
    /**
     * The hotsheet (issue 17): the listing's latest news after its creation, a price change or a return to ACTIVE,
     * and when (epoch ms). Null: none since it was posted (its news is its creation). Answers carry the event and its
     * time, never "is it hot": that depends on the clock, and answers are cached until the data changes.
     */
    hotEvent: text('hot_event', { enum: ['PRICE_CHANGED', 'BACK_ON_MARKET'] }),
    hotAt: integer('hot_at'),
    /**
     * When the listing leaves the network (epoch ms; issue 17): src/modules/listings/expiry.ts sets an ACTIVE or
     * ON_HOLD listing EXPIRED at that moment, so every kept count, index and cache follows as for any status change.
     * Null: never (rows written before expiry existed get one at the upgrade, migration 0029).
     */
    expiresAt: integer('expires_at'),
    /**
     * Moderation (issue 29): who suspended the listing when an admin of its city (or a master admin) did, not its
     * owner: such a suspension only an admin lifts (src/modules/listings/moderation.ts). Null: not suspended, or
     * suspended by its owner (theirs to lift, as SPEC says). No foreign key: a record of who, as the audit trail keeps.
     */
    suspendedBy: integer('suspended_by'),
    /** The admin's reason, required when an admin suspends; shown to the owner. */
    suspensionReason: text('suspension_reason'),
    /** When the admin suspended it (epoch ms). */
    suspendedAt: integer('suspended_at'),
    /** When the owner asked for a review (epoch ms), and their note to the admins; null once an admin has answered. */
    reviewRequestedAt: integer('review_requested_at'),
    reviewNote: text('review_note'),
    /**
     * The cover photo's thumbnail (issue 34): its stored name and size, so every card and row shows it sized without a
     * read of the photos. Kept by the photos feature through src/modules/listings/store.ts (`setCover`) whenever the
     * first photo changes; null: no photo yet.
     */
    coverPhoto: text('cover_photo'),
    coverWidth: integer('cover_width'),
    coverHeight: integer('cover_height'),
    /**
     * Who may see the listing (issue 35): the network (default), the brokers of one of its owner's circles, or its
     * owner only (and the admins of its scope). src/modules/listings/where.ts turns it into SQL with the scope.
     */
    visibility: text('visibility', { enum: ['NETWORK', 'CIRCLE', 'ONLY_ME'] }).notNull().default('NETWORK'),
    /** The owner's circle a CIRCLE listing is shown to (a circle deleted: its owner only). */
    circleId: integer('circle_id').references(() => circles.id, { onDelete: 'set null' }),
    /** When three brokers' reports took it off the network (issue 35), until its broker answers them. */
    reportedOffAt: integer('reported_off_at'),
    /**
     * Days on market (issue 35): when the property was first posted (epoch ms). A listing posted as a repeat of one it
     * is a duplicate of (the duplicate check's link) takes that one's; renewing changes nothing. Null: the listing's own
     * `created_at` (rows written before this column, which the upgrade leaves alone rather than rewrite every listing).
     */
    firstPostedAt: integer('first_posted_at'),
    /**
     * Onward sharing (issue 34): whether its owner lets other brokers who see it make a public link (/l/<token>) of it
     * for their clients: OFF (the default), NAMED (their pages say who listed it), ANONYMOUS (their pages never name
     * the owner). Turned OFF, every other broker's link to it is revoked (share-links/, through after-write's parts).
     */
    onwardSharing: text('onward_sharing', { enum: ['OFF', 'NAMED', 'ANONYMOUS'] }).notNull().default('OFF'),
  },
  (t) => [
    uniqueIndex('listings_entry_id_unique').on(t.entryId),
    // The few listings not shown to the whole network (issue 35): a broker's scope leaves out those of others not
    // shown to them, found through this small index rather than by reading every row's visibility.
    index('listings_not_network_idx').on(t.visibility, t.id, t.ownerUserId, t.circleId).where(sql`${t.visibility} <> 'NETWORK'`),
    // A listing's counterparts: one range of this index, the rule checked and the candidates scored from the index
    // entries alone (locality, age and owner included: reading ~2,000 rows instead took 4 of the 5 ms of a search).
    index('listings_match_idx').on(t.cityId, t.saleOrRent, t.postType, t.propertyKey, t.status, t.budget, t.size, t.location, t.locality, t.createdAt, t.ownerUserId),
    // Newest first is id order (ids grow with creation time); each filter index ends with id, so a page of
    // a filtered list is a range scan of one index, and its total a count over the same range.
    // status and owner close the filter indexes so a broker's visibility rule (not others' SUSPENDED or EXPIRED) is
    // read from the index, never from the rows.
    index('listings_visibility_idx').on(t.id, t.status, t.ownerUserId),
    index('listings_city_id_idx').on(t.cityId, t.id, t.status, t.ownerUserId),
    index('listings_owner_id_idx').on(t.ownerUserId, t.status, t.id),
    index('listings_status_id_idx').on(t.status, t.id),
    index('listings_city_type_deal_idx').on(t.cityId, t.postType, t.saleOrRent, t.id, t.status, t.ownerUserId),
    index('listings_type_deal_idx').on(t.postType, t.saleOrRent, t.id, t.status, t.ownerUserId),
    index('listings_location_budget_idx').on(t.location, t.budget, t.status, t.ownerUserId),
    // A zone's total within a budget range, status by status (`status in (…)`: one budget range per status, no status
    // read per entry): the first touch of a zone-and-budget list (docs/decisions/056-cold-reads.md).
    index('listings_location_status_budget_idx').on(t.location, t.status, t.budget, t.ownerUserId),
    // Duplicate control (src/modules/listings/duplicates.ts): the same contact, or the same locality, in one city.
    index('listings_contact_idx').on(t.cityId, t.contactKey, t.postType, t.saleOrRent, t.status),
    // The same locality's budget and size too: a busy locality holds thousands of one deal and type (2,123 in the
    // bench's largest city), each read from the table for the check's ranges (issue 36, decision 076).
    index('listings_locality_idx').on(t.cityId, sql`lower(${t.locality})`, t.postType, t.saleOrRent, t.status, t.budget, t.size),
    // `changed_since`: listings with news (posted, price changed, back on market) since a moment, newest news first.
    index('listings_hot_idx').on(sql`coalesce(${t.hotAt}, ${t.createdAt})`),
    // Days on market (`on_market_over_days`, decision 041): the listings first posted after the line, whose count is
    // taken from the filter's others' total (docs/decisions/056-cold-reads.md); status and owner for the scope.
    index('listings_on_market_idx').on(sql`coalesce(${t.firstPostedAt}, ${t.createdAt})`, t.status, t.ownerUserId),
    // The next listing to expire, and those due a reminder: only the ones that can still expire.
    index('listings_expiry_idx').on(t.expiresAt).where(sql`${t.status} in ('ACTIVE', 'ON_HOLD')`),
    index('listings_possible_duplicate_idx').on(t.id, t.status, t.ownerUserId).where(sql`${t.possibleDuplicateOf} is not null`),
    // The admins' `review_requested` filter and their banner's count (issue 29): the few listings awaiting a review,
    // newest first for a master admin, and by city for a module admin (whose city would otherwise take the city index
    // and look up every listing of the city for the column).
    index('listings_review_idx').on(t.id, t.status, t.ownerUserId, t.cityId).where(sql`${t.reviewRequestedAt} is not null`),
    index('listings_review_city_idx').on(t.cityId, t.id, t.status, t.ownerUserId).where(sql`${t.reviewRequestedAt} is not null`),
    // A zone newest first, budget at hand: a wide budget range in a zone finds its page in a few hundred entries
    // instead of sorting every match (read.ts picks between the two by the expected scan).
    index('listings_location_id_idx').on(t.location, t.id, t.budget, t.status, t.ownerUserId),
    // A date range is read newest first as (date, id): ids grow with dates, so that is the list's order (read.ts).
    index('listings_date_idx').on(t.date, t.id, t.status, t.ownerUserId, t.postType),
    // A city's days (trends, "this month", "today" for a module admin), read from the index alone.
    index('listings_city_date_idx').on(t.cityId, t.date, t.id, t.status, t.ownerUserId, t.postType),
    index('listings_budget_idx').on(t.budget),
  ],
)

/**
 * How many listings there are per city, type, deal, status and zone, kept by triggers (migration 0004): totals of the
 * common filters are a sum over a few thousand rows instead of a count over a million.
 */
export const listingCounts = sqliteTable(
  'listing_counts',
  {
    cityId: integer('city_id').notNull(),
    postType: text('post_type').notNull(),
    saleOrRent: text('sale_or_rent').notNull(),
    status: text('status').notNull(),
    // '' when the listing has no zone: part of the key, and SQLite keys treat NULLs as all different.
    location: text('location').notNull(),
    /** lower(property_type): the filter compares without case (ASCII, as SQLite's NOCASE and lower() both do). */
    propertyType: text('property_type').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cityId, t.postType, t.saleOrRent, t.status, t.location, t.propertyType] })],
)

/** Listings per day, city and type, kept by triggers (migrations 0005, 0007); city_id 0 holds the whole network's days. */
export const listingDailyCounts = sqliteTable(
  'listing_daily_counts',
  {
    date: text('date').notNull(),
    cityId: integer('city_id').notNull(),
    postType: text('post_type').notNull(),
    n: integer('n').notNull(),
  },
  // Covering indexes in the order trends read them (by day and type; within a city): no row lookups, no sorting.
  (t) => [
    primaryKey({ columns: [t.date, t.cityId, t.postType] }),
    index('listing_daily_counts_date_type_idx').on(t.date, t.postType, t.cityId, t.n),
    index('listing_daily_counts_city_idx').on(t.cityId, t.date, t.postType, t.n),
  ],
)

/** Listings per owner and city, kept by triggers (migration 0005): the top brokers without grouping a million rows. */
export const ownerListingCounts = sqliteTable(
  'owner_listing_counts',
  {
    ownerUserId: integer('owner_user_id').notNull(),
    cityId: integer('city_id').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerUserId, t.cityId] }), index('owner_listing_counts_city_idx').on(t.cityId, t.n)],
)

export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    // PENDING until tried; SENT by SMTP; LOGGED when no SMTP is configured; FAILED after the last attempt.
    status: text('status', { enum: ['PENDING', 'SENT', 'LOGGED', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    // When it was sent. On a PENDING row (SQLite only): since when an attempt in flight holds it (the Mailer's claim).
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.createdAt)],
)

export const auditEvents = sqliteTable(
  'audit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    // No foreign key: the trail outlives the people and rows it speaks of.
    actorUserId: integer('actor_user_id'),
    actorName: text('actor_name'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    // The city the event belongs to, so a module admin reads only their city's trail.
    cityId: integer('city_id'),
    before: text('before', { mode: 'json' }),
    after: text('after', { mode: 'json' }),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_events_created_idx').on(t.createdAt),
    index('audit_events_city_created_idx').on(t.cityId, t.createdAt),
    index('audit_events_entity_idx').on(t.entityType, t.entityId),
    index('audit_events_actor_idx').on(t.actorUserId, t.createdAt),
  ],
)

/**
 * Rate-limit counters in fixed windows (failed sign-ins, reset requests, registrations), per limiter and key. In the
 * database rather than a process's memory, so the limits hold for every process serving the same database and
 * survive a restart.
 */
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    count: integer('count').notNull(),
    /** Epoch milliseconds when the window ends. */
    resetAt: integer('reset_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] }), index('rate_limits_reset_idx').on(t.resetAt)],
)

/**
 * `listing_counts` by day (listing `date`), under city 0 for the network as well: the total of a date range with the
 * common filters is a sum over the range's days instead of a count over its listings (docs/decisions/007-kept-counts.md).
 */
export const listingDayCounts = sqliteTable(
  'listing_day_counts',
  {
    cityId: integer('city_id').notNull(),
    date: text('date').notNull(),
    postType: text('post_type').notNull(),
    saleOrRent: text('sale_or_rent').notNull(),
    status: text('status').notNull(),
    location: text('location').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cityId, t.date, t.postType, t.saleOrRent, t.status, t.location] })],
)

/**
 * How many listings each block of 1,024 ids holds (`block` = id >> 10), by class (`suspended`: 0 shown, 1 suspended,
 * 2 expired), per city and under city 0 for
 * the network: a deep page (offset 50,000) finds its block by summing a few dozen rows, then walks less than one block,
 * instead of stepping over 50,000 listings (docs/decisions/007-kept-counts.md).
 */
export const listingIdBlocks = sqliteTable(
  'listing_id_blocks',
  {
    cityId: integer('city_id').notNull(),
    block: integer('block').notNull(),
    suspended: integer('suspended').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cityId, t.block, t.suspended] })],
)

/**
 * The change feed (docs/decisions/005-change-feed.md): one row per write to the tables that cached answers are
 * computed from, appended by triggers in the writer's own transaction. `seq` only grows, so any process (and, later,
 * any machine) follows it by remembering the last one it has seen; a trigger keeps the newest 10,000 rows.
 */
export const changeFeed = sqliteTable('change_feed', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  /** 'listing', 'user' or 'geography'. */
  topic: text('topic').notNull(),
  /** JSON of the row's fields that answers depend on, before the write (null for an insert) and after (null for a delete). */
  before: text('before'),
  after: text('after'),
})

/**
 * A match in one owner's inbox: `listing_id` is theirs (`user_id` its owner), `match_id` the other listing. A pair
 * is announced once, when it first matches, to the owner of the listing that was already there (the author of the
 * write sees it on their listing's Matches tab). Edits never announce a pair again; an entry shows only while its
 * pair holds (`live`).
 */
export const listingMatches = sqliteTable(
  'listing_matches',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    matchId: integer('match_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    score: integer('score').notNull(),
    createdAt: createdAt(),
    seenAt: integer('seen_at', { mode: 'timestamp_ms' }),
    dismissedAt: integer('dismissed_at', { mode: 'timestamp_ms' }),
    /**
     * Whether the pair holds now (both ACTIVE, the rule satisfied), kept by triggers on listings and cities
     * (migration 0018): the inbox and its badge read it from an index instead of judging every entry's two listings.
     */
    live: integer('live', { mode: 'boolean' }).notNull().default(true),
    /** When the entry went out in a digest mail (src/modules/matches/digest.ts): each entry is mailed once at most. */
    mailedAt: integer('mailed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('listing_matches_pair_unique').on(t.listingId, t.matchId),
    index('listing_matches_match_idx').on(t.matchId),
    index('listing_matches_inbox_idx').on(t.userId, t.live, t.dismissedAt, t.id),
    index('listing_matches_unseen_idx').on(t.userId, t.live, t.dismissedAt, t.seenAt),
    // Only the entries a digest may still carry: small however long the table grows.
    index('listing_matches_digest_idx').on(t.userId).where(sql`seen_at is null and dismissed_at is null and mailed_at is null`),
  ],
)

/** The last digest of matches mailed to each user: at most one per MATCH_DIGEST_HOURS (src/modules/matches/digest.ts). */
export const matchDigests = sqliteTable('match_digests', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: integer('sent_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * Listings written whose new matches are still to be announced (issue 15): the write queues its listing in its own
 * transaction and the announcement follows right after the answer, in a transaction of its own (the write stays as
 * fast as without matching). A process that stops in between leaves the row for the primary's sweep.
 */
export const matchQueue = sqliteTable('match_queue', {
  listingId: integer('listing_id').primaryKey(),
  queuedAt: integer('queued_at').notNull(),
})

/**
 * The expiry reminders sent (issue 17): one per listing and expiry date, so a renewed listing is reminded again before
 * its new date and never twice before the same one, whichever process sends it.
 */
export const listingReminders = sqliteTable('listing_reminders', {
  listingId: integer('listing_id')
    .primaryKey()
    .references(() => listings.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at').notNull(),
  sentAt: integer('sent_at').notNull(),
})

/**
 * A user's visits to their dashboard (issue 17): `since` is where "new since your last visit" counts from, the end of
 * the previous visit; `last` the latest request of this one. A visit ends after 30 minutes without one. Apart from
 * `users`, so a visit does not count as a change of the user (session caches, the change feed).
 */
export const userVisits = sqliteTable('user_visits', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastAt: integer('last_at').notNull(),
  sinceAt: integer('since_at').notNull(),
})

/** A broker's saved searches (issue 17): listing filters under a name, with what is new since it was last opened. */
export const savedSearches = sqliteTable(
  'saved_searches',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The listing filters (SPEC section 3) as JSON, validated by the list's own schema. */
    filters: text('filters').notNull(),
    /** OFF, INSTANT (the event stream) or DAILY (one mail a day). */
    alert: text('alert', { enum: ['OFF', 'INSTANT', 'DAILY'] }).notNull().default('OFF'),
    /** When it was last opened (epoch ms): its new count is the news since. */
    seenAt: integer('seen_at').notNull(),
    /** When its last alert went out (epoch ms): a daily mail carries only what came after. */
    alertedAt: integer('alerted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('saved_searches_user_name_unique').on(t.userId, sql`lower(${t.name})`)],
)

/** Secrets the processes share (issue 17: the key that signs renew links), made once by the first that needs one. */
export const appSecrets = sqliteTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
})

/**
 * A browser's Web Push subscription (issue 33; src/platform/push/): where the push service takes messages for one device
 * of a user, and the keys its payloads are encrypted to. An endpoint belongs to one user at a time (a browser shared
 * by two people alerts whoever subscribed last); at most 10 per user. `device` is a label read from the user agent.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    device: text('device').notNull(),
    createdAt: integer('created_at').notNull(),
    // The last subscribe from the device, or the last message the push service accepted for it.
    lastUsedAt: integer('last_used_at').notNull(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
)

/**
 * Push messages waiting to leave (src/platform/push/sender.ts), one row per device. A row is deleted once the push
 * service accepted it, with its subscription when the service says the subscription is gone (404/410); one given up
 * stays FAILED, with why, for a week. `claimed_until`: a sender holds the row until then (a sender that died lets go
 * of it when the time passes). `due_at`: not before then (a retry's backoff, or the service's Retry-After).
 */
export const pushOutbox = sqliteTable(
  'push_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    // The notification as JSON ({title, body, url, tag}), encrypted only when sent: at most a few hundred bytes.
    payload: text('payload').notNull(),
    ttl: integer('ttl').notNull(),
    urgency: text('urgency', { enum: ['very-low', 'low', 'normal', 'high'] }).notNull(),
    topic: text('topic'),
    // What the message tells of ('listing:42', 'user:7'), for the feature that queued it to judge again at the send
    // whether the recipient may still see it (src/modules/notifications/guard.ts); null: nothing to judge.
    subject: text('subject'),
    status: text('status', { enum: ['PENDING', 'FAILED'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    dueAt: integer('due_at').notNull(),
    claimedUntil: integer('claimed_until'),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('push_outbox_due_idx').on(t.status, t.dueAt), index('push_outbox_subscription_idx').on(t.subscriptionId)],
)

/**
 * A user's push alert settings (issue 33; src/modules/notifications/): which kinds they take, and their quiet hours
 * (minutes of the day, in `time_zone`; both null: none). No row: every kind, 22:00–07:00 in the installation's TZ.
 */
export const pushSettings = sqliteTable('push_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  // The kinds turned off, comma-separated ('' : none): a kind added later is on for everyone.
  kindsOff: text('kinds_off').notNull().default(''),
  quietFrom: integer('quiet_from'),
  quietTo: integer('quiet_to'),
  timeZone: text('time_zone'),
  updatedAt: integer('updated_at').notNull(),
})

/**
 * Alerts held through a user's quiet hours (issue 33), one row each; at `release_at` (the quiet hours' end) they
 * leave as one summary push, counting only what the user may still see then.
 */
export const pushHeld = sqliteTable(
  'push_held',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    subject: text('subject'),
    releaseAt: integer('release_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('push_held_release_idx').on(t.releaseAt), index('push_held_user_idx').on(t.userId)],
)

/**
 * Backups written by the schedule, the system screen's Backup now and the `brokernet backup` command
 * (src/platform/backup/runs.ts): what the system screen and `/metrics` show. A RUNNING row whose process died is
 * marked INTERRUPTED by the next server start (SQLite), read as such after an hour, and a restore marks the ones its
 * copy caught running so.
 */
export const backupRuns = sqliteTable(
  'backup_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    trigger: text('trigger', { enum: ['SCHEDULE', 'MANUAL', 'COMMAND'] }).notNull(),
    status: text('status', { enum: ['RUNNING', 'OK', 'FAILED', 'INTERRUPTED'] }).notNull(),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at'),
    file: text('file'),
    bytes: integer('bytes'),
    error: text('error'),
    // The master admin who pressed Backup now (no foreign key: a run outlives its user's deletion).
    userId: integer('user_id'),
  },
  (t) => [index('backup_runs_started_idx').on(t.startedAt)],
)

/**
 * A user's time-based one-time code secret (RFC 6238; issue 29). `confirmed_at` is null while enrolment waits for a
 * first code; `last_step` is the 30-second step of the last code accepted, so a code works once.
 */
export const secondFactors = sqliteTable('second_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The key, base32 as authenticator apps take it; never returned after enrolment, never logged or audited. */
  secret: text('secret').notNull(),
  confirmedAt: integer('confirmed_at'),
  lastStep: integer('last_step'),
  createdAt: integer('created_at').notNull(),
})

/** One-time recovery codes: only their SHA-256 (80 random bits each), spent by setting `used_at`. */
export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_unique').on(t.userId, t.codeHash)],
)

/** A password accepted for a user with a second factor: the sign-in's second step (SHA-256 of its token), single use. */
export const secondFactorChallenges = sqliteTable(
  'second_factor_challenges',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('second_factor_challenges_user_idx').on(t.userId)],
)

/** Settings of the installation that an admin changes on screen (issue 29: two-factor for module admins), JSON values. */
export const settings = sqliteTable('settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/**
 * The localities a city's module admin has decided on (issue 30): a place its listings use often enough to be offered
 * (src/modules/intake/locality-offers.ts), ACCEPTED as one of the city's localities (with its zone, and known to the
 * WhatsApp parser from then on) or DISMISSED (not offered again). `key` is the name folded (lower case, letters and
 * digits), so `Sector 82` and `SECTOR-82` are one decision.
 */
export const cityLocalities = sqliteTable(
  'city_localities',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    key: text('key').notNull(),
    zone: text('zone', { enum: LOCATION_ZONES }),
    status: text('status', { enum: ['ACCEPTED', 'DISMISSED'] }).notNull(),
    // The admin who decided (no foreign key: the decision outlives its author's deletion).
    decidedBy: integer('decided_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('city_localities_city_key_unique').on(t.cityId, t.key)],
)

/**
 * A listing's photos (issue 34, src/modules/photos/): up to 10, in `position` order, the first the cover. Each is two
 * WebP encodings named by their content (`large` 1,600 px, `thumb` 320 px), stored as files under DATA_DIR/photos
 * (SQLite) or rows of `photo_files` (PostgreSQL); the same picture on two listings is one file. `owner_user_id` is the
 * listing's owner, whose quota the photo counts in; `phash` its 64-bit dHash (duplicate control). No foreign key to
 * the listing: its deletion removes these in the same transaction (src/modules/listings/after-write.ts) and their
 * files once committed.
 */
export const listingPhotos = sqliteTable(
  'listing_photos',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    listingId: integer('listing_id').notNull(),
    ownerUserId: integer('owner_user_id').notNull(),
    position: integer('position').notNull(),
    large: text('large').notNull(),
    largeWidth: integer('large_width').notNull(),
    largeHeight: integer('large_height').notNull(),
    thumb: text('thumb').notNull(),
    thumbWidth: integer('thumb_width').notNull(),
    thumbHeight: integer('thumb_height').notNull(),
    bytes: integer('bytes').notNull(),
    phash: text('phash').notNull(),
    createdAt: integer('created_at').notNull(),
    /**
     * The upload's idempotency key (issue 34, the `Idempotency-Key` header; `<key>/<n>` for the n-th file of a request):
     * a retried upload that had in fact arrived answers what is stored instead of storing the photo twice.
     */
    uploadKey: text('upload_key'),
  },
  (t) => [
    index('listing_photos_listing_idx').on(t.listingId, t.position),
    index('listing_photos_owner_idx').on(t.ownerUserId),
    index('listing_photos_large_idx').on(t.large),
    index('listing_photos_thumb_idx').on(t.thumb),
    uniqueIndex('listing_photos_upload_key_unique').on(t.listingId, t.uploadKey),
  ],
)

/**
 * Public links to a listing for a broker's client (issue 34, src/modules/share-links/): `/l/<token>`, a page with no
 * sign-in showing the listing and the SHARING broker's name and contact. The token is 128 random bits (base64url);
 * one live link per sharer and listing, reused by every share. Revoked (`revoked_at`) by its sharer; dead (410) once
 * the listing is closed, suspended, expired or deleted. `views` counts the page's openings for the sharer. No foreign
 * key: a deleted listing's links stay and answer 410. Other brokers' links (onward sharing, with the owner's
 * `listings.onward_sharing`) are revoked when the owner withdraws it.
 */
export const listingShares = sqliteTable(
  'listing_shares',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token: text('token').notNull(),
    listingId: integer('listing_id').notNull(),
    sharerUserId: integer('sharer_user_id').notNull(),
    views: integer('views').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('listing_shares_token_unique').on(t.token), index('listing_shares_sharer_idx').on(t.sharerUserId, t.listingId)],
)

/**
 * A broker's named circles (issue 35): the brokers a CIRCLE listing is shown to. Owned by the listings module, which
 * judges visibility with them.
 */
export const circles = sqliteTable(
  'circles',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('circles_owner_name_unique').on(t.ownerUserId, t.name)],
)

export const circleMembers = sqliteTable(
  'circle_members',
  {
    circleId: integer('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    memberUserId: integer('member_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.circleId, t.memberUserId] }), index('circle_members_member_idx').on(t.memberUserId, t.circleId)],
)

/**
 * A listing's private fields (issue 35, docs/decisions/038-private-fields.md): seen by its owner and the admins of its
 * scope only. A table of its own, so that no read of `listings` (lists, search indexes, counts, exports, the change
 * feed, the audit trail, matching) can carry them: only src/modules/listings/store/private.ts names it, and every
 * function there takes the caller and joins the listing through their manage scope.
 */
export const listingPrivate = sqliteTable('listing_private', {
  listingId: integer('listing_id')
    .primaryKey()
    .references(() => listings.id, { onDelete: 'cascade' }),
  ownerName: text('owner_name'),
  ownerPhone: text('owner_phone'),
  /** The owner's phone as src/shared/contact-key.ts compares contacts: the form's warning looks it up. */
  ownerPhoneKey: text('owner_phone_key'),
  address: text('address'),
  bottomPrice: real('bottom_price'),
  note: text('note'),
  updatedAt: updatedAt(),
})

/**
 * Co-broking (issue 35, src/modules/deals/): a broker's request to work a listing with its broker ("I have a client for
 * this"), naming their own listing when there is one, with a proposed split; answered within 72 hours.
 */
export const cobrokeRequests = sqliteTable(
  'cobroke_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    requesterListingId: integer('requester_listing_id').references(() => listings.id, { onDelete: 'set null' }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requesterId: integer('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cityId: integer('city_id').notNull(),
    message: text('message'),
    /** PERCENT: `requester_percent` to the requester, the rest to the listing's broker; FLAT: `flat_fee`. */
    splitKind: text('split_kind', { enum: ['PERCENT', 'FLAT'] }).notNull(),
    requesterPercent: integer('requester_percent'),
    flatFee: real('flat_fee'),
    status: text('status', { enum: ['PENDING', 'COUNTERED', 'ACCEPTED', 'DECLINED', 'EXPIRED'] }).notNull(),
    declineReason: text('decline_reason'),
    createdAt: createdAt(),
    answeredAt: integer('answered_at'),
    /** 72 hours after it was sent (or countered): unanswered by then, it is EXPIRED. */
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('cobroke_requests_owner_idx').on(t.ownerId, t.id), index('cobroke_requests_requester_idx').on(t.requesterId, t.id), index('cobroke_requests_listing_idx').on(t.listingId, t.requesterId)],
)

/** A co-broke accepted: the two brokers' deal, its split locked, its stage, each side's confirmation of the close. */
export const deals = sqliteTable(
  'deals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    requestId: integer('request_id')
      .notNull()
      .references(() => cobrokeRequests.id, { onDelete: 'cascade' }),
    listingId: integer('listing_id').references(() => listings.id, { onDelete: 'set null' }),
    requesterListingId: integer('requester_listing_id').references(() => listings.id, { onDelete: 'set null' }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requesterId: integer('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cityId: integer('city_id').notNull(),
    splitKind: text('split_kind', { enum: ['PERCENT', 'FLAT'] }).notNull(),
    requesterPercent: integer('requester_percent'),
    flatFee: real('flat_fee'),
    stage: text('stage', { enum: ['INTERESTED', 'SITE_VISIT', 'NEGOTIATING', 'CLOSED_WON', 'CLOSED_LOST', 'DISPUTED'] }).notNull(),
    visitAt: integer('visit_at'),
    /** When both brokers were reminded of the visit, the morning of it (a new date clears it). */
    visitRemindedAt: integer('visit_reminded_at'),
    ownerOutcome: text('owner_outcome', { enum: ['WON', 'LOST'] }),
    requesterOutcome: text('requester_outcome', { enum: ['WON', 'LOST'] }),
    lostReason: text('lost_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    closedAt: integer('closed_at'),
  },
  (t) => [uniqueIndex('deals_request_unique').on(t.requestId), index('deals_owner_idx').on(t.ownerId, t.id), index('deals_requester_idx').on(t.requesterId, t.id), index('deals_city_idx').on(t.cityId, t.id)],
)

/** A deal's thread: its two brokers' messages, and the steps each took, in order; never edited. */
export const dealMessages = sqliteTable(
  'deal_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['MESSAGE', 'STEP'] }).notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('deal_messages_deal_idx').on(t.dealId, t.id)],
)

/**
 * Reports of a listing by other brokers (issue 35): sold or rented, no response, wrong details, fake. Three open reports
 * from three brokers take it off the network (SUSPENDED, `listings.reported_off_at`) until its broker answers: still
 * available (the reports are cleared, answered so, and admins see who keeps reporting what is available) or closed.
 */
export const listingReports = sqliteTable(
  'listing_reports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cityId: integer('city_id').notNull(),
    reason: text('reason', { enum: ['SOLD_OR_RENTED', 'NO_RESPONSE', 'WRONG_DETAILS', 'FAKE'] }).notNull(),
    note: text('note'),
    createdAt: createdAt(),
    /** When its broker answered it (null: open), and how. */
    answeredAt: integer('answered_at'),
    answer: text('answer', { enum: ['STILL_AVAILABLE', 'CLOSED'] }),
  },
  (t) => [
    // One open report per broker and listing: their reports count once.
    uniqueIndex('listing_reports_open_unique').on(t.listingId, t.reporterId).where(sql`${t.answeredAt} is null`),
    index('listing_reports_reporter_idx').on(t.reporterId, t.answer),
  ],
)
