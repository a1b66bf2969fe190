import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { DEFAULT_READ_THREADS } from '../../db/read-threads'
import { DEFAULT_ADMIN_EMAIL } from '../shared/constants'
import type { S3Settings } from './photo-store/types'

export type Config = {
  port: number
  dataDir: string
  databasePath: string
  /**
   * DATABASE_URL: `postgres://…` runs on PostgreSQL (issue 16; several instances may share it). Unset: the SQLite file
   * `databasePath`.
   */
  databaseUrl?: string
  adminEmail: string
  /** Undefined: a password is generated when the first MASTER_ADMIN is created. */
  adminPassword?: string
  demoData: boolean
  publicUrl: string
  /** Undefined: mail is only written to the outbox and the log. */
  smtpUrl?: string
  /** Sender of every message: MAIL_FROM, else no-reply at PUBLIC_URL's host. */
  mailFrom: string
  /** Identity documents, stored under random names; never served by a static path. */
  documentsDir: string
  /** TRUST_PROXY=1: the client address is the first X-Forwarded-For entry (only behind a proxy that sets it). */
  trustProxy: boolean
  /** TZ: the calendar of listing dates and "today" (IANA name, default UTC). */
  timeZone: string
  production: boolean
  /** WORKERS: server processes sharing the port and the database (default: one per core). */
  workers: number
  /**
   * READ_THREADS: threads per process that run SQLite's reads, each with a connection of its own (default 0: reads on
   * the thread that answers requests; worth it where cores outnumber WORKERS). Unused on PostgreSQL. docs/decisions/052-reads-off-thread.md.
   */
  readThreads: number
  /**
   * WRITE_LANE (0, the default: off; 1: on): a process works a write as soon as it has read it, and lets the reads of a
   * turn of its event loop run for about a millisecond, the rest in later turns, so a write does not wait behind the
   * reads already queued (src/platform/http/write-lane.ts, docs/decisions/058-write-lane.md).
   */
  writeLane: boolean
  /** MATCH_DIGEST_HOURS: at most one digest mail of new matches per user in this many hours (default 24); 0: none. */
  matchDigestHours: number
  /** LOG_LEVEL: the least severe log line written (request lines are info, 4xx warn, 5xx error); `silent` writes none. */
  logLevel: LogLevel
  /** BACKUP_DIR: where backups are written (the schedule, Backup now, `brokernet backup`); default DATA_DIR/backups. */
  backupDir: string
  /** BACKUP_EVERY (`30m`, `6h`, `1d`): a backup that often; unset: none on a schedule. */
  backupEveryMs: number | null
  /** BACKUP_KEEP: after each scheduled backup, only the newest this many of Brokernet's own archives stay (default 7). */
  backupKeep: number
  /**
   * METRICS_TOKEN: a bearer token that opens /metrics from anywhere (at least 16 characters). Unset: only loopback
   * callers may read it (docs/decisions/021-metrics.md).
   */
  metricsToken?: string
  /**
   * PUSH_ALLOW_HOSTS: host names and IP addresses (lower case, IPv6 without brackets) that push endpoints may use even
   * though they are not public, also over plain http and on any port (src/platform/push/endpoint.ts); empty: none.
   */
  pushAllowHosts: string[]
  /**
   * PUSH_RATE: push messages a second that one process's sender spreads a burst over (default 125; 0: no pacing). The
   * first 32 of a burst, and a lone alert, leave at once (src/platform/push/pace.ts; docs/decisions/048-push-pacing.md):
   * 1,000 alerts leave in 7.8 s (the goal allows 10), a thinner share of a core than at 250 (docs/decisions/061-burst-cost.md).
   */
  pushRate: number
  /** Listing photos' WebP files on SQLite (DATA_DIR/photos); on PostgreSQL they live in the database (issue 34). */
  photosDir: string
  /** PHOTO_QUOTA: the photos one broker's listings may hold in all (default 500; issue 34). */
  photoQuota: number
  /**
   * S3_BUCKET and the other S3_* names Bun's S3 client reads: listing photos in that S3-compatible bucket instead of
   * DATA_DIR (SQLite) or the database (PostgreSQL). Unset: null. docs/decisions/047-photo-storage.md.
   */
  photoS3: S3Settings | null
  /**
   * BROKERNET_MEMORY_PROBE: a folder the memory probe writes its readings to on SIGUSR2 (a measuring tool of bench:http,
   * docs/decisions/062-memory.md); unset: null, and the probe is not even loaded.
   */
  memoryProbeDir: string | null
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** A configuration mistake the operator must fix; its message is one line saying what to change. */
export class ConfigError extends Error {}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export { DEFAULT_ADMIN_EMAIL }

/** Reads the environment once at start; every rule here stops the start with a message, never a stack trace. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = parsePort(env.PORT)
  const dataDir = resolve(env.DATA_DIR?.trim() || './data')

  const adminEmail = (env.ADMIN_EMAIL?.trim() || DEFAULT_ADMIN_EMAIL).toLowerCase()
  if (!EMAIL.test(adminEmail)) throw new ConfigError(`ADMIN_EMAIL "${env.ADMIN_EMAIL}" is not an email address`)

  const adminPassword = env.ADMIN_PASSWORD || undefined
  if (adminPassword !== undefined && adminPassword.length < 8)
    throw new ConfigError('ADMIN_PASSWORD must be at least 8 characters (or leave it unset to have one generated)')

  const demo = env.DEMO_DATA?.trim() ?? ''
  if (!['', '0', '1'].includes(demo)) throw new ConfigError(`DEMO_DATA must be 1 or 0, not "${demo}"`)

  const publicUrl = parseUrl('PUBLIC_URL', env.PUBLIC_URL?.trim() || `http://localhost:${port || 3000}`, ['http:', 'https:'])
  const smtpUrl = env.SMTP_URL?.trim() ? parseUrl('SMTP_URL', env.SMTP_URL.trim(), ['smtp:', 'smtps:']) : undefined

  const mailFrom = env.MAIL_FROM?.trim() || `Brokernet <no-reply@${new URL(publicUrl).hostname}>`
  if (!/@/.test(mailFrom)) throw new ConfigError(`MAIL_FROM "${mailFrom}" has no email address in it`)

  const trustProxy = env.TRUST_PROXY?.trim() ?? ''
  if (!['', '0', '1'].includes(trustProxy)) throw new ConfigError(`TRUST_PROXY must be 1 or 0, not "${trustProxy}"`)

  const timeZone = env.TZ?.trim() || 'UTC'
  try {
    // UTC needs no check, and skipping it keeps ICU's time zone data (several ms) out of the start.
    if (timeZone !== 'UTC') new Intl.DateTimeFormat('en-CA', { timeZone })
  } catch {
    throw new ConfigError(`TZ "${timeZone}" is not a time zone (expected an IANA name such as UTC or Asia/Kolkata)`)
  }

  const databaseUrl = env.DATABASE_URL?.trim() ? parseUrl('DATABASE_URL', env.DATABASE_URL.trim(), ['postgres:', 'postgresql:']) : undefined
  const workers = parseCount('WORKERS', env.WORKERS, availableParallelism(), 64)
  const readThreads = parseCount('READ_THREADS', env.READ_THREADS, DEFAULT_READ_THREADS, 16, 0)
  const writeLane = parseCount('WRITE_LANE', env.WRITE_LANE, 0, 1, 0) === 1
  const matchDigestHours = parseCount('MATCH_DIGEST_HOURS', env.MATCH_DIGEST_HOURS, 24, 720, 0)
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${env.LOG_LEVEL}"`)
  // Never echoed in the message: a too-short token is still a secret of sorts.
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new ConfigError(`METRICS_TOKEN must be at least 16 characters (it has ${metricsToken.length}); or leave it unset to allow only local scrapes`)

  const backupDir = resolve(env.BACKUP_DIR?.trim() || resolve(dataDir, 'backups'))
  const backupEveryMs = parseEvery(env.BACKUP_EVERY)
  const backupKeep = parseCount('BACKUP_KEEP', env.BACKUP_KEEP, 7, 10_000)
  const pushAllowHosts = parseHosts('PUSH_ALLOW_HOSTS', env.PUSH_ALLOW_HOSTS)
  const pushRate = parseCount('PUSH_RATE', env.PUSH_RATE, 125, 100_000, 0)
  const photoQuota = parseCount('PHOTO_QUOTA', env.PHOTO_QUOTA, 500, 1_000_000, 0)
  const photoS3 = parseS3(env)

  return {
    port,
    dataDir,
    databasePath: resolve(dataDir, 'brokernet.db'),
    databaseUrl,
    adminEmail,
    adminPassword,
    demoData: demo === '1',
    publicUrl: publicUrl.replace(/\/+$/, ''),
    smtpUrl,
    mailFrom,
    documentsDir: resolve(dataDir, 'documents'),
    trustProxy: trustProxy === '1',
    timeZone,
    production: env.NODE_ENV === 'production',
    workers,
    readThreads,
    writeLane,
    matchDigestHours,
    logLevel,
    metricsToken,
    backupDir,
    backupEveryMs,
    backupKeep,
    pushAllowHosts,
    pushRate,
    photosDir: resolve(dataDir, 'photos'),
    photoQuota,
    photoS3,
    memoryProbeDir: env.BROKERNET_MEMORY_PROBE?.trim() ? resolve(env.BROKERNET_MEMORY_PROBE.trim()) : null,
  }
}

/**
 * The photos' bucket, from the names Bun's own client reads (S3_*, else AWS_* for the keys and region). Only S3_BUCKET
 * turns it on: an AWS_* key left in a shell never moves the photos. The secret is never in a message.
 */
function parseS3(env: Record<string, string | undefined>): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim()
  if (!bucket) return null
  const accessKeyId = (env.S3_ACCESS_KEY_ID || env.AWS_ACCESS_KEY_ID)?.trim()
  const secretAccessKey = (env.S3_SECRET_ACCESS_KEY || env.AWS_SECRET_ACCESS_KEY)?.trim()
  if (!accessKeyId || !secretAccessKey) throw new ConfigError('S3_BUCKET is set: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY too (the bucket’s key pair)')
  const endpoint = env.S3_ENDPOINT?.trim() ? parseUrl('S3_ENDPOINT', env.S3_ENDPOINT.trim(), ['http:', 'https:']) : undefined
  const prefix = env.S3_PREFIX === undefined ? 'photos/' : env.S3_PREFIX.trim()
  if (!/^(?:[A-Za-z0-9._-]+\/)*$/.test(prefix)) throw new ConfigError(`S3_PREFIX must be empty or folder names ending in "/" (letters, digits, . _ -), not "${prefix}"`)
  const virtual = env.S3_VIRTUAL_HOSTED_STYLE?.trim() ?? ''
  if (!['', '0', '1'].includes(virtual)) throw new ConfigError(`S3_VIRTUAL_HOSTED_STYLE must be 1 or 0, not "${virtual}"`)
  return {
    bucket,
    endpoint,
    region: (env.S3_REGION || env.AWS_REGION)?.trim() || undefined,
    accessKeyId,
    secretAccessKey,
    sessionToken: (env.S3_SESSION_TOKEN || env.AWS_SESSION_TOKEN)?.trim() || undefined,
    virtualHostedStyle: virtual === '1',
    prefix,
    timeoutMs: parseCount('S3_TIMEOUT_MS', env.S3_TIMEOUT_MS, 5000, 120_000, 100),
  }
}

