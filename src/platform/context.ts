import type { Database } from '../../db/client'
import type { Db } from '../../db/sql'
import { sqliteSource, type DataSource } from '../../db/open'
import type { Config } from './config'
import { documentStore, type DocumentStore } from './documents'
import { Mailer } from './mail'
import { SnapshotCache } from '../../db/snapshot-cache'
import { approximateBytes } from '../../db/approximate-bytes'
import { SessionCache } from './session-cache'
import { SessionWatch } from './session-watch'
import type { Feed } from '../../db/change-feed'
import { PASTE_BUDGET, RATE_LIMITS } from '../shared/constants'
import { RateLimiter } from './rate-limit'
import { WorkBudget } from './http/work-budget'
import { KeptAnswer } from './http/kept-answer'
import { createLogger, type Logger } from './http/request-log'
import { Metrics } from './metrics'
import { watchApp } from './app-metrics'
import { Backups } from './backup/service'
import { Features } from './features'

/** What the listing, dashboard and analytics answers are computed from (circles: who sees a CIRCLE listing, issue 35): never the inbox rows of matches. */
const LISTING_TOPICS = ['listing', 'user', 'geography', 'circle'] as const

/**
 * Totals, zone chips and windows of ids kept current through writes: small (a number, or up to 1,024 ids), and each
 * one evicted is a query to run again (on PostgreSQL a common word's is 60-300 ms). A dashboard mix of 600 list
 * addresses keeps about 1,500 (a total, a window and seven zone totals per filter set), about 1 MB. Also within 16 MB
 * (issue 36: each process ≤ 300 MB): 8,192 windows of 1,024 ids would be about 70 MB (docs/decisions/062-memory.md).
 */
const COUNT_CACHE = { entries: 8192, weight: 16 * 1024 * 1024, weigh: approximateBytes, topics: LISTING_TOPICS }

/**
 * Whole list answers kept as sent until the data changes (./http/kept-answer.ts), within 32 MB (a page of 25 listings
 * is about 25 KB of JSON, a broker's `/my` of 850 listings about 850 KB; compressed copies are counted in).
 */
const PAGE_CACHE = { entries: 1024, weight: 32 * 1024 * 1024, weigh: (body: unknown) => (body instanceof KeptAnswer ? body.weight : 0), topics: LISTING_TOPICS }

export const createPageCache = (feed: Feed) => new SnapshotCache(feed, PAGE_CACHE)

/**
 * The limiters of SPEC's rate limits, each counting in its own bucket of the `rate_limits` table; and the allowance of
 * pasted characters a user may have read, which guards each process's CPU and so is counted in it.
 */
export const createLimits = (db: Db) => {
  const limiter = (bucket: keyof typeof RATE_LIMITS) => new RateLimiter(db, bucket, RATE_LIMITS[bucket].limit, RATE_LIMITS[bucket].windowMs)
  return {
    loginByAddress: limiter('failedLoginPerAddress'),
    loginByAccount: limiter('failedLoginPerAccount'),
    resetByAddress: limiter('resetRequestPerAddress'),
    resetByAccount: limiter('resetRequestPerAccount'),
    registerByAddress: limiter('registrationPerAddress'),
    secondFactorByAccount: limiter('failedSecondFactorPerAccount'),
    secondFactorByAddress: limiter('failedSecondFactorPerAddress'),
    pasteChars: new WorkBudget(PASTE_BUDGET.chars, PASTE_BUDGET.windowMs),
  }
}
export type Limits = ReturnType<typeof createLimits>

/**
 * The platform's services, which every feature may use: the data layer, configuration, the change feed, mail, documents,
 * limits, caches, sessions, logs and metrics. Features are built by functions of it (src/app.ts), each building its own
 * services over these, so each test file can compose an app on its own database (bun test runs files in one process).
 * It holds nothing of any feature.
 */
export type AppContext = {
  /** The data layer (db/sql.ts): every store reads and writes through it. */
  db: Db
  config: Config
  mail: Mailer
  documents: DocumentStore
  limits: Limits
  /** This process's place in the change feed: what tells caches and event streams that data changed, anywhere. */
  feed: Feed
  counts: SnapshotCache
  pages: SnapshotCache
  /** Sessions validated lately, kept true by the feed (src/platform/session-cache.ts). */
  sessions: SessionCache
  /** Ends each open event stream when its session ends, wherever it was ended (src/platform/session-watch.ts). */
  sessionWatch: SessionWatch
  /** The JSON log on stdout at LOG_LEVEL (src/platform/http/request-log.ts); tests may give one with a sink of their own. */
  logger: Logger
  /**
   * What /metrics tells (src/platform/metrics.ts, src/modules/metrics/). A feature adds to it: `registerGauge` for a
   * number read at each scrape (e.g. the age of the newest backup), `addSource` for counts of this process.
   */
  metrics: Metrics
  /** Backup now and BACKUP_EVERY's schedule (src/platform/backup/service.ts). */
  backups: Backups
  /**
   * What the features add besides their routes (src/platform/features.ts): reactions the server starts and stops, the
   * events of the user's stream, the shell's badges. Each feature's plugin registers its own (src/app.ts composes them).
   */
  features: Features
}

/**
 * The services of one running app, over its data source (db/open.ts) and configuration. Given an open SQLite database
 * instead (tests), the data layer is made over it: it writes through that connection and opens a second one to read.
 */
export function createContext(source: Database | Pick<DataSource, 'db' | 'feed'>, config: Config, overrides: Partial<AppContext> = {}): AppContext {
  const { db, feed: own } = 'feed' in source ? source : sqliteSource(source, { readThreads: config.readThreads })
  const feed = overrides.feed ?? own
  const logger = overrides.logger ?? createLogger(config.logLevel)
  const ctx: AppContext = {
    db,
    config,
    feed,
    mail: overrides.mail ?? new Mailer(db, config),
    documents: overrides.documents ?? documentStore(db, config.documentsDir),
    limits: overrides.limits ?? createLimits(db),
    counts: overrides.counts ?? new SnapshotCache(feed, COUNT_CACHE),
    pages: overrides.pages ?? createPageCache(feed),
    sessions: overrides.sessions ?? new SessionCache(feed),
    sessionWatch: overrides.sessionWatch ?? new SessionWatch(db, feed),
    metrics: overrides.metrics ?? new Metrics(),
    logger,
    backups: overrides.backups ?? new Backups(db, config, logger),
    features: overrides.features ?? new Features(),
  }
  // The data layer's timer, the caches' and streams' counts, the outbox's backlog: what /metrics reads of the app
  // (the streams' as the features register them).
  watchApp(ctx)
  return ctx
}
