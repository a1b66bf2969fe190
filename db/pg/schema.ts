import { sql } from 'drizzle-orm'
import { bigint, boolean, customType, doublePrecision, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { CONTACT_KEY_SQL } from '../../src/shared/contact-key'
import { PROPERTY_KEY_SQL } from '../../src/shared/property-key'

// The PostgreSQL schema (issue 16): the same tables, columns and indexes as db/schema.ts (SQLite), so the stores'
// portable SQL (docs/decisions/012-async-data-layer.md) reads and writes both alike. Times are epoch milliseconds in
// bigint columns, written by the application; flags are booleans; JSON is text. The triggers that keep derived data
// (the kept counts, the inbox's live flag) are in db/pg/derived.sql; search vectors and the change feed's triggers are
// not on PostgreSQL yet.

const ms = (name: string) => bigint(name, { mode: 'number' })
// Ids and the columns that hold them are 64-bit, as SQLite's integers are: an id far beyond every row is simply not
// found on both backends (a 32-bit column would refuse the comparison itself).
const key = (name: string) => bigint(name, { mode: 'number' })
const nowMs = sql`((extract(epoch from clock_timestamp()) * 1000)::bigint)`
const createdAt = () => ms('created_at').notNull().default(nowMs)
const updatedAt = () => ms('updated_at').notNull().default(nowMs)
const id = () => key('id').primaryKey().generatedByDefaultAsIdentity()
/**
 * The kept counts' rows of the whole network (city 0) are the only rows every listing write changes: on PostgreSQL,
 * where writers run side by side, each is split in 16 by listing id (`id % 16`, db/pg/derived.sql) so two writers
 * seldom wait on one row. A city's rows have shard 0. Readers add up `n` over the same WHERE as on SQLite.
 */
const shard = () => smallint('shard').notNull().default(0)

export const countries = pgTable(
  'countries',
  { id: id(), name: text('name').notNull(), code: text('code').notNull(), createdAt: createdAt(), updatedAt: updatedAt() },
  (t) => [uniqueIndex('countries_name_unique').on(t.name), uniqueIndex('countries_code_unique').on(t.code)],
)

export const states = pgTable(
  'states',
  {
    id: id(),
    countryId: key('country_id')
      .notNull()
      .references(() => countries.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('states_country_name_unique').on(t.countryId, t.name), uniqueIndex('states_code_unique').on(t.code)],
)

export const cities = pgTable(
  'cities',
  {
    id: id(),
    stateId: key('state_id')
      .notNull()
      .references(() => states.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    newscoRegion: text('newsco_region'),
    matchTolerance: integer('match_tolerance').notNull().default(10),
    rentDays: integer('rent_days').notNull().default(30),
    saleDays: integer('sale_days').notNull().default(90),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('cities_state_name_unique').on(t.stateId, t.name)],
)

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name').notNull(),
    phone: text('phone'),
    role: text('role').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    registrationStatus: text('registration_status').notNull().default('PENDING'),
    rejectionReason: text('rejection_reason'),
    idCardNumber: text('id_card_number'),
    idCardDocument: text('id_card_document'),
    idCardDocumentType: text('id_card_document_type'),
    cityId: key('city_id').references(() => cities.id, { onDelete: 'restrict' }),
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

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: key('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ms('expires_at').notNull(),
    createdAt: createdAt(),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    enrolmentOnly: boolean('enrolment_only').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: key('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ms('expires_at').notNull(),
    usedAt: ms('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
)

export const listings = pgTable(
  'listings',
  {
    id: id(),
    entryId: text('entry_id').notNull(),
    postType: text('post_type').notNull(),
    saleOrRent: text('sale_or_rent').notNull(),
    propertyType: text('property_type').notNull(),
    contactValue: text('contact_value').notNull(),
    contactName: text('contact_name').notNull(),
    budget: doublePrecision('budget'),
    size: doublePrecision('size'),
    location: text('location'),
    locality: text('locality'),
    reference: text('reference'),
    typeDetails: text('type_details'),
    details: text('details'),
    comments: text('comments'),
    googleLocationUrl: text('google_location_url'),
    status: text('status').notNull().default('ACTIVE'),
    date: text('date').notNull(),
    ownerUserId: key('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    cityId: key('city_id')
      .notNull()
      .references(() => cities.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // PostgreSQL's generated columns are stored: the same rule as SQLite's (src/shared/property-key.ts).
    propertyKey: text('property_key').generatedAlwaysAs(PROPERTY_KEY_SQL),
    contactKey: text('contact_key').generatedAlwaysAs(CONTACT_KEY_SQL),
    /** A near-copy of another broker's ACTIVE listing when posted (issue 17; db/schema.ts says more). */
    possibleDuplicateOf: key('possible_duplicate_of'),
    /** The hotsheet's latest news after creation and when (issue 17; db/schema.ts says more). */
    hotEvent: text('hot_event'),
    hotAt: ms('hot_at'),
    /** When the listing leaves the network (issue 17; db/schema.ts says more). */
    expiresAt: ms('expires_at'),
    /** Moderation (issue 29; db/schema.ts says more): the admin who suspended it, why, when, and the owner's review request. */
    suspendedBy: key('suspended_by'),
    suspensionReason: text('suspension_reason'),
    suspendedAt: ms('suspended_at'),
    reviewRequestedAt: ms('review_requested_at'),
    reviewNote: text('review_note'),
    /** The cover photo's thumbnail, its name and size (issue 34; db/schema.ts says more). */
    coverPhoto: text('cover_photo'),
    coverWidth: integer('cover_width'),
    coverHeight: integer('cover_height'),
    /** Issue 35: NETWORK, CIRCLE or ONLY_ME (db/schema.ts says more). */
    visibility: text('visibility').notNull().default('NETWORK'),
    circleId: key('circle_id').references(() => circles.id, { onDelete: 'set null' }),
    reportedOffAt: ms('reported_off_at'),
    /** Days on market (issue 35): when the property was first posted; null: `created_at` (db/schema.ts says more). */
    firstPostedAt: ms('first_posted_at'),
    /** Onward sharing (issue 34; db/schema.ts says more): OFF, NAMED or ANONYMOUS. */
    onwardSharing: text('onward_sharing').notNull().default('OFF'),
  },
  (t) => [
    uniqueIndex('listings_entry_id_unique').on(t.entryId),
    index('listings_not_network_idx').on(t.visibility, t.id, t.ownerUserId, t.circleId).where(sql`${t.visibility} <> 'NETWORK'`),
    // The same columns as SQLite's indexes, the trailing ones included: a broker's scope (status, owner) and the
    // other filters are then judged in the index, and a count or a page's ids is an index-only scan instead of a visit
    // to every matching row (a zone + budget count for a broker: 134 ms against 22 ms, bench:http --postgres).
    index('listings_match_idx').on(t.cityId, t.saleOrRent, t.postType, t.propertyKey, t.status, t.budget, t.size, t.location, t.locality, t.createdAt, t.ownerUserId),
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
    index('listings_contact_idx').on(t.cityId, t.contactKey, t.postType, t.saleOrRent, t.status),
    // The same locality's budget and size too: a busy locality holds thousands of one deal and type (2,123 in the
    // bench's largest city), each read from the table for the check's ranges (issue 36, decision 076).
    index('listings_locality_idx').on(t.cityId, sql`lower(${t.locality})`, t.postType, t.saleOrRent, t.status, t.budget, t.size),
    index('listings_hot_idx').on(sql`coalesce(${t.hotAt}, ${t.createdAt})`),
    // Days on market (`on_market_over_days`, decision 041): the listings first posted after the line, whose count is
    // taken from the filter's others' total (docs/decisions/056-cold-reads.md); status and owner for the scope.
    index('listings_on_market_idx').on(sql`coalesce(${t.firstPostedAt}, ${t.createdAt})`, t.status, t.ownerUserId),
    index('listings_expiry_idx').on(t.expiresAt).where(sql`${t.status} in ('ACTIVE', 'ON_HOLD')`),
    index('listings_possible_duplicate_idx').on(t.id, t.status, t.ownerUserId).where(sql`${t.possibleDuplicateOf} is not null`),
    index('listings_review_idx').on(t.id, t.status, t.ownerUserId, t.cityId).where(sql`${t.reviewRequestedAt} is not null`),
    index('listings_review_city_idx').on(t.cityId, t.id, t.status, t.ownerUserId).where(sql`${t.reviewRequestedAt} is not null`),
    index('listings_location_id_idx').on(t.location, t.id, t.budget, t.status, t.ownerUserId),
    index('listings_date_idx').on(t.date, t.id, t.status, t.ownerUserId, t.postType),
    index('listings_city_date_idx').on(t.cityId, t.date, t.id, t.status, t.ownerUserId, t.postType),
    index('listings_budget_idx').on(t.budget),
  ],
)

export const listingCounts = pgTable(
  'listing_counts',
  {
    cityId: key('city_id').notNull(),
    postType: text('post_type').notNull(),
    saleOrRent: text('sale_or_rent').notNull(),
    status: text('status').notNull(),
    location: text('location').notNull(),
    propertyType: text('property_type').notNull(),
    shard: shard(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ name: 'listing_counts_pk', columns: [t.cityId, t.postType, t.saleOrRent, t.status, t.location, t.propertyType, t.shard] }),
    // The key and n: totals are summed from the index alone (SQLite's table is its key; a heap row each costs more).
    index('listing_counts_sum_idx').on(t.cityId, t.postType, t.saleOrRent, t.status, t.location, t.propertyType, t.shard, t.n),
  ],
)

export const listingDailyCounts = pgTable(
  'listing_daily_counts',
  { date: text('date').notNull(), cityId: key('city_id').notNull(), postType: text('post_type').notNull(), shard: shard(), n: integer('n').notNull() },
  (t) => [
    primaryKey({ name: 'listing_daily_counts_pk', columns: [t.date, t.cityId, t.postType, t.shard] }),
    index('listing_daily_counts_date_type_idx').on(t.date, t.postType, t.cityId, t.n),
    index('listing_daily_counts_city_idx').on(t.cityId, t.date, t.postType, t.n),
  ],
)

export const ownerListingCounts = pgTable(
  'owner_listing_counts',
  { ownerUserId: key('owner_user_id').notNull(), cityId: key('city_id').notNull(), n: integer('n').notNull() },
  (t) => [primaryKey({ name: 'owner_listing_counts_pk', columns: [t.ownerUserId, t.cityId] }), index('owner_listing_counts_city_idx').on(t.cityId, t.n)],
)

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: ms('sent_at'),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.createdAt)],
)

export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    actorUserId: key('actor_user_id'),
    actorName: text('actor_name'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    cityId: key('city_id'),
    before: text('before'),
    after: text('after'),
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

export const rateLimits = pgTable(
  'rate_limits',
  { bucket: text('bucket').notNull(), key: text('key').notNull(), count: integer('count').notNull(), resetAt: ms('reset_at').notNull() },
  (t) => [primaryKey({ columns: [t.bucket, t.key] }), index('rate_limits_reset_idx').on(t.resetAt)],
)

export const listingDayCounts = pgTable(
  'listing_day_counts',
  {
    cityId: key('city_id').notNull(),
    date: text('date').notNull(),
    postType: text('post_type').notNull(),
    saleOrRent: text('sale_or_rent').notNull(),
    status: text('status').notNull(),
    location: text('location').notNull(),
    shard: shard(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ name: 'listing_day_counts_pk', columns: [t.cityId, t.date, t.postType, t.saleOrRent, t.status, t.location, t.shard] }),
    index('listing_day_counts_sum_idx').on(t.cityId, t.date, t.postType, t.saleOrRent, t.status, t.location, t.shard, t.n),
  ],
)

/**
 * PostgreSQL only: listing_day_counts by calendar month (`month` = the date's first 7 characters, YYYY-MM), kept by
 * db/pg/month_counts.sql. A date range's total sums its whole months here and only its edge days in
 * listing_day_counts: a year of the network is about 23,000 rows instead of 274,000 (the network's rows are in 16
 * shards; issue 36, docs/decisions/065-pg-kept-ranges.md).
 */
export const listingMonthCounts = pgTable(
  'listing_month_counts',
  {
    cityId: key('city_id').notNull(),
    month: text('month').notNull(),
    postType: text('post_type').notNull(),
    saleOrRent: text('sale_or_rent').notNull(),
    status: text('status').notNull(),
    location: text('location').notNull(),
    shard: shard(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ name: 'listing_month_counts_pk', columns: [t.cityId, t.month, t.postType, t.saleOrRent, t.status, t.location, t.shard] }),
    index('listing_month_counts_sum_idx').on(t.cityId, t.month, t.postType, t.saleOrRent, t.status, t.location, t.shard, t.n),
  ],
)

/**
 * PostgreSQL only: listings by zone ('' for none), status and budget bucket (`brokernet_budget_bucket`: 20 buckets a
 * decade), kept by db/pg/budget_counts.sql. A zone's total within a budget range sums its whole buckets here and counts
 * only its two edge buckets in `listings_location_status_budget_idx`: about 4,000 rows and 2,000 index entries where
 * the index alone was 100,000 entries (issue 36, docs/decisions/065-pg-kept-ranges.md).
 */
export const listingBudgetCounts = pgTable(
  'listing_budget_counts',
  {
    location: text('location').notNull(),
    status: text('status').notNull(),
    bucket: integer('bucket').notNull(),
    shard: shard(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ name: 'listing_budget_counts_pk', columns: [t.location, t.status, t.bucket, t.shard] }),
    index('listing_budget_counts_sum_idx').on(t.location, t.status, t.bucket, t.shard, t.n),
  ],
)

export const listingIdBlocks = pgTable(
  'listing_id_blocks',
  {
    cityId: key('city_id').notNull(),
    block: key('block').notNull(),
    suspended: integer('suspended').notNull(),
    shard: shard(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ name: 'listing_id_blocks_pk', columns: [t.cityId, t.block, t.suspended, t.shard] }),
    index('listing_id_blocks_sum_idx').on(t.cityId, t.block, t.suspended, t.shard, t.n),
  ],
)

