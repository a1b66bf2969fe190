import { t } from 'elysia'
import { ACCOUNT_MESSAGES as M, PASSWORD_RULES } from '../../shared/account-rules'
import { LIMITS } from '../../shared/constants'
import { EMAIL_PATTERN } from '../../shared/patterns'
import { id, text } from '../../shared/schema'

const CHALLENGE_MISSING = 'This sign-in has expired. Please sign in with your password again.'

// Field rules and messages of SPEC section 5. The islands receive these schemas as their form rules.

const email = text({ max: 254, pattern: EMAIL_PATTERN, messages: { required: M.email, pattern: M.email, maxLength: M.email }, examples: ['broker@example.com'] })

/**
 * The password rules, each with its own message, checked in order (length first): an intersection of one rule per
 * member, so both TypeBox and the browser's form rules report the first rule that fails.
 */
export const NewPassword = t.Intersect(
  [
    // SPEC section 5 "Register": an empty password gets the first rule's message, not a 'required' of its own.
    text({ min: LIMITS.passwordMin, max: 128, messages: { required: M.passwordMin, minLength: M.passwordMin, maxLength: M.passwordMax } }),
    ...PASSWORD_RULES.map((r) => text({ pattern: r.pattern, messages: { pattern: r.message } })),
  ],
  { errorMessage: { required: M.passwordMin }, description: 'At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character' },
)

export const LoginBody = t.Object({
  email: t.String({ pattern: EMAIL_PATTERN, error: 'Please enter a valid email address' }),
  password: t.String({ minLength: 1, error: M.passwordRequired }),
})
export type LoginBody = typeof LoginBody.static

/** Issue 29: the sign-in's second step. `code`: six digits from the app, or a recovery code (`abcd-efgh-ijkl-mnop`). */
export const SecondFactorCode = text({
  min: 1,
  max: 64,
  messages: { required: 'Please enter the code', minLength: 'Please enter the code', maxLength: 'That code is too long' },
  examples: ['123456'],
})
export const SecondFactorLoginBody = t.Object({
  challenge: t.String({ minLength: 1, maxLength: 200, errorMessage: { required: CHALLENGE_MISSING, minLength: CHALLENGE_MISSING, maxLength: CHALLENGE_MISSING } }),
  code: SecondFactorCode,
})

/** SPEC section 3 "Registration payload", sent as multipart form data; `id_card_file` is the optional document. */
export const RegisterBody = t.Object({
  email,
  password: NewPassword,
  full_name: text({ min: LIMITS.fullNameMin, max: 100, messages: { required: M.fullNameMin, minLength: M.fullNameMin, maxLength: 'Full name must be at most 100 characters' } }),
  phone: t.Optional(text({ min: LIMITS.phoneMin, max: 20, messages: { minLength: M.phoneMin, maxLength: 'Phone number must be at most 20 characters' } })),
  id_card_number: t.Optional(text({ max: 50, messages: { maxLength: 'ID card number must be at most 50 characters' } })),
  city_id: id({ required: M.city }, 'A city id from GET /api/geographic/states/{id}/cities'),
  id_card_file: t.Optional(t.File({ description: 'JPEG, PNG or PDF, at most 5 MB; checked by its content, not its name' })),
})
export type RegisterBody = typeof RegisterBody.static

export const Registered = t.Object({
  id: t.Integer(),
  email: t.String(),
  full_name: t.String(),
  registration_status: t.Literal('PENDING'),
  message: t.String(),
})

export const ForgotPasswordBody = t.Object({ email })
export const ResetPasswordBody = t.Object({
  token: t.String({ minLength: 1, maxLength: 200, errorMessage: { required: 'The reset link is missing its token', minLength: 'The reset link is missing its token' } }),
  password: NewPassword,
  confirm_password: t.String({ errorMessage: { required: M.confirmMismatch, type: M.confirmMismatch } }),
})
export type ResetPasswordBody = typeof ResetPasswordBody.static

export const Message = t.Object({ message: t.String() })
