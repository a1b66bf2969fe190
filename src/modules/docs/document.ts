// Completes the OpenAPI document @elysia/openapi builds from the routes, so that it describes every answer the API
// gives (tests/api/openapi-fuzz.test.ts holds the API to it; tests/api/openapi-valid.test.ts holds it to OpenAPI 3.1):
//  - request bodies: the plugin writes an empty `content` for a route with a parse hook written as a function, and
//    every route has one (the body limit and the auth guard check a request before its body is read);
//  - the answers routes share, derived from each route's definition (docs/decisions/024-request-limits.md) and
//    described once, in `components.responses`: see ANSWER_RULES;
//  - a 204 has no content (the plugin writes the route's `t.Void()` schema where media types belong);
//  - schemas as a client reads them: Elysia's coerced numbers (`anyOf: [string of digits, integer]`) are the
//    integers they stand for, a page is an integer, and a nullable enum lists `null`.
import { PAGE_PATTERN } from '../../shared/schema'
import { MAX_PAGE } from '../../shared/constants'
import { MAX_BODY_BYTES, PHOTO_BODY_BYTES } from '../../platform/http/body-limit'
import { MAX_HEAD_BYTES } from '../../platform/http/head-limit'

type Json = Record<string, any>
type Route = { method: string; path: string; hooks: { body?: unknown; type?: string; detail?: { security?: unknown[] } } }

const ERROR = { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } }
const VALIDATION_ERROR = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        required: ['loc', 'msg', 'type'],
        properties: { loc: { type: 'array', items: { type: ['string', 'integer'] } }, msg: { type: 'string' }, type: { type: 'string' } },
      },
    },
  },
}
const json = (schema: Json) => ({ 'application/json': { schema } })
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } }

/** The answers many operations share, by status: `components.responses[name]`, referred to from each operation. */
const SHARED_ANSWERS: Record<string, { name: string; reason: string; answer: Json }> = {
  '400': { name: 'BodyUnreadable', reason: 'Bad Request', answer: { description: 'The body could not be read as its content type says (not valid JSON or form data)', content: json(ERROR) } },
  '401': { name: 'Unauthorized', reason: 'Unauthorized', answer: { description: 'No session, or it has expired', content: json(ERROR) } },
  '403': { name: 'Forbidden', reason: 'Forbidden', answer: { description: 'The account is inactive, the role may not do this, or a cookie-borne change came from another site', content: json(ERROR) } },
  '404': { name: 'NotFound', reason: 'Not Found', answer: { description: 'Nothing of that id in your scope', content: json(ERROR) } },
  '409': {
    name: 'Conflict',
    reason: 'Conflict',
    answer: { description: 'The change conflicts with what is stored: a value that must be unique is taken (also by a change made at the same moment), or the current state does not allow it', content: json(ERROR) },
  },
  '413': {
    name: 'BodyTooLarge',
    reason: 'Content Too Large',
    answer: { description: `The body is over its limit: ${MAX_BODY_BYTES / 1024 / 1024} MB for any request (${PHOTO_BODY_BYTES / 1024 / 1024} MB for a listing's photos; less where the operation says so), whether its length is declared or counted as it arrives`, content: json(ERROR) },
  },
  '422': { name: 'ValidationFailed', reason: 'Unprocessable Content', answer: { description: 'A field breaks its rules: one `{loc, msg, type}` per field (or one `detail` text for a rule across fields)', content: json({ oneOf: [VALIDATION_ERROR, ERROR] }) } },
  '429': { name: 'TooManyRequests', reason: 'Too Many Requests', answer: { description: 'Over a rate limit: try again after `Retry-After` seconds', headers: RETRY_AFTER, content: json(ERROR) } },
  '431': { name: 'HeadersTooLarge', reason: 'Request Header Fields Too Large', answer: { description: `The address and headers are over ${MAX_HEAD_BYTES / 1024} KB together`, content: json(ERROR) } },
  '503': { name: 'Unavailable', reason: 'Service Unavailable', answer: { description: 'The database cannot be reached just now: try again after `Retry-After` seconds', headers: RETRY_AFTER, content: json(ERROR) } },
}

/** What the rules below read of an operation. */
type Facts = { method: string; needsSession: boolean; validates: boolean; hasPathId: boolean }
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete'])

/**
 * Which shared answers an operation can give, from what its route declares, so a new route is documented by being
 * defined. Statuses a route alone gives (a 429 of its rate limit, a 409 of its own rule) it declares itself, in its
 * `response` (with the `ErrorDetail` schema, which then becomes the shared answer).
 */
const ANSWER_RULES: Record<string, (op: Facts) => boolean> = {
  // The guard (src/platform/http/auth.ts) on every route that needs a session.
  '401': (op) => op.needsSession,
  '403': (op) => op.needsSession,
  // Any body sent with these methods is read (Elysia parses it for every route: the body limit has a parse hook).
  '400': (op) => BODY_METHODS.has(op.method),
  // A route that changes something may meet a unique value taken by another change, on SQLite or PostgreSQL alike.
  '409': (op) => BODY_METHODS.has(op.method),
  '404': (op) => op.hasPathId,
  '422': (op) => op.validates,
  // Before any route: a declared body over the limit (src/platform/http/body-limit.ts), a head over its own
  // (src/platform/http/head-limit.ts), the database away (every operation reads it, if only for the session).
  '413': () => true,
  '431': () => true,
  '503': () => true,
}

