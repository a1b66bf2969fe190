import { t } from 'elysia'
import { Nullable } from '../../shared/schema'
import { SecondFactorCode } from '../auth/model'

// Issue 29: the caller's own second factor, its reset by a master admin, and the module-admin setting.

export const CodeBody = t.Object({ code: SecondFactorCode })

export const FactorStatus = t.Object({
  enabled: t.Boolean({ description: 'Whether two-factor sign-in is on for the caller' }),
  required: t.Boolean({ description: 'Whether the caller’s role must use it (then it cannot be turned off)' }),
  enabled_at: Nullable(t.String({ format: 'date-time' })),
  recovery_codes_left: t.Integer({ minimum: 0 }),
})

export const Enrolment = t.Object({
  secret: t.String({ description: 'The key as base32, for typing into the app by hand; shown during setup only, never again' }),
  uri: t.String({ description: 'The `otpauth://totp/…` URI the QR code holds' }),
  qr_svg: t.String({ description: 'The QR code of `uri`, as an SVG document' }),
})

export const RecoveryCodes = t.Object({
  recovery_codes: t.Array(t.String(), { minItems: 10, maxItems: 10, description: 'Ten codes of one use each; shown this once' }),
})

export const Enrolled = t.Object({
  recovery_codes: RecoveryCodes.properties.recovery_codes,
  token: t.String({ description: 'The new session token: every earlier session of the caller ended (the cookie is replaced too)' }),
})

export const Policy = t.Object({
  required_for_module_admins: t.Boolean(),
  updated_at: Nullable(t.String({ format: 'date-time', description: 'When the setting last changed; null while it is the default (off)' })),
})
export const PolicyBody = t.Object({ required_for_module_admins: t.Boolean() })