/**
 * A host name as DNS spells one: dot-separated labels of letters, digits and inner hyphens (a final dot allowed), the
 * last not all digits (URLs read such a name as an IPv4 address).
 */
const HOST_NAME = /^(?=.{1,253}\.?$)(?!(?:.*\.)?\d+\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

/** An IPv6 address as the URL parser reads one (node:net would cost the start about 10 ms to import). */
function isIPv6(text: string): boolean {
  if (!text.includes(':')) return false
  try {
    new URL(`http://[${text}]/`)
    return true
  } catch {
    return false
  }
}

/** `a.example, 127.0.0.1, [::1]`: each a host name or an IP address, no port, no scheme; lower case, no final dot. */
function parseHosts(name: string, raw: string | undefined): string[] {
  const hosts: string[] = []
  for (const entry of (raw ?? '').split(',')) {
    const host = entry.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')
    if (host === '') continue
    if (!IPV4.test(host) && !isIPv6(host) && !HOST_NAME.test(host))
      throw new ConfigError(`${name} must list host names or IP addresses separated by commas (no scheme, no port), not "${entry.trim()}"`)
    hosts.push(host.replace(/\.$/, ''))
  }
  return hosts
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/** A duration as BACKUP_EVERY writes it, in its largest whole unit: 21600000 → `6h`. */
export const durationText = (ms: number) =>
  ms % UNIT_MS.d === 0 ? `${ms / UNIT_MS.d}d` : ms % UNIT_MS.h === 0 ? `${ms / UNIT_MS.h}h` : ms % UNIT_MS.m === 0 ? `${ms / UNIT_MS.m}m` : `${ms / UNIT_MS.s}s`

/** `90s`, `30m`, `6h`, `1d`: at least ten seconds, at most a year. */
function parseEvery(raw: string | undefined): number | null {
  const text = raw?.trim().toLowerCase() ?? ''
  if (text === '') return null
  const m = /^(\d+)\s*([smhd])$/.exec(text)
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN
  if (!(ms >= 10_000 && ms <= 366 * UNIT_MS.d))
    throw new ConfigError(`BACKUP_EVERY must be a duration such as 30m, 6h or 1d (from 10s to 366d), not "${raw}"`)
  return ms
}

function parseCount(name: string, raw: string | undefined, fallback: number, max: number, min = 1): number {
  if (raw === undefined || raw.trim() === '') return Math.min(fallback, max)
  const n = Number(raw)
  if (!/^\d+$/.test(raw.trim()) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`)
  return n
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 3000
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, not "${raw}"`)
  return port
}

function parseUrl(name: string, raw: string, protocols: string[]): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${name} "${raw}" is not a URL (expected ${protocols.map((p) => p + '//…').join(' or ')})`)
  }
  if (!protocols.includes(url.protocol))
    throw new ConfigError(`${name} must start with ${protocols.map((p) => p + '//').join(' or ')}, not "${url.protocol}//"`)
  return raw
}

/** A database URL as a log or a screen may show it: without its password. */
export function redactedUrl(url: string): string {
  const u = new URL(url)
  if (u.password) u.password = '***'
  return u.toString()
}
