// Requests built from the OpenAPI document, and answers checked against it: the smoke test and the property-based
// test of tests/api/openapi-fuzz.test.ts share these.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import fc from 'fast-check'

export type Json = Record<string, any>
export type Operation = { method: string; path: string; op: Json }

/** What a `$ref` inside the document points at (`#/components/responses/NotFound`). */
export function dereference(doc: Json, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`not a reference inside the document: ${ref}`)
  const target = ref.slice(2).split('/').reduce<Json | undefined>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
  if (!target) throw new Error(`${ref} points at nothing`)
  return target
}

/** Every operation of the document, as `{ method, path, op }`, its answers given in full (shared ones are `$ref`s). */
export function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = []
  for (const [path, ops] of Object.entries<Json>(doc.paths))
    for (const [method, op] of Object.entries<Json>(ops)) {
      const responses = Object.fromEntries(
        Object.entries<Json>(op.responses ?? {}).map(([status, answer]) => {
          if (!answer.$ref) return [status, answer]
          const { $ref, ...own } = answer // a reference's own description stands beside it (OpenAPI 3.1)
          return [status, { ...dereference(doc, $ref), ...own }]
        }),
      )
      out.push({ method: method.toUpperCase(), path, op: { ...op, responses } })
    }
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// Answers

const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/)
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)))
ajv.addFormat('binary', () => true)
ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/)
const compiled = new WeakMap<object, ValidateFunction>()
const validatorOf = (schema: Json) => {
  let v = compiled.get(schema)
  if (!v) compiled.set(schema, (v = ajv.compile(schema)))
  return v
}

/** Whether a value fits a JSON Schema of the document (used for answers, and to pick plausible request values). */
export const fits = (schema: Json, value: unknown) => validatorOf(schema)(value)

/**
 * What is wrong with an answer, by the document: a 5xx, a status the operation does not list, a content type it does
 * not list, or a JSON body outside the listed schema. Null when the answer is as documented. Reads (or cancels) the body.
 */
export async function answerProblem(operation: Operation, res: Response): Promise<string | null> {
  const where = `${operation.method} ${operation.path} → ${res.status}`
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim()
  const documented = operation.op.responses?.[String(res.status)]
  // An event stream never ends: its headers are the answer.
  if (type === 'text/event-stream') void res.body?.cancel()
  const text = type === 'text/event-stream' ? '' : await res.text()
  if (res.status >= 500) return `${where}: server error ${text.slice(0, 300)}`
  if (!documented) return `${where}: status not documented (documented: ${Object.keys(operation.op.responses ?? {}).join(', ')}); body ${text.slice(0, 300)}`
  const content: Json | undefined = documented.content
  if (!content || res.status === 204) return text === '' || res.status !== 204 ? null : `${where}: a 204 with a body`
  if (!(type in content)) return `${where}: content type "${type}" not documented (${Object.keys(content).join(', ')})`
  const schema = content[type]?.schema
  if (type !== 'application/json' || !schema) return null
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return `${where}: not JSON: ${text.slice(0, 200)}`
  }
  const validate = validatorOf(schema)
  if (!validate(body)) return `${where}: body outside its schema: ${ajv.errorsText(validate.errors)}; body ${text.slice(0, 300)}`
  return null
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

/** Values a test knows to exist, by what a field or path names: ids of a city, a listing, a user… */
export type Pool = { city: number; state: number; country: number; listing: number; user: number; audit: number }

let unique = 0
/** Candidate strings for patterned fields; the first the schema accepts is used. */
const CANDIDATES = () => [
  `someone${++unique}@example.com`,
  'Strong@123',
  '2026-01-15',
  'https://maps.example.com/place/1',
  'Sample text',
  `CODE${unique % 100}`,
  '9876543210',
]

/** A plausible valid value for a schema: what a client reading the document would send. */
export function plausible(schema: Json, name: string, pool: Pool): unknown {
  if (schema.examples?.length && fits(schema, schema.examples[0])) return schema.examples[0]
  if (schema.enum) return schema.enum.find((v: unknown) => v !== null)
  if (schema.const !== undefined) return schema.const
  const members: Json[] | undefined = schema.anyOf ?? schema.oneOf
  if (members) return plausible(members.find((m) => m.type !== 'null') ?? members[0]!, name, pool)
  if (schema.allOf) return CANDIDATES().find((c) => fits(schema, c)) ?? 'Strong@123'
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const out: Json = {}
      for (const [key, sub] of Object.entries<Json>(schema.properties ?? {})) out[key] = plausible(sub, key, pool)
      return out
    }
    case 'array':
      return [plausible(schema.items ?? {}, name, pool)]
    case 'integer':
    case 'number': {
      const ids: Record<string, number> = { city_id: pool.city, state_id: pool.state, country_id: pool.country, countryId: pool.country }
      if (name in ids) return ids[name]
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER)
    }
    case 'boolean':
      return true
    case 'string': {
      if (schema.format === 'binary') return new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])], 'id.png', { type: 'image/png' })
      const min = schema.minLength ?? 0
      const candidates = [...CANDIDATES(), `Sample ${name}`.padEnd(min, 'x')]
      return candidates.find((c) => fits(schema, c)) ?? 'x'.repeat(Math.max(min, 1))
    }
    default:
      return null
  }
}

