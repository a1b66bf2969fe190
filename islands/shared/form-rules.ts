// Checks form values against a route's JSON Schema (a TypeBox model sent to the island as props),
// so the browser shows the same messages the server's validation would, from one definition.

export type FieldSchema = {
  type?: string
  minLength?: number
  maxLength?: number
  pattern?: string
  minimum?: number
  maximum?: number
  error?: string
  /** Per-rule messages (src/shared/schema.ts). */
  errorMessage?: Partial<Record<'required' | 'minLength' | 'maxLength' | 'pattern' | 'minimum' | 'maximum' | 'type', string>>
  anyOf?: FieldSchema[]
  /** Every member must pass; the first failing member's message is shown (e.g. the password rules, in order). */
  allOf?: FieldSchema[]
  const?: unknown
}
export type ObjectSchema = { properties: Record<string, FieldSchema>; required?: string[] }
export type FieldErrors = Record<string, string>

/** Characters as people (and JSON Schema's maxLength) count them: an emoji is one, as on the server. */
export const characterCount = (s: string) => [...s].length

const messageOf = (s: FieldSchema, fallback: string, rule?: keyof NonNullable<FieldSchema['errorMessage']>) =>
  (rule && s.errorMessage?.[rule]) ?? s.error ?? fallback

export function checkField(schema: FieldSchema, value: unknown, required: boolean): string | null {
  const empty = value === undefined || value === null || value === ''
  if (empty) return required ? messageOf(schema, 'This field is required', 'required') : null
  // A `null` member of a union accepts nothing else (e.g. budget: a number ≥ 0, or null).
  if (schema.type === 'null') return messageOf(schema, 'Invalid value', 'type')
  if (schema.allOf) {
    for (const member of schema.allOf) {
      const message = checkField(member, value, true)
      if (message) return message
    }
    return null
  }
  if (schema.anyOf) {
    return schema.anyOf.some((s) => (s.const !== undefined ? s.const === value : checkField(s, value, true) === null))
      ? null
      : messageOf(schema, 'Invalid value', 'type')
  }
  if (typeof value === 'string') {
    const length = characterCount(value)
    if (schema.minLength !== undefined && length < schema.minLength) return messageOf(schema, `At least ${schema.minLength} characters`, 'minLength')
    if (schema.maxLength !== undefined && length > schema.maxLength) return messageOf(schema, `At most ${schema.maxLength} characters`, 'maxLength')
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) return messageOf(schema, 'Invalid format', 'pattern')
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return messageOf(schema, `At least ${schema.minimum}`, 'minimum')
    if (schema.maximum !== undefined && value > schema.maximum) return messageOf(schema, `At most ${schema.maximum}`, 'maximum')
  }
  return null
}

export function checkForm(schema: ObjectSchema, values: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {}
  const required = new Set(schema.required ?? [])
  for (const [name, field] of Object.entries(schema.properties)) {
    const message = checkField(field, values[name], required.has(name))
    if (message) errors[name] = message
  }
  return errors
}

/** The integer rule of a field: Elysia's t.Integer accepts a numeric string too (anyOf string, integer). */
export const integerRule = (rules: ObjectSchema, field: string): FieldSchema => {
  const schema = rules.properties[field]!
  return schema.anyOf?.find((m) => m.type === 'integer') ?? schema
}

/** A whole number typed into `field`'s input, as a number; or the message of the rule it breaks (the server's own). */
export function parseWholeNumber(rules: ObjectSchema, field: string, raw: string): { value: number } | { error: string } {
  const integer = integerRule(rules, field)
  const n = raw.trim() === '' ? undefined : Number(raw)
  if (n !== undefined && !Number.isInteger(n)) return { error: integer.errorMessage?.type ?? 'Must be a whole number' }
  const error = checkField(integer, n, true)
  return error ? { error } : { value: n! }
}