export const changeFeed = pgTable('change_feed', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  topic: text('topic').notNull(),
  before: text('before'),
  after: text('after'),
})

export const listingMatches = pgTable(
  'listing_matches',
  {
    id: id(),
    listingId: key('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    matchId: key('match_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    userId: key('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    score: integer('score').notNull(),
    createdAt: createdAt(),
    seenAt: ms('seen_at'),
    dismissedAt: ms('dismissed_at'),
    live: boolean('live').notNull().default(true),
    mailedAt: ms('mailed_at'),
  },
  (t) => [
    uniqueIndex('listing_matches_pair_unique').on(t.listingId, t.matchId),
    index('listing_matches_match_idx').on(t.matchId),
    index('listing_matches_inbox_idx').on(t.userId, t.live, t.dismissedAt, t.id),
    index('listing_matches_unseen_idx').on(t.userId, t.live, t.dismissedAt, t.seenAt),
    index('listing_matches_digest_idx').on(t.userId).where(sql`seen_at is null and dismissed_at is null and mailed_at is null`),
  ],
)

export const matchDigests = pgTable('match_digests', {
  userId: key('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: ms('sent_at').notNull(),
})

export const matchQueue = pgTable('match_queue', {
  listingId: key('listing_id').primaryKey(),
  queuedAt: ms('queued_at').notNull(),
})

/** Raw bytes; postgres.js sends a Uint8Array parameter as bytea and reads the column back as a Buffer. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

/**
 * Identity documents on PostgreSQL (src/platform/documents.ts): SQLite keeps them as files under DATA_DIR/documents,
 * but instances behind a load balancer share no disk, so here they live in the database. `name` is the random opaque
 * name `users.id_card_document` refers to; rows no user refers to are swept at start once a minute old.
 */
export const documents = pgTable('documents', {
  name: text('name').primaryKey(),
  mime: text('mime').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: ms('created_at').notNull(),
})

// Issue 17: expiry reminders, dashboard visits, saved searches and shared secrets (db/schema.ts says more).
export const listingReminders = pgTable('listing_reminders', {
  listingId: key('listing_id')
    .primaryKey()
    .references(() => listings.id, { onDelete: 'cascade' }),
  expiresAt: ms('expires_at').notNull(),
  sentAt: ms('sent_at').notNull(),
})

export const userVisits = pgTable('user_visits', {
  userId: key('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastAt: ms('last_at').notNull(),
  sinceAt: ms('since_at').notNull(),
})

export const savedSearches = pgTable(
  'saved_searches',
  {
    id: id(),
    userId: key('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    filters: text('filters').notNull(),
    alert: text('alert').notNull().default('OFF'),
    seenAt: ms('seen_at').notNull(),
    alertedAt: ms('alerted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('saved_searches_user_name_unique').on(t.userId, sql`lower(${t.name})`)],
)

export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
})

/** Web Push subscriptions and the messages waiting to leave (issue 33; db/schema.ts says more). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: key('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    device: text('device').notNull(),
    createdAt: ms('created_at').notNull(),
    lastUsedAt: ms('last_used_at').notNull(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
)

export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: id(),
    subscriptionId: key('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    payload: text('payload').notNull(),
    ttl: integer('ttl').notNull(),
    urgency: text('urgency').notNull(),
    topic: text('topic'),
    subject: text('subject'),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    dueAt: ms('due_at').notNull(),
    claimedUntil: ms('claimed_until'),
    lastError: text('last_error'),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('push_outbox_due_idx').on(t.status, t.dueAt), index('push_outbox_subscription_idx').on(t.subscriptionId)],
)

/** A user's push alert settings, and alerts held through quiet hours (issue 33; db/schema.ts says more). */
export const pushSettings = pgTable('push_settings', {
  userId: key('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  kindsOff: text('kinds_off').notNull().default(''),
  quietFrom: integer('quiet_from'),
  quietTo: integer('quiet_to'),
  timeZone: text('time_zone'),
  updatedAt: ms('updated_at').notNull(),
})

export const pushHeld = pgTable(
  'push_held',
  {
    id: id(),
    userId: key('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    subject: text('subject'),
    releaseAt: ms('release_at').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('push_held_release_idx').on(t.releaseAt), index('push_held_user_idx').on(t.userId)],
)

/** Backups written by the schedule, Backup now and `brokernet backup` (db/schema.ts says more). */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: id(),
    trigger: text('trigger').notNull(),
    status: text('status').notNull(),
    startedAt: ms('started_at').notNull(),
    finishedAt: ms('finished_at'),
    file: text('file'),
    bytes: bigint('bytes', { mode: 'number' }),
    error: text('error'),
    userId: key('user_id'),
  },
  (t) => [index('backup_runs_started_idx').on(t.startedAt)],
)

/** Second factors, recovery codes, sign-in challenges and settings (issue 29; db/schema.ts says more). */
export const secondFactors = pgTable('second_factors', {
  userId: key('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: ms('confirmed_at'),
  lastStep: ms('last_step'),
  createdAt: ms('created_at').notNull(),
})

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: key('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ms('used_at'),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_unique').on(t.userId, t.codeHash)],
)

export const secondFactorChallenges = pgTable(
  'second_factor_challenges',
  {
    id: text('id').primaryKey(),
    userId: key('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ms('expires_at').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('second_factor_challenges_user_idx').on(t.userId)],
)

export const settings = pgTable('settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  updatedAt: ms('updated_at').notNull(),
})

/** A city's localities decided by its module admin (issue 30; db/schema.ts says more). */
export const cityLocalities = pgTable(
  'city_localities',
  {
    id: id(),
    cityId: key('city_id')
      .notNull()
      .references(() => cities.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    key: text('key').notNull(),
    zone: text('zone'),
    status: text('status').notNull(),
    decidedBy: key('decided_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('city_localities_city_key_unique').on(t.cityId, t.key)],
)

/** A listing's photos (issue 34; db/schema.ts says more). */
export const listingPhotos = pgTable(
  'listing_photos',
  {
    id: id(),
    listingId: key('listing_id').notNull(),
    ownerUserId: key('owner_user_id').notNull(),
    position: integer('position').notNull(),
    large: text('large').notNull(),
    largeWidth: integer('large_width').notNull(),
    largeHeight: integer('large_height').notNull(),
    thumb: text('thumb').notNull(),
    thumbWidth: integer('thumb_width').notNull(),
    thumbHeight: integer('thumb_height').notNull(),
    bytes: integer('bytes').notNull(),
    phash: text('phash').notNull(),
    createdAt: ms('created_at').notNull(),
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
 * The photos' WebP files on PostgreSQL (issue 34): instances behind a load balancer share no disk, so, like identity
 * documents, they live in the database (docs/decisions/036-images.md says why not S3 by default). `name` is the
 * content hash `listing_photos.large`/`thumb` refer to; a name no photo refers to any more is removed.
 */
export const photoFiles = pgTable('photo_files', {
  name: text('name').primaryKey(),
  bytes: bytea('bytes').notNull(),
  createdAt: ms('created_at').notNull(),
})

/** Public links to a listing for a broker's client (issue 34; db/schema.ts says more). */
export const listingShares = pgTable(
  'listing_shares',
  {
    id: id(),
    token: text('token').notNull(),
    listingId: key('listing_id').notNull(),
    sharerUserId: key('sharer_user_id').notNull(),
    views: integer('views').notNull().default(0),
    createdAt: ms('created_at').notNull(),
    revokedAt: ms('revoked_at'),
  },
  (t) => [uniqueIndex('listing_shares_token_unique').on(t.token), index('listing_shares_sharer_idx').on(t.sharerUserId, t.listingId)],
)

/** Issue 35: a broker's named circles and their members (db/schema.ts says more). */
export const circles = pgTable(
  'circles',
  {
    id: id(),
    ownerUserId: key('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('circles_owner_name_unique').on(t.ownerUserId, t.name)],
)

export const circleMembers = pgTable(
  'circle_members',
  {
    circleId: key('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    memberUserId: key('member_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.circleId, t.memberUserId] }), index('circle_members_member_idx').on(t.memberUserId, t.circleId)],
)

/** Issue 35: a listing's private fields, read only by src/modules/listings/store/private.ts (db/schema.ts says more). */
export const listingPrivate = pgTable('listing_private', {
  listingId: key('listing_id')
    .primaryKey()
    .references(() => listings.id, { onDelete: 'cascade' }),
  ownerName: text('owner_name'),
  ownerPhone: text('owner_phone'),
  ownerPhoneKey: text('owner_phone_key'),
  address: text('address'),
  bottomPrice: doublePrecision('bottom_price'),
  note: text('note'),
  updatedAt: updatedAt(),
})

/**
 * Co-broking (issue 35, src/modules/deals/): a broker's request to work a listing with its broker ("I have a client for
 * this"), naming their own listing when there is one, with a proposed split; answered within 72 hours.
 */
export const cobrokeRequests = pgTable(
  'cobroke_requests',
  {
    id: id(),
    listingId: key('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    requesterListingId: key('requester_listing_id').references(() => listings.id, { onDelete: 'set null' }),
    ownerId: key('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requesterId: key('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cityId: key('city_id').notNull(),
    message: text('message'),
    /** PERCENT: `requester_percent` to the requester, the rest to the listing's broker; FLAT: `flat_fee`. */
    splitKind: text('split_kind').notNull(),
    requesterPercent: integer('requester_percent'),
    flatFee: doublePrecision('flat_fee'),
    status: text('status').notNull(),
    declineReason: text('decline_reason'),
    createdAt: createdAt(),
    answeredAt: ms('answered_at'),
    /** 72 hours after it was sent (or countered): unanswered by then, it is EXPIRED. */
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [index('cobroke_requests_owner_idx').on(t.ownerId, t.id), index('cobroke_requests_requester_idx').on(t.requesterId, t.id), index('cobroke_requests_listing_idx').on(t.listingId, t.requesterId)],
)

/** A co-broke accepted: the two brokers' deal, its split locked, its stage, each side's confirmation of the close. */
export const deals = pgTable(
  'deals',
  {
    id: id(),
    requestId: key('request_id')
      .notNull()
      .references(() => cobrokeRequests.id, { onDelete: 'cascade' }),
    listingId: key('listing_id').references(() => listings.id, { onDelete: 'set null' }),
    requesterListingId: key('requester_listing_id').references(() => listings.id, { onDelete: 'set null' }),
    ownerId: key('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requesterId: key('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cityId: key('city_id').notNull(),
    splitKind: text('split_kind').notNull(),
    requesterPercent: integer('requester_percent'),
    flatFee: doublePrecision('flat_fee'),
    stage: text('stage').notNull(),
    visitAt: ms('visit_at'),
    visitRemindedAt: ms('visit_reminded_at'),
    ownerOutcome: text('owner_outcome'),
    requesterOutcome: text('requester_outcome'),
    lostReason: text('lost_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    closedAt: ms('closed_at'),
  },
  (t) => [uniqueIndex('deals_request_unique').on(t.requestId), index('deals_owner_idx').on(t.ownerId, t.id), index('deals_requester_idx').on(t.requesterId, t.id), index('deals_city_idx').on(t.cityId, t.id)],
)

/** A deal's thread: its two brokers' messages, and the steps each took, in order; never edited. */
export const dealMessages = pgTable(
  'deal_messages',
  {
    id: id(),
    dealId: key('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    authorId: key('author_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
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
export const listingReports = pgTable(
  'listing_reports',
  {
    id: id(),
    listingId: key('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    reporterId: key('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cityId: key('city_id').notNull(),
    reason: text('reason').notNull(),
    note: text('note'),
    createdAt: createdAt(),
    /** When its broker answered it (null: open), and how. */
    answeredAt: ms('answered_at'),
    answer: text('answer'),
  },
  (t) => [
    // One open report per broker and listing: their reports count once.
    uniqueIndex('listing_reports_open_unique').on(t.listingId, t.reporterId).where(sql`${t.answeredAt} is null`),
    index('listing_reports_reporter_idx').on(t.reporterId, t.answer),
  ],
)
