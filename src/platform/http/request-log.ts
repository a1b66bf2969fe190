import { Elysia, StatusMap } from 'elysia'
import type { Logger as Pino } from 'pino'
import type { LogLevel } from '../config'
import { LogBuffer } from './log-buffer'

/** Where log lines go: stdout by default; tests pass a function that keeps them. */
export type LogSink = (line: string) => void

/** An incoming `X-Request-Id` kept as it is (a proxy's id ties its log to ours); anything else is replaced. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** pino's numbers for the levels LOG_LEVEL may name (silent: nothing). */
const LEVEL_VALUES: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity }

/** What the server logs through: pino's methods that it uses, and one line of plain fields without pino. */
export type Logger = {
  isLevelEnabled(level: string): boolean
  info: Pino['info']
  warn: Pino['warn']
  error: Pino['error']
  /**
   * One line of flat fields (strings, numbers, booleans, null), exactly as pino writes it (`level` and `time` first),
   * into the same destination and order as pino's lines, without pino's work per line: the request log's line, written
   * for every request (issue 36, docs/decisions/069-request-cost.md). The caller has checked the level.
   */
  line(level: 'info' | 'warn' | 'error', fields: Record<string, string | number | boolean | null>): void
}

/**
 * pino writing to stdout through a buffer of lines (./log-buffer.ts): no write system call per request, every line
 * written at exit, a crash's too (docs/decisions/020-request-log.md, 046-request-path.md). Transports run on worker
 * threads, which a compiled binary does not need and a crash could cut short. Levels are written as words.
 *
 * pino itself is loaded at the first line it writes, not at start (~6 % of the binary's start-up CPU: it loads node's
 * util and events and its redaction; issue 36, docs/decisions/059-start-and-memory.md). The request log's lines do not
 * go through it (`line`), so a server that logs nothing else never loads it. Whether a level is written is known
 * without it.
 */
export function createLogger(level: LogLevel, sink?: LogSink): Logger {
  const destination = sink ? { write: sink } : new LogBuffer(1)
  let made: Pino | undefined
  const real = (): Pino => {
    if (made) return made
    const pino = require('pino') as typeof import('pino')
    made = pino.default({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination)
    return made
  }
  const threshold = LEVEL_VALUES[level] ?? 30
  return {
    isLevelEnabled: (l) => (LEVEL_VALUES[l] ?? 0) >= threshold,
    info: (...args: Parameters<Pino['info']>) => real().info(...args),
    warn: (...args: Parameters<Pino['warn']>) => real().warn(...args),
    error: (...args: Parameters<Pino['error']>) => real().error(...args),
    // pino's own line is `{"level":"info","time":"…",` then the fields; JSON.stringify escapes what a field holds.
    line: (l, fields) => {
      const json = JSON.stringify(fields)
      destination.write(`{"level":"${l}","time":"${isoNow()}"${json.length > 2 ? `,${json.slice(1)}` : '}'}\n`)
    },
  }
}

/** The time as pino's isoTime writes it; made once per millisecond (a busy server answers several in one). */
let lastMs = -1
let lastIso = ''
function isoNow(): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

/**
 * Users of server-rendered pages, which resolve their session in the page rather than through the API's guard (that
 * sets the context's `user`): noted by request so their log lines name them too.
 */
const pageUsers = new WeakMap<Request, number>()
export const notePageUser = (request: Request, userId: number) => void pageUsers.set(request, userId)

/**
 * One line per request, written once its answer has gone (an event stream: once its answer started). It names the
 * route template, never the raw path's ids or its query string (a renew link's signature, a reset token), and
 * nothing of headers, cookies or bodies. Every answer carries its request id as `X-Request-Id`.
 */
export const requestLog = (logger: Logger) =>
  new Elysia({ name: 'request-log' })
    .onRequest((c) => {
      const incoming = c.request.headers.get('x-request-id')
      const id = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
      // Kept on the request's context, which every later hook of this request is given (a WeakMap keyed by the
      // request cost a lookup and a weak entry per request: issue 36).
      ;(c as unknown as Stamped).requestStamp = performance.now()
      ;(c as unknown as Stamped).requestId = id
      c.set.headers['x-request-id'] = id
    })
    .onAfterResponse({ as: 'global' }, (c) => {
      const status = statusOf(c.set.status, (c as { responseValue?: unknown }).responseValue)
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'
      if (!logger.isLevelEnabled(level)) return
      const { requestStamp, requestId } = c as unknown as Partial<Stamped>
      logger.line(level, {
        method: c.request.method,
        route: c.route || c.path,
        status,
        duration_ms: requestStamp === undefined ? null : Math.round((performance.now() - requestStamp) * 100) / 100,
        user_id: (c as { user?: { id?: number } }).user?.id ?? pageUsers.get(c.request) ?? null,
        request_id: requestId ?? null,
      })
    })

/** What the request log notes on a request's context when it arrives. */
type Stamped = { requestStamp: number; requestId: string }

/** A handler may answer with a Response of its own (a redirect, a file) instead of setting `set.status`. */
export function statusOf(status: unknown, value: unknown): number {
  if (value instanceof Response) return value.status
  if (typeof status === 'string') return (StatusMap as Record<string, number>)[status] ?? 200
  return typeof status === 'number' ? status : 200
}
