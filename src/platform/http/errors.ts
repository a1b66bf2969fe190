import { Kind } from '@sinclair/typebox'
import { DatabaseUnavailable, StaleWrite, UniqueViolation } from '../../../db/faults'
import { ValueErrorType } from '@sinclair/typebox/errors'
import { brokenTextRule, TEXT_KIND } from '../../shared/schema'
import { Elysia, ValidationError } from 'elysia'
import { createElement } from 'react'
import { ErrorFallback } from '../../../islands/shared/ErrorFallback'
import { renderPage } from '../pages/render'
import { logText } from './log-text'
import { ImageRefused, ImagesUnavailable } from '../images/refusal'
import { Conflict, DomainError, Forbidden, Invalid, NotFound, Refused, TooLarge, TooMany, Unauthenticated, Unavailable, type ValidationIssue } from '../errors'

/**
 * An answer the HTTP layer itself gives (a request head or body over the transport's limits, a route's own challenge):
 * a status and headers. Services throw domain errors instead (src/platform/errors.ts), answered below.
 */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 431 | 503,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/**
 * Each domain error's status: the one place the services' refusals become HTTP. A `TooMany` also says when to come
 * back (Retry-After); an `Invalid` about one field is answered as schema validation is (`{detail: [issue]}`).
 */
const STATUS: [abstract new (...args: never[]) => DomainError, 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503][] = [
  [Refused, 400],
  [Unauthenticated, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [TooLarge, 413],
  [Invalid, 422],
  [TooMany, 429],
  [Unavailable, 503],
]

function domainAnswer(error: DomainError, set: Answering['set']) {
  const status = STATUS.find(([kind]) => error instanceof kind)?.[1]
  if (!status) {
    console.error('[error] a domain error without a status:', error)
    set.status = 500
    return { detail: 'Internal server error' }
  }
  set.status = status
  if (error instanceof TooMany || error instanceof Unavailable) set.headers['retry-after'] = String(error.retryAfterSeconds)
  if (error instanceof Invalid && error.issue) return { detail: [error.issue] }
  return { detail: error.message }
}

const ERROR_TYPE_NAMES = Object.fromEntries(
  Object.entries(ValueErrorType).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v, k]),
) as Record<number, string>

/** The `errorMessage` rule a TypeBox error type stands for (see src/shared/schema.ts). */
function ruleOf(typeName: string): string {
  if (typeName === 'ObjectRequiredProperty') return 'required'
  for (const rule of ['MinLength', 'MaxLength', 'Pattern', 'Minimum', 'Maximum'] as const)
    if (typeName.endsWith(rule)) return rule[0]!.toLowerCase() + rule.slice(1)
  if (typeName.endsWith('Format')) return 'pattern'
  return 'type'
}

/**
 * FastAPI-style validation items, one per field: `loc` starts with where the value came from (body, query, params).
 * The message is the schema's own text for the rule that failed (an empty value counts as missing), else TypeBox's.
 */
export function validationIssues(error: Readonly<ValidationError>): ValidationIssue[] {
  const byLoc = new Map<string, ValidationIssue>()
  for (const e of error.all) {
    const path = 'path' in e && typeof e.path === 'string' ? e.path : ''
    const loc = [error.type, ...path.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p))]
    const key = loc.join('.')
    const typeName = 'type' in e && typeof e.type === 'number' ? (ERROR_TYPE_NAMES[e.type] ?? 'Invalid') : 'Invalid'
    const schema = ('schema' in e ? e.schema : {}) as { error?: unknown; errorMessage?: Record<string, string>; minLength?: number; maxLength?: number; pattern?: string; multiline?: boolean }
    const value = 'value' in e ? e.value : undefined
    // A text field (src/shared/schema.ts) reports only "not a Text"; which of its rules failed is worked out here.
    const textRule = (schema as Record<symbol, unknown>)[Kind] === TEXT_KIND ? (brokenTextRule(schema, value) ?? 'type') : null
    const rule = value === '' || value === undefined ? 'required' : (textRule ?? ruleOf(typeName))
    const msg =
      schema.errorMessage?.[rule] ??
      (textRule ? undefined : schema.errorMessage?.[ruleOf(typeName)]) ??
      (typeof schema.error === 'string' ? schema.error : undefined) ??
      e.summary ??
      ('message' in e ? String(e.message) : 'Invalid value')
    // The first problem found for a field is the one to fix; a missing value beats anything else said of it.
    if (byLoc.has(key) && rule !== 'required') continue
    byLoc.set(key, { loc, msg, type: textRule ? `string_${snake(rule)}` : snake(typeName) })
  }
  return [...byLoc.values()]
}

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

/** The methods some route answers; any other (TRACE, CONNECT, made-up ones) is a 405 wherever it is sent. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

const isApi = (path: string) => path === '/api' || path.startsWith('/api/')

/**
 * A unique key's refusal, when the service said nothing more (db/faults.ts): which of the request's fields another
 * record holds already. The API names its fields as the columns (geography, users, …), so they are the client's words.
 */
