import { expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { errorMessage } from '../../islands/shared/api'
import { checkForm, type ObjectSchema } from '../../islands/shared/form-rules'
import { LoginBody } from '../../src/modules/auth/model'

// The island receives the schema as JSON props: test it the way the browser gets it.
const rules = JSON.parse(JSON.stringify(LoginBody)) as ObjectSchema

test.each([
  [{ email: '', password: '' }, { email: 'Please enter a valid email address', password: 'Password is required' }],
  [{ email: 'not-an-email', password: 'x' }, { email: 'Please enter a valid email address' }],
  [{ email: 'a@b.co', password: '' }, { password: 'Password is required' }],
  [{ email: 'a@b.co', password: 'x' }, {}],
])('the browser applies the server schema: %j', (values, errors) => {
  expect(checkForm(rules, values)).toEqual(errors)
  // and agrees with the server's validator on what is valid
  expect(Value.Check(LoginBody, values)).toBe(Object.keys(errors).length === 0)
})

test('API error messages follow SPEC section 8: detail, error.message, message, then HTTP status', () => {
  expect(errorMessage(409, 'Conflict', { detail: 'email already registered' })).toBe('email already registered')
  expect(errorMessage(422, 'Unprocessable', { detail: [{ loc: ['body', 'x'], msg: 'Bad x', type: 'x' }] })).toBe('Bad x')
  expect(errorMessage(400, 'Bad Request', { error: { message: 'nested' } })).toBe('nested')
  expect(errorMessage(400, 'Bad Request', { message: 'plain' })).toBe('plain')
  expect(errorMessage(502, 'Bad Gateway', 'oops')).toBe('HTTP 502: Bad Gateway')
})
