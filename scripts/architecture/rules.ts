// The architecture rules (issue 31), checked by tests/unit/architecture.test.ts in `bun run test` and measured by
// `bun run architecture`. What each rule forbids, the message that says how to fix it, and which folder owns each table.

/** A folder (or file) of the tree, relative to the root; `x` holds `x` itself and everything under `x/`. */
export const inside = (file: string, folder: string) => file === folder || file.startsWith(folder.endsWith('/') ? folder : `${folder}/`)

/** The feature a file belongs to: `src/modules/<name>/…` → `src/modules/<name>`; null outside the modules. */
export const moduleOf = (file: string): string | null => /^src\/modules\/[^/]+/.exec(file)?.[0] ?? null

/**
 * Where a feature keeps the SQL of its tables: `store.ts` or a `store/` folder in its module folder
 * (`src/modules/users/store.ts`, `src/modules/listings/store/read.ts`). Other features call its functions (or compose
 * the SQL fragments it exports) instead of naming its tables.
 */
export const isStore = (file: string, owner: string) => file === `${owner}/store.ts` || inside(file, `${owner}/store`)

/** An import rule: no file under `from` imports a file under any of `to`. Type-only imports count: they are knowledge too. */
export type LayerRule = { id: string; title: string; from: string; to: string[]; why: string; fix: string }

export const LAYER_RULES: LayerRule[] = [
  {
    id: 'platform-imports-module',
    title: 'src/platform/** imports nothing of src/modules/**',
    from: 'src/platform',
    to: ['src/modules'],
    why: 'the platform serves every feature and must not know any of them',
    fix:
      'invert it: the feature hands the platform what it needs when src/app.ts composes the app (a value, a callback, a ' +
      'plugin), or move what both sides use (types, pure data, formats) to src/shared/',
  },
  {
    id: 'db-imports-module',
    title: 'db/** imports nothing of src/modules/**',
    from: 'db',
    to: ['src/modules'],
    why: 'db/ holds schemas, migrations, derived SQL and seeds that know no feature',
    fix:
      'move the function both need to src/shared/ (or into db/ if only the data layer needs it), or let the caller in ' +
      'src/ pass it in',
  },
  {
    id: 'island-imports-platform-or-db',
    title: 'islands/** imports nothing of src/platform/** or db/**',
    from: 'islands',
    to: ['src/platform', 'db'],
    why: 'islands run in the browser: they may use src/shared/ and the modules’ model types, never the server’s platform or data layer',
    fix: 'move what the island needs (pure data, a type, a format) to src/shared/, where both sides may import it',
  },
  {
    // Not in issue 31's list, but what keeps the one above true: islands may import src/shared/, so it must not lead
    // on to the platform or db/ (nor to a feature's server code).
    id: 'shared-imports-app',
    title: 'src/shared/** imports nothing of src/platform/**, src/modules/** or db/**',
    from: 'src/shared',
    to: ['src/platform', 'src/modules', 'db'],
    why: 'src/shared/ holds what the server and the islands both use, so it must stand on its own',
    fix: 'move the needed code into src/shared/ too if it is pure, or keep the file that needs it out of src/shared/',
  },
]

export const CYCLE_RULE = {
  id: 'import-cycle',
  title: 'no import cycle in src/, db/ and islands/ (type-only and dynamic imports included)',
  fix:
    'cut one import of the loop: move what both sides use into a file that imports neither (src/shared/, or the ' +
    'module’s model.ts for a type), or let the lower side take a function or value from its caller instead of importing it',
}

export const SQL_RULE = {
  id: 'sql-of-another-owner',
  title: "a table is named in SQL only by its owner: a feature's tables in its store, the platform's in the platform (others go through them)",
  /** Where SQL is held to the rule: the server's code. db/ (schemas, migrations, derived SQL, seeds) names every table. */
  appliesTo: ['src'],
}

/**
 * Which folder owns each table: its SQL lives there (in a module, in its store: `store.ts` or `store/`), and other
 * code asks that folder. Every table of db/schema.ts must be here (the test says so when one is added); tables the
 * schema file does not declare (SQLite's full-text index, made by a migration) are listed too.
 */
export const TABLE_OWNERS: Record<string, string> = {
  countries: 'src/modules/geography',
  states: 'src/modules/geography',
  cities: 'src/modules/geography',
  users: 'src/modules/users',
  password_reset_tokens: 'src/modules/auth',
  listings: 'src/modules/listings',
  listings_fts: 'src/modules/listings',
  listing_counts: 'src/modules/listings',
  listing_day_counts: 'src/modules/listings',
  listing_month_counts: 'src/modules/listings', // PostgreSQL only (db/pg/month_counts.sql)
  listing_budget_counts: 'src/modules/listings', // PostgreSQL only (db/pg/budget_counts.sql)
  listing_id_blocks: 'src/modules/listings',
  listing_reminders: 'src/modules/listings',
  // Issue 35: a listing's private fields (only ./store/private.ts names it: tests/unit/private-fields.test.ts), and the
  // circles its visibility is judged with.
  listing_private: 'src/modules/listings',
  circles: 'src/modules/listings',
  circle_members: 'src/modules/listings',
  listing_reports: 'src/modules/listings',
  // Kept by triggers for the analytics screens (top brokers, trends).
  listing_daily_counts: 'src/modules/analytics',
  owner_listing_counts: 'src/modules/analytics',
  audit_events: 'src/modules/audit',
  listing_matches: 'src/modules/matches',
  // Issue 35: co-broke requests, deals and their threads.
  cobroke_requests: 'src/modules/deals',
  deals: 'src/modules/deals',
  deal_messages: 'src/modules/deals',
  match_digests: 'src/modules/matches',
  match_queue: 'src/modules/matches',
  user_visits: 'src/modules/dashboard',
  saved_searches: 'src/modules/saved-searches',
  second_factors: 'src/modules/second-factor',
  recovery_codes: 'src/modules/second-factor',
  second_factor_challenges: 'src/modules/second-factor',
  // The localities a module admin accepted or dismissed (issue 30), offered and decided in the intake screens.
  city_localities: 'src/modules/intake',
  // A user's push alert settings and the alerts held through their quiet hours (issue 33).
  push_settings: 'src/modules/notifications',
  push_held: 'src/modules/notifications',
  // Listing photos and, on PostgreSQL, their files (issue 34).
  listing_photos: 'src/modules/photos',
  photo_files: 'src/modules/photos',
  listing_shares: 'src/modules/share-links',
  // What every feature leans on: sign-in sessions, the mail outbox, rate limits, backups, installation-wide
  // secrets and settings.
  sessions: 'src/platform',
  mail_outbox: 'src/platform',
  rate_limits: 'src/platform',
  backup_runs: 'src/platform',
  app_secrets: 'src/platform',
  settings: 'src/platform',
  // Web Push (issue 33): the devices that take alerts and the messages waiting to leave (src/platform/push/).
  push_subscriptions: 'src/platform',
  push_outbox: 'src/platform',
  // Appended by triggers; followed by db/change-feed.ts and db/pg-feed.ts.
  change_feed: 'db',
}

/** The known violations, each to be removed as it is fixed (never added to). */
export const BASELINE_FILE = 'docs/architecture-baseline.json'

/** The figures' table components and user dialogs (issue 31: one table component, one user dialog). */
export const TABLE_COMPONENT = /^islands\/.*Table\.tsx$/
export const USER_DIALOG = /^islands\/.*User\w*Dialog\.tsx$/
