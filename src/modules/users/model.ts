import { t } from 'elysia'
import { LIMITS, PAGE_SIZES } from '../../shared/constants'
import { EMAIL_PATTERN } from '../../shared/patterns'
import { id, pageNumber, text, Nullable } from '../../shared/schema'

/** Why an account was deactivated or a registration rejected: free text, line breaks allowed. */
const reason = text({ max: 500, multiline: true, messages: { maxLength: 'The reason must be at most 500 characters' } })

// SPEC section 3 "User", "User list response", "Pending approvals response"; section 5 "Add Broker / Add Module Admin form".

const Role = t.Union([t.Literal('MASTER_ADMIN'), t.Literal('MODULE_ADMIN'), t.Literal('BROKER')])

export const User = t.Object({
  id: t.Integer(),
  email: t.String(),
  full_name: t.String(),
  phone: Nullable(t.String()),
  role: Role,
  is_active: t.Boolean(),
  registration_status: t.Union([t.Literal('PENDING'), t.Literal('APPROVED'), t.Literal('REJECTED')]),
  rejection_reason: Nullable(t.String()),
  id_card_number: Nullable(t.String()),
  id_card_document_url: Nullable(t.String({ description: 'GET it for the document (admins who may see the user)' })),
  id_card_document_type: Nullable(t.String()),
  city_id: Nullable(t.Integer()),
  city_name: Nullable(t.String()),
  state_id: Nullable(t.Integer()),
  state_name: Nullable(t.String()),
  country_id: Nullable(t.Integer()),
  country_name: Nullable(t.String()),
  created_at: t.String({ format: 'date-time' }),
  has_second_factor: t.Boolean({ description: 'Whether two-factor sign-in is on for them (issue 29)' }),
})
export type User = typeof User.static

export const UserList = t.Object({
  users: t.Array(User),
  page: t.Integer(),
  per_page: t.Integer(),
  total: t.Integer(),
  total_pages: t.Integer(),
})
export type UserList = typeof UserList.static

const optionalId = t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))
export const UserListQuery = t.Object({
  role: t.Optional(Role),
  search: t.Optional(text({ max: 200, messages: {}, description: 'Name, email or ID card number (case-insensitive, partial)' })),
  country_id: optionalId,
  state_id: optionalId,
  city_id: optionalId,
  is_active: t.Optional(t.Boolean()),
  registration_status: t.Optional(t.Union([t.Literal('PENDING'), t.Literal('APPROVED'), t.Literal('REJECTED')])),
  page: t.Optional(pageNumber),
  per_page: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 50, description: `Usually one of ${PAGE_SIZES.join(', ')}; at most 100` })),
})
export type UserListQuery = typeof UserListQuery.static

export const PendingUser = t.Object({
  id: t.Integer(),
  full_name: t.String(),
  email: t.String(),
  phone: Nullable(t.String()),
  city_name: Nullable(t.String()),
  state_name: Nullable(t.String()),
  created_at: t.String({ format: 'date-time' }),
  id_card_number: Nullable(t.String()),
  id_card_document_url: Nullable(t.String()),
})
export const PendingApprovals = t.Object({ total: t.Integer(), pending_users: t.Array(PendingUser) })
export type PendingApprovals = typeof PendingApprovals.static

// The add-user form's rules (SPEC section 5): each required field says so; the password needs only its length.
export const CreateUserBody = t.Object({
  email: text({ max: 254, pattern: EMAIL_PATTERN, messages: { required: 'Email is required', pattern: 'Please enter a valid email address', maxLength: 'Please enter a valid email address' } }),
  password: text({ min: LIMITS.passwordMin, max: 128, messages: { required: 'Password is required', minLength: 'Password must be at least 8 characters', maxLength: 'Password must be at most 128 characters' } }),
  full_name: text({ min: 1, max: 100, messages: { required: 'Full name is required', minLength: 'Full name is required', maxLength: 'Full name must be at most 100 characters' } }),
  phone: text({ min: 1, max: 20, messages: { required: 'Phone number is required', minLength: 'Phone number is required', maxLength: 'Phone number must be at most 20 characters' } }),
  role: t.Union([t.Literal('BROKER'), t.Literal('MODULE_ADMIN')], { errorMessage: { required: 'Role is required', type: 'Role must be BROKER or MODULE_ADMIN' } }),
  id_card_number: t.Optional(text({ max: 50, messages: { maxLength: 'ID card number must be at most 50 characters' } })),
  city_id: id({ required: 'City is required' }),
  id_card_document: t.Optional(t.File({ description: 'JPEG, PNG or PDF, at most 10 MB; checked by its content' })),
})
export type CreateUserBody = typeof CreateUserBody.static

export const UpdateUserBody = t.Object({
  full_name: t.Optional(text({ min: 1, max: 100, messages: { required: 'Full name is required', minLength: 'Full name is required', maxLength: 'Full name must be at most 100 characters' } })),
  phone: t.Optional(text({ min: 1, max: 20, messages: { required: 'Phone number is required', minLength: 'Phone number is required', maxLength: 'Phone number must be at most 20 characters' } })),
  id_card_number: t.Optional(t.Union([text({ max: 50, messages: { maxLength: 'ID card number must be at most 50 characters' } }), t.Null()])),
  city_id: t.Optional(id({ required: 'City is required' }, 'Master admins only')),
})
export type UpdateUserBody = typeof UpdateUserBody.static

export const ActivationBody = t.Object({
  is_active: t.Boolean({ errorMessage: { required: 'is_active is required', type: 'is_active must be true or false' } }),
  reason: t.Optional(reason),
})
export const RejectQuery = t.Object({ reason: t.Optional(reason) })
export const UserIdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
