import { t } from 'elysia'
import { EMAIL_PATTERN } from '../../shared/patterns'

export const LoginBody = t.Object({
  email: t.String({ pattern: EMAIL_PATTERN, error: 'Please enter a valid email address' }),
  password: t.String({ minLength: 1, error: 'Password is required' }),
})
export type LoginBody = typeof LoginBody.static
