// Completes the OpenAPI document @elysia/openapi builds from the routes, so that it describes every answer the API
// gives (the property-based test in tests/api/openapi-fuzz.test.ts holds the API to it):
//  - request bodies: the plugin writes an empty `content` for a route with a parse hook written as a function, and
//    every route has one (the body limit and the auth guard check a request before its body is read);
//  - the answers every route shares: 401/403 where a session is needed, 422 where anything is validated, 400 and 413
//    where a body is read, 404 where a path names something;
//  - schemas as a client reads them: Elysia's coerced numbers (`anyOf: [string of digits, integer]`) are the
//    integers they stand for, a page is an integer, and a nullable enum lists `null`.
import { PAGE_PATTERN } from '../../shared/schema'
import { MAX_PAGE } from '../../shared/constants'

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

/** The answers every route of a kind gives, with what they mean. */
const SHARED_ANSWERS: Record<string, { description: string; content: Json }> = {
  '400': { description: 'The body could not be read (not valid JSON or form data)', content: json(ERROR) },
  '401': { description: 'No session, or it has expired', content: json(ERROR) },
  '403': { description: 'The account is inactive, the role may not do this, or a cookie-borne change came from another site', content: json(ERROR) },
  '404': { description: 'Nothing of that id in your scope', content: json(ERROR) },
  '413': { description: 'The body is over its limit', content: json(ERROR) },
  '422': { description: 'A field breaks its rules: one `{loc, msg, type}` per field (or one `detail` text for a rule across fields)', content: json({ oneOf: [VALIDATION_ERROR, ERROR] }) },
}

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
      // `security: []` is a public route; a list holding `{}` is one where a session is optional (sign-out).
      const needsSession = security === undefined || (security.length > 0 && !security.some((s) => s && typeof s === 'object' && !Object.keys(s).length))
      const shared = new Set<string>()
      if (needsSession) shared.add('401').add('403')
      if (op.parameters?.length || op.requestBody) shared.add('422')
      if (op.requestBody) shared.add('400').add('413')
      if (op.parameters?.some((p: Json) => p.in === 'path')) shared.add('404')
      for (const status of shared) {
        const given = responses[status]
        // A route's own `t.Any()` (or nothing) for an error answer becomes the shared shape.
        const schema = given?.content?.['application/json']?.schema
        if (!given || !schema || !Object.keys(schema).length)
          responses[status] = { ...SHARED_ANSWERS[status]!, ...(given?.description && !GENERIC.test(given.description) ? { description: given.description } : {}) }
      }
    }
  }
  return clientSchema(doc) as Json
}