export function duplicateDetail(e: UniqueViolation): string {
  const fields = e.columns.filter((c) => c !== 'id')
  return fields.length ? `Already exists: another record has the same ${fields.join(' and ')}` : 'Already exists: another record has the same values'
}

type Answering = { request: Request; path: string; set: { status?: number | string; headers: Record<string, string | number> } }

/**
 * The database is out of reach or busy (db/faults.ts): 503 with Retry-After, the request may be sent again. The API
 * gets `{detail}`; a page, the error page a person can retry from. PostgreSQL's outages are logged once by their watch;
 * SQLite's lock or I/O failures here.
 */
function unavailable(error: DatabaseUnavailable, { request, path, set }: Answering) {
  if (!error.reported) console.error(`[database] ${request.method} ${logText(path)}: ${(error.cause as Error | undefined)?.message ?? error.message}`)
  const retryAfter = String(error.retryAfterSeconds)
  set.status = 503
  if (!isApi(path) && request.method === 'GET')
    return renderPage(createElement(ErrorFallback, { retryHref: path }), { title: 'Something went wrong', status: 503, headers: { 'retry-after': retryAfter } })
  set.headers['retry-after'] = retryAfter
  return { detail: error.message }
}

/**
 * One place turns every failure into the JSON the API promises: `{detail}` with the right status,
 * never a stack trace. Unknown pages (not /api) send the browser home instead.
 */
export const errorHandler = new Elysia({ name: 'error-handler' })
  .error({ HttpError, DomainError, DatabaseUnavailable, UniqueViolation, StaleWrite, ImageRefused, ImagesUnavailable })
  .onError({ as: 'global' }, ({ code, error, request, set, path }) => {
    switch (code) {
      case 'DatabaseUnavailable':
        return unavailable(error, { request, path, set })
      case 'UniqueViolation':
        set.status = 409
        return { detail: duplicateDetail(error) }
      // A write whose row changed since it was read (a service usually answers it as its own conflict first).
      case 'StaleWrite':
        set.status = 409
        return { detail: error.message }
      case 'DomainError':
        return domainAnswer(error, set)
      // A photo refused by its bytes (413, 415, 422), or the image processes busy or unable to start (503): issue 34.
      case 'ImageRefused':
        set.status = error.status
        return { detail: error.detail }
      case 'ImagesUnavailable':
        if (error.reason) console.error(`[images] ${error.reason}`)
        set.status = 503
        set.headers['retry-after'] = '30'
        return { detail: error.detail }
      case 'HttpError':
        set.status = error.status
        Object.assign(set.headers, error.headers)
        return { detail: error.message }
      case 'VALIDATION':
        set.status = 422
        return { detail: validationIssues(error) }
      case 'PARSE': {
        // Elysia wraps whatever a parse hook throws (the guard's 401/403, a body limit's 413) in a ParseError.
        const cause = (error as Error).cause
        if (cause instanceof DomainError) return domainAnswer(cause, set)
        if (cause instanceof HttpError) {
          set.status = cause.status
          Object.assign(set.headers, cause.headers)
          return { detail: cause.message }
        }
        // The guard's session lookup, with the database away.
        if (cause instanceof DatabaseUnavailable) return unavailable(cause, { request, path, set })
        set.status = 400
        return { detail: 'The request body could not be read: send valid JSON or form data matching its content type' }
      }
      case 'NOT_FOUND':
        if (!KNOWN_METHODS.has(request.method)) {
          set.status = 405
          set.headers.allow = [...KNOWN_METHODS].join(', ')
          return { detail: `Method ${request.method} is not allowed` }
        }
        if (!isApi(path) && (request.method === 'GET' || request.method === 'HEAD')) {
          set.status = 302
          set.headers.location = '/'
          return ''
        }
        set.status = 404
        return { detail: 'Not found' }
      case 'INVALID_COOKIE_SIGNATURE':
        set.status = 401
        return { detail: 'Not authenticated' }
      default: {
        // Elysia's own status() responses (e.g. 413 from the body limit) keep their status.
        const status = typeof (error as { status?: unknown })?.status === 'number' ? (error as { status: number }).status : 500
        if (status >= 400 && status < 500) {
          set.status = status
          return { detail: (error as Error).message || 'Bad request' }
        }
        console.error(`[error] ${request.method} ${logText(path)}:`, error)
        // A page that failed to render gets the error page a person can act on; the API gets JSON.
        if (!isApi(path) && request.method === 'GET')
          return renderPage(createElement(ErrorFallback, { retryHref: path }), { title: 'Something went wrong', status: 500 })
        set.status = 500
        return { detail: 'Internal server error' }
      }
    }
  })
