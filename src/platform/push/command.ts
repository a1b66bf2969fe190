import { openDataSource } from '../../../db/open'
import type { Config } from '../config'
import { authProblem, p256dhProblem } from './keys'
import { PushSender, type CheckResult } from './sender'
import { vapidPublicKey } from './vapid'

/**
 * `brokernet push-check ENDPOINT P256DH AUTH` (hidden; issue 33): sends one notification to that subscription now,
 * through the same endpoint checks (PUSH_ALLOW_HOSTS included), encryption and VAPID signature as the push outbox,
 * with the installation's keys from the database of DATA_DIR / DATABASE_URL (made there if it has none yet). What
 * proves that web-push works inside the compiled binary; also a way for an operator to try a device by hand.
 */
export async function pushCheck(config: Config, endpoint: string, p256dh: string, auth: string): Promise<CheckResult & { publicKey?: string }> {
  const keyProblem = (await p256dhProblem(p256dh)) ?? authProblem(auth)
  if (keyProblem) return { ok: false, status: null, error: keyProblem }
  const source = await openDataSource(config)
  try {
    const sender = new PushSender(source.db, config)
    const result = await sender.check(
      { endpoint, keys: { p256dh, auth } },
      { title: 'Brokernet', body: 'Push alerts reach this device.', url: '/', tag: 'push-check' },
      { ttl: 60, urgency: 'normal' },
    )
    return { ...result, publicKey: await vapidPublicKey(source.db) }
  } finally {
    await source.close()
  }
}