/** Which pool id a path's `{param}` names. */
export function pathId(path: string, param: string, pool: Pool): number {
  if (param === 'countryId' || path.includes('/countries/')) return pool.country
  if (path.includes('/states/')) return pool.state
  if (path.includes('/cities/')) return pool.city
  if (path.includes('/listings/')) return pool.listing
  if (path.includes('/users/')) return pool.user
  if (path.includes('/audit/')) return pool.audit
  return 1
}

export type Built = { path: string; init: RequestInit }

/** A request: the path with its parameters filled in, the query, and the body in the operation's content type. */
export function buildRequest(
  operation: Operation,
  parts: { params: Record<string, string>; query: Record<string, string>; body?: unknown; rawBody?: string; rawType?: string },
  headers: Record<string, string>,
): Built {
  let path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parts.params[name] ?? '1'))
  const qs = new URLSearchParams(parts.query).toString()
  if (qs) path += `?${qs}`
  const init: RequestInit = { method: operation.method, headers: { ...headers } }
  const content: Json | undefined = operation.op.requestBody?.content
  // Raw text goes with any method that may carry a body, whether or not the operation takes one: the server reads it.
  if (parts.rawBody !== undefined && operation.method !== 'GET') {
    init.body = parts.rawBody
    ;(init.headers as Record<string, string>)['content-type'] = parts.rawType ?? 'application/json'
  } else if (content && parts.body !== undefined) {
    if ('multipart/form-data' in content) {
      const form = new FormData()
      for (const [k, v] of Object.entries((parts.body ?? {}) as Json)) if (v !== undefined && v !== null) form.set(k, v instanceof Blob ? v : typeof v === 'string' ? v : JSON.stringify(v))
      init.body = form
    } else {
      init.body = JSON.stringify(parts.body)
      ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
    }
  }
  return { path, init }
}

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries (fast-check)

/** Text a hostile client sends: empty, huge, control characters, lone surrogates, look-alike numbers, markup. */
const hostileText = fc.oneof(
  fc.constantFrom('', ' ', '0', '-1', '0x10', '1e18', '+1', 'NaN', 'null', 'true', '[]', '{}', '%00', '\u0000', 'a\nb', '\ud800', '<script>', "' OR 1=1 --", '😀'.repeat(30)),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.string({ minLength: 250, maxLength: 5000 }),
)
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
)

/** Values for a schema: valid-looking ones most of the time, hostile ones otherwise. */
export function valueArb(schema: Json, name: string, pool: Pool): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: validArb(schema, name, pool), weight: 3 }, { arbitrary: hostileValue, weight: 1 })
}

function validArb(schema: Json, name: string, pool: Pool): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const members: Json[] | undefined = schema.anyOf ?? schema.oneOf
  if (members) return fc.oneof(...members.map((m) => validArb(m, name, pool)))
  if (schema.allOf) return fc.constantFrom('Strong@123', 'weak', 'NoDigits!!', 'Ab1!')
  const type = Array.isArray(schema.type) ? fc.constantFrom(...schema.type) : fc.constant(schema.type)
  return type.chain((t: string) => {
    switch (t) {
      case 'null':
        return fc.constant(null)
      case 'object': {
        const props = Object.entries<Json>(schema.properties ?? {})
        const required = new Set<string>(schema.required ?? [])
        const fields = Object.fromEntries(props.map(([k, s]) => [k, valueArb(s, k, pool)]))
        // Mostly every required field, sometimes any subset of them.
        return fc.oneof(
          { arbitrary: fc.record(fields, { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) }), weight: 4 },
          { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 1 },
        )
      }
      case 'array':
        return fc.array(validArb(schema.items ?? {}, name, pool), { maxLength: 3 })
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? -1_000
        const max = schema.maximum ?? 10_000_000
        const ids = name.endsWith('_id') || name === 'id' || name === 'countryId' ? [fc.constantFrom(pool.city, pool.state, pool.country, pool.listing, pool.user)] : []
        return fc.oneof(t === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true }), ...ids)
      }
      case 'boolean':
        return fc.boolean()
      case 'string': {
        if (schema.format === 'binary')
          return fc.constantFrom(
            new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16])], 'id.jpg', { type: 'image/jpeg' }),
            new File([new TextEncoder().encode('not an image')], 'id.png', { type: 'image/png' }),
            new File([], 'empty.pdf', { type: 'application/pdf' }),
          )
        const patterned = CANDIDATES().filter((c) => fits(schema, c))
        if (patterned.length) return fc.constantFrom(...patterned)
        return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 60, 300), unit: 'grapheme' })
      }
      default:
        return hostileValue
    }
  })
}

/** A query or path value as text: the schema's values written out, or hostile text. */
export function textArb(schema: Json, name: string, pool: Pool): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: validArb(schema, name, pool).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))), weight: 3 }, { arbitrary: hostileText, weight: 1 })
}
