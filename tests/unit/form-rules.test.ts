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

test('unions with null: the browser refuses what the server refuses, with the union’s message', async () => {
  const { CreateListingBody } = await import('../../src/modules/listings/model')
  const listingRules = JSON.parse(JSON.stringify(CreateListingBody)) as ObjectSchema
  const base = { post_type: 'REQ', sale_or_rent: 'SALE', contact_value: '98765', property_type: '2BHK' }
  expect(checkForm(listingRules, { ...base, budget: -1, google_location_url: 'nope' })).toEqual({
    budget: 'Budget must be positive',
    google_location_url: 'Please enter a valid URL',
  })
  expect(checkForm(listingRules, { ...base, budget: 0, google_location_url: 'https://maps.example.com/x' })).toEqual({})
  expect(Value.Check(CreateListingBody, { ...base, budget: -1 })).toBe(false)
})

test('the password rules in the browser: first failing rule, in order', async () => {
  const { RegisterBody } = await import('../../src/modules/auth/model')
  const reg = JSON.parse(JSON.stringify(RegisterBody)) as ObjectSchema
  const pw = (password: string) => checkForm(reg, { email: 'a@b.co', full_name: 'Asha', city_id: 1, password }).password
  expect(pw('Ab1!')).toBe('Password must be at least 8 characters')
  expect(pw('abcdefg1!')).toBe('Password must contain at least one uppercase letter')
  expect(pw('ABCDEFG1!')).toBe('Password must contain at least one lowercase letter')
  expect(pw('Abcdefgh!')).toBe('Password must contain at least one number')
  expect(pw('Abcdefgh1')).toBe('Password must contain at least one special character')
  expect(pw('Abcdefg1!')).toBeUndefined()
})
