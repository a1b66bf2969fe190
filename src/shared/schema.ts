import { t } from 'elysia'

/**
 * Per-rule messages on a schema, in the `errorMessage` keyword (the ajv-errors convention): the server's validation
 * answer and the browser's form rules (islands/shared/form-rules.ts) read the same texts.
 */
export type RuleMessages = { required?: string; minLength?: string; maxLength?: string; pattern?: string; minimum?: string; maximum?: string; type?: string }

type TextOptions = { min?: number; max?: number; pattern?: string; messages: RuleMessages; description?: string; examples?: string[] }

export const text = ({ min, max, pattern, messages, description, examples }: TextOptions) =>
  t.String({ minLength: min, maxLength: max, pattern, errorMessage: messages, description, examples })

export const id = (messages: RuleMessages, description?: string) =>
  t.Integer({ minimum: 1, errorMessage: { type: messages.required, minimum: messages.required, ...messages }, description })

/** The body of every error answer but validation's: `{"detail": "..."}`. */
export const ErrorDetail = t.Object({ detail: t.String() })
