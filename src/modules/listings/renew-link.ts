import type { Queryable } from '../../../db/sql'
import { RENEW_LINK_MS } from '../../shared/constants'
import { sharedSecret } from '../../platform/settings'

// node:crypto is required at first use, not at start: loading it costs milliseconds of CPU before the first answer
// (issue 36, docs/decisions/004-lazy-start.md).
const crypto = () => require('node:crypto') as typeof import('node:crypto')

// The one-click renew link of an expiry reminder (issue 17; docs/decisions/016-renew-links.md): the token itself is
// the authority, so it is signed, not stored. It names the listing and the end it was reminded of: once the listing is
// renewed (or given another end) its end differs and the token is dead; so is one older than RENEW_LINK_MS.

/** What a token says: the listing, its `expires_at` when the token was made, and until when the token works (epoch ms). */
export type RenewClaims = { listingId: number; expiresAt: number; validUntil: number }

/** Why a token is refused: not ours (malformed or a bad signature), or ours but past its week. */
export type RenewTokenProblem = 'invalid' | 'expired'

const KEY_NAME = 'renew-links'
const keys = new WeakMap<Queryable, Promise<Buffer>>()

/**
 * The signing key every process (and every instance on one PostgreSQL database) shares: 32 random bytes in
 * `app_secrets`, made by whichever asks first (a second maker's insert does nothing, and both read the winner's).
 * Read once per process. Not inside a transaction: on SQLite that would wait for its own writer.
 */
export function renewKey(db: Queryable): Promise<Buffer> {
  let key = keys.get(db)
  if (!key) {
    key = (async () => {
      return Buffer.from(await sharedSecret(db, KEY_NAME, crypto().randomBytes(32).toString('base64url')), 'base64url')
    })()
    // A failed read (a busy database) is tried again at the next use rather than remembered.
    key.catch(() => keys.delete(db))
    keys.set(db, key)
  }
  return key
}

const sign = (key: Buffer, payload: string) => crypto().createHmac('sha256', key).update(payload).digest()

/** base64url(payload) '.' base64url(HMAC-SHA256(key, that first part)), valid for RENEW_LINK_MS from `now`. */
export function renewToken(key: Buffer, listing: { id: number; expiresAt: number }, now: number): string {
  const payload = Buffer.from(JSON.stringify({ l: listing.id, e: listing.expiresAt, v: now + RENEW_LINK_MS })).toString('base64url')
  return `${payload}.${sign(key, payload).toString('base64url')}`
}

/** The token's claims when it is ours (signature compared in constant time) and still in its week; else why not. */
export function readRenewToken(key: Buffer, token: string, now: number): RenewClaims | RenewTokenProblem {
  const [payload, signature, extra] = token.split('.')
  if (!payload || !signature || extra !== undefined) return 'invalid'
  const given = Buffer.from(signature, 'base64url')
  const expected = sign(key, payload)
  if (given.length !== expected.length || !crypto().timingSafeEqual(given, expected)) return 'invalid'
  let claims: { l?: unknown; e?: unknown; v?: unknown }
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return 'invalid'
  }
  const { l, e, v } = claims ?? {}
  if (![l, e, v].every(Number.isSafeInteger)) return 'invalid'
  if ((v as number) <= now) return 'expired'
  return { listingId: l as number, expiresAt: e as number, validUntil: v as number }
}