/** Whether a route's own answer for a status is the shared one: no schema, `t.Any()`, or the error shape. */
const isSharedShape = (answer: Json | undefined) => {
  const schema = answer?.content?.['application/json']?.schema
  if (!answer || !schema || !Object.keys(schema).length) return true
  if (Object.keys(answer.content).length !== 1) return false
  // `additionalProperties: false` is Elysia's own: compiling a route's answer check (lazily, at its first answer)
  // writes it into the shared schema object, so the document would otherwise change after the first error answered.
  const { type, required, properties, additionalProperties: _closed, ...rest } = schema
  return type === 'object' && !Object.keys(rest).length && String(required) === 'detail' && Object.keys(properties ?? {}).join() === 'detail' && properties.detail.type === 'string'
}

/** No body by definition (RFC 9110): whatever schema the route gave, the answer has no content. */
const NO_CONTENT = new Set(['204', '205', '304'])

/** Elysia's coerced number, `anyOf: [{type: string, format: integer|numeric}, {type: integer|number}]`: the number. */
function coercedNumber(schema: Json): Json | null {
  const members = schema.anyOf
  if (!Array.isArray(members) || members.length !== 2) return null
  const text = members.find((m: Json) => m.type === 'string' && (m.format === 'integer' || m.format === 'numeric'))
  const number = members.find((m: Json) => m.type === 'integer' || m.type === 'number')
  if (!text || !number) return null
  const { anyOf: _, default: _default, ...outer } = schema
  return { ...outer, ...number }
}

/** One schema, and every schema inside it, as a client should read it. */
export function clientSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(clientSchema)
  if (!schema || typeof schema !== 'object') return schema
  let s: Json = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, clientSchema(v)]))
  s = coercedNumber(s) ?? s
  if (s.type === 'string' && s.pattern === PAGE_PATTERN) {
    const { pattern: _, errorMessage: __, ...rest } = s
    s = { ...rest, type: 'integer', minimum: 1, maximum: MAX_PAGE }
  }
  if (Array.isArray(s.type) && s.type.includes('null') && Array.isArray(s.enum) && !s.enum.includes(null)) s = { ...s, enum: [...s.enum, null] }
  return s
}

/** The plugin's stand-in description of a response. */
const GENERIC = /^Response for status \d+$/

const PATH_PARAM = /:(\w+)/g
const openApiPath = (path: string) => path.replace(PATH_PARAM, '{$1}').replace(/(.)\/$/, '$1')

/** The document as served at /swagger/json: the plugin's, completed (see the top of this file). */
export function completeDocument(doc: Json, routes: Route[]): Json {
  const byOperation = new Map(routes.map((r) => [`${r.method.toLowerCase()} ${openApiPath(r.path)}`, r]))
  for (const [path, operations] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(operations)) {
      const route = byOperation.get(`${method} ${openApiPath(path)}`)
      if (route?.hooks.body && !Object.keys(op.requestBody?.content ?? {}).length) {
        // The route's own TypeBox schema is JSON Schema once its symbols are gone.
        const schema = JSON.parse(JSON.stringify(route.hooks.body))
        op.requestBody = { required: true, content: { [route.hooks.type ?? 'application/json']: { schema } } }
      }
      const responses: Json = (op.responses ??= {})
      const security: unknown[] | undefined = op.security
      const facts: Facts = {
        method,
        // `security: []` is a public route; a list holding `{}` is one where a session is optional (sign-out).
        needsSession: security === undefined || (security.length > 0 && !security.some((s) => s && typeof s === 'object' && !Object.keys(s).length)),
        validates: Boolean(op.parameters?.length || op.requestBody),
        hasPathId: Boolean(op.parameters?.some((p: Json) => p.in === 'path')),
      }
      const derived = new Set(Object.keys(ANSWER_RULES).filter((status) => ANSWER_RULES[status]!(facts)))
      for (const status of derived) responses[status] ??= {}
      for (const [status, given] of Object.entries<Json>(responses)) {
        if (NO_CONTENT.has(status)) responses[status] = { description: given.description ?? given.content?.description ?? 'No content' }
        const shared = SHARED_ANSWERS[status]
        if (!shared || !isSharedShape(given)) continue
        // The shared answer, with the route's own description when it has one. A status the route declared for a
        // reason of its own (a sign-in's 401 is a wrong password, not a missing session) is not described as the
        // shared one's: the operation's description says why.
        const own = given.description && !GENERIC.test(given.description) ? given.description : derived.has(status) ? null : `${shared.reason}: see the operation's description`
        responses[status] = { $ref: `#/components/responses/${shared.name}`, ...(own ? { description: own } : {}) }
      }
      op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)))
    }
  }
  doc.components = { ...doc.components, responses: Object.fromEntries(Object.values(SHARED_ANSWERS).map(({ name, answer }) => [name, answer])) }
  return clientSchema(doc) as Json
}
