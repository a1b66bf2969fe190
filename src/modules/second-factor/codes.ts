import { decodeBase32IgnorePadding, encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding'
import { createTOTPKeyURI, verifyHOTP } from '@oslojs/otp'
import { SECOND_FACTOR } from '../../shared/constants'

// The codes of a second factor (issue 29): RFC 6238 time-based codes through @oslojs/otp and recovery codes (the QR
// code is ./qr.ts's). Pure functions: what is stored and when is ./store.ts's and ./service.ts's.

const { periodSeconds, digits, windowSteps } = SECOND_FACTOR

/** A new key: 20 random bytes (160 bits, RFC 4226's recommendation for SHA-1), as base32 for apps and storage. */
export function newSecret(): string {
  const key = new Uint8Array(20)
  crypto.getRandomValues(key)
  return encodeBase32UpperCaseNoPadding(key)
}

const keyOf = (secret: string) => decodeBase32IgnorePadding(secret)

/** The 30-second step of a moment: what a code is computed from. */
export const stepAt = (now: number) => Math.floor(now / (periodSeconds * 1000))

/** A code of six digits, spaces aside (apps show `123 456`); anything else is no time-based code. */
export const TOTP_PATTERN = /^\d{6}$/
export const cleanCode = (code: string) => code.replace(/[\s-]/g, '')

/**
 * The step whose code this is, within one step either side of now (a phone's clock a little off, a code typed as it
 * changed), or null. Later than `after` only: a code accepted once is not accepted again, nor an older one.
 * verifyHOTP compares in constant time.
 */
export function matchingStep(secret: string, code: string, now: number, after: number | null): number | null {
  const clean = cleanCode(code)
  if (!TOTP_PATTERN.test(clean)) return null
  const key = keyOf(secret)
  const current = stepAt(now)
  for (let step = current - windowSteps; step <= current + windowSteps; step++) {
    if (after !== null && step <= after) continue
    if (verifyHOTP(key, BigInt(step), digits, clean)) return step
  }
  return null
}

/** `otpauth://totp/Brokernet:<email>?secret=…&issuer=Brokernet&algorithm=SHA1&digits=6&period=30`, what the QR code holds. */
export const keyUri = (secret: string, account: string) => createTOTPKeyURI(SECOND_FACTOR.issuer, account, keyOf(secret), periodSeconds, digits)

/**
 * Ten recovery codes of 80 random bits each, as `abcd-efgh-ijkl-mnop` (base32: no 0/O or 1/l to confuse). So much
 * randomness makes a plain SHA-256 enough to store them: no list of guesses reaches one.
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: SECOND_FACTOR.recoveryCodes }, () => {
    const bytes = new Uint8Array(10)
    crypto.getRandomValues(bytes)
    return encodeBase32LowerCaseNoPadding(bytes).match(/.{4}/g)!.join('-')
  })
}

/** The stored form of a recovery code as typed: case, spaces and dashes aside. */
export const recoveryHash = (code: string) => Bun.SHA256.hash(code.toLowerCase().replace(/[^a-z2-7]/g, ''), 'hex')
