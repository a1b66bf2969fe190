import { FormatRegistry, Kind, TypeRegistry, type TString } from '@sinclair/typebox'
import { t } from 'elysia'
import { MAX_PAGE } from './constants'
import { groupThousands } from './number-format'

// Every model imports this module, so what it registers is in place before any route is compiled.

/**
 * Numbers in paths, query strings and form fields are plain decimals. Elysia reads them with `+value`, so `0x10`,
 * `1e2`, `+1` and ` 7` became 16, 100, 1 and 7 (and `page=1e18` overflowed into a 500); these formats decide what an
 * integer or a number may look like before it is converted. JSON numbers are not strings and never reach them.
 */
FormatRegistry.Set('integer', (value) => /^-?(0|[1-9][0-9]*)$/.test(value) && Number.isSafeInteger(Number(value)))
FormatRegistry.Set('numeric', (value) => /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(value) && Number.isFinite(Number(value)))

/**
 * Per-rule messages on a schema, in the `errorMessage` keyword (the ajv-errors convention): the server's validation
 * answer and the browser's form rules (islands/shared/form-rules.ts) read the same texts.
 */
export type RuleMessages = { required?: string; minLength?: string; maxLength?: string; pattern?: string; minimum?: string; maximum?: string; type?: string }

type TextOptions = {
  min?: number
  max?: number
  pattern?: string
  messages: RuleMessages
  description?: string
  examples?: string[]
  /** Line breaks and tabs allowed (details, comments, reasons); other text is one line without control characters. */
  multiline?: boolean
}

/** No control characters at all: names, codes, contacts… (a line break in a name could forge a line in a log). */
export const SINGLE_LINE_PATTERN = '^[^\\u0000-\\u001F\\u007F]*$'
const SINGLE_LINE = /^[^\u0000-\u001F\u007F]*$/
/** Line breaks and tabs, but no other control character. */
const MULTI_LINE = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/
const SINGLE_LINE_MESSAGE = 'Must be one line of text, without control characters'

/** Characters as people count them (and as JSON Schema's maxLength does): an emoji is one, not two UTF-16 units. */
export const characterCount = (s: string) => {
  let n = 0
  for (const _ of s) n++
  return n
}

type TextSchema = { minLength?: number; maxLength?: number; pattern?: string; multiline?: boolean }

/** The first rule of a text field that `value` breaks, or null: the check, and the rule the 422 names. */
export function brokenTextRule(schema: TextSchema, value: unknown): 'type' | 'minLength' | 'maxLength' | 'pattern' | null {
  if (typeof value !== 'string') return 'type'
  const length = characterCount(value)
  if (schema.minLength !== undefined && length < schema.minLength) return 'minLength'
  if (schema.maxLength !== undefined && length > schema.maxLength) return 'maxLength'
  if (!(schema.multiline ? MULTI_LINE : SINGLE_LINE).test(value)) return 'pattern'
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return 'pattern'
  return null
}

/** A string schema of kind 'Text': TypeBox's own String counts UTF-16 units, this one counts characters. */
export const TEXT_KIND = 'Text'
TypeRegistry.Set(TEXT_KIND, (schema: TextSchema, value) => brokenTextRule(schema, value) === null)

/**
 * A text field: the same JSON Schema a `t.String` gives (what OpenAPI and the browser's form rules read), checked by
 * characters, and one line unless `multiline`.
 */
export const text = ({ min, max, pattern, messages, description, examples, multiline }: TextOptions): TString => {
  const schema: Record<string | symbol, unknown> = { [Kind]: TEXT_KIND, type: 'string', minLength: min, maxLength: max, description, examples }
  if (multiline) schema.multiline = true
  // One pattern keyword per schema: a field with a pattern of its own gets the control-character rule in the check only.
  schema.pattern = pattern ?? (multiline ? undefined : SINGLE_LINE_PATTERN)
  schema.errorMessage = pattern || multiline ? messages : { pattern: SINGLE_LINE_MESSAGE, ...messages }
  for (const key of Object.keys(schema)) if (schema[key] === undefined) delete schema[key]
  return schema as unknown as TString
}

/**
 * An id in a JSON body: a whole number from 1 to 2^53 - 1. Without the top, a number like 6e154 (an "integer" to
 * JavaScript) reached PostgreSQL as a bigint it cannot read: a 500 the API fuzz found.
 */
export const id = (messages: RuleMessages, description?: string) =>
  t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, errorMessage: { type: messages.required, minimum: messages.required, maximum: messages.required, ...messages }, description })

/**
 * `page` of every paginated list: a whole number from 1 to MAX_PAGE, so no offset arithmetic can overflow. Written out
 * rather than `t.Integer({ maximum })`: Elysia checks a query integer's bounds after converting it, and a failure
 * there loses the field's name (`loc: ["property"]`); here the bounds are part of the check itself.
 */
export const PAGE_PATTERN = `^(?:[1-9][0-9]{0,${String(MAX_PAGE).length - 2}}|${MAX_PAGE})$`
if (!/^10*$/.test(String(MAX_PAGE))) throw new Error('PAGE_PATTERN assumes MAX_PAGE is a power of ten')
const PAGE_MESSAGE = `page must be a whole number from 1 to ${groupThousands(MAX_PAGE)}`
export const pageNumber = t
  .Transform(
    // A query string holds text only; the OpenAPI document shows it as the integer it stands for (docs/document.ts).
    t.String({
      pattern: PAGE_PATTERN,
      description: `From 1 (the default) to ${groupThousands(MAX_PAGE)}`,
      errorMessage: { pattern: PAGE_MESSAGE, type: PAGE_MESSAGE },
    }),
  )
  .Decode((value) => Number(value))
  .Encode((value) => String(value))

/** An answer that is a file (OpenAPI `detail.responses`): the document says which types it may be. */
export const fileAnswer = (description: string, ...types: string[]) => ({
  200: { description, content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }])) },
})

/** A 204 answer: nothing in the body. */
export const NoContent = (description: string) => t.Void({ description })

/** The body of every error answer but validation's: `{"detail": "..."}`. */
export const ErrorDetail = t.Object({ detail: t.String() })

/** A value or null (JSON null, never absent). */
export const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()])
