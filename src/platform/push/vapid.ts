import type { Queryable } from '../../../db/sql'

// The server's VAPID key pair (RFC 8292): push services accept a message only when it is signed by the key the
// subscription was made with (the browser's applicationServerKey). One pair for the whole installation, kept in
// `app_secrets` so that every process, and every instance of a PostgreSQL deployment, signs with the same key; a new
// pair would silently orphan every subscription.

const KEY_NAME = 'vapid'

/** base64url: the public key as an uncompressed P-256 point (65 bytes), the private key as its 32-byte scalar. */
export type VapidKeys = { publicKey: string; privateKey: string }

const cached = new WeakMap<Queryable, Promise<VapidKeys>>()

/** A new pair, by WebCrypto (node:crypto costs the start several milliseconds to import; this runs at first start). */
async function generate(): Promise<VapidKeys> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
  const publicKey = Buffer.from(await crypto.subtle.exportKey('raw', pair.publicKey)).toString('base64url')
  const { d } = await crypto.subtle.exportKey('jwk', pair.privateKey)
  return { publicKey, privateKey: d! }
}

const read = async (db: Queryable) => {
  const row = await db.get<{ value: string }>('select value from app_secrets where name = ?', [KEY_NAME])
  return row ? (JSON.parse(row.value) as VapidKeys) : undefined
}

/**
 * The installation's pair, made by whichever process asks first (at first start: src/bootstrap.ts): an insert that
 * does nothing when another process's pair is there already, after which both read the one that won. Read once per
 * process. Not inside a transaction: on SQLite that would wait for its own writer.
 */
export function vapidKeys(db: Queryable): Promise<VapidKeys> {
  let keys = cached.get(db)
  if (!keys) {
    keys = (async () => {
      const found = await read(db)
      if (found) return found
      await db.run('insert into app_secrets (name, value) values (?, ?) on conflict (name) do nothing', [KEY_NAME, JSON.stringify(await generate())])
      return (await read(db))!
    })()
    // A failed read (a busy database) is tried again at the next use rather than remembered.
    keys.catch(() => cached.delete(db))
    cached.set(db, keys)
  }
  return keys
}

/** What the browser needs to subscribe (`applicationServerKey`): the public key, base64url. */
export async function vapidPublicKey(db: Queryable): Promise<string> {
  return (await vapidKeys(db)).publicKey
}

/**
 * The `sub` claim of the signatures: how a push service's operator reaches us. PUBLIC_URL when it is https on a real
 * host (Apple's service refuses localhost), else a mailto: of the MAIL_FROM address.
 */
export function vapidSubject(config: { publicUrl: string; mailFrom: string }): string {
  const url = new URL(config.publicUrl)
  if (url.protocol === 'https:' && url.hostname !== 'localhost') return url.origin
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom.trim()
  return `mailto:${address}`
}
