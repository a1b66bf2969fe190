import type { users } from '../../db/schema'

/** A user row as the services, sessions and the audit trail see it: camelCase, times as Dates, the flag a boolean. */
export type User = typeof users.$inferSelect

/** Every column of `users`, named as `User` names them (in its order). */
export const USER_COLUMNS = `users.id, users.email, users.password_hash as "passwordHash", users.full_name as "fullName", users.phone,
  users.role, users.is_active as "isActive", users.registration_status as "registrationStatus",
  users.rejection_reason as "rejectionReason", users.id_card_number as "idCardNumber",
  users.id_card_document as "idCardDocument", users.id_card_document_type as "idCardDocumentType", users.city_id as "cityId",
  users.created_at as "createdAt", users.updated_at as "updatedAt"`

export type RawUser = Omit<User, 'isActive' | 'createdAt' | 'updatedAt'> & { isActive: unknown; createdAt: number | string; updatedAt: number | string }

/** A row read with USER_COLUMNS as a `User`. */
export const userRow = (r: RawUser): User => ({
  ...r,
  isActive: Boolean(r.isActive),
  createdAt: new Date(Number(r.createdAt)),
  updatedAt: new Date(Number(r.updatedAt)),
})
