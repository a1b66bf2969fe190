import { t } from 'elysia'
import { MAX_PUSH_DEVICES } from '../../shared/constants'
import { PUSH_KINDS } from './kinds'

// Issue 33, push alerts: the server's public key, the user's devices, and their settings.

export const DEVICE_LIMIT = MAX_PUSH_DEVICES

export const PublicKey = t.Object({
  public_key: t.String({ description: 'The VAPID public key (base64url, an uncompressed P-256 point): PushManager.subscribe\'s `applicationServerKey`' }),
})

export const SubscribeBody = t.Object({
  endpoint: t.String({ maxLength: 4096, description: 'PushSubscription.endpoint: https on a public host name (PUSH_ALLOW_HOSTS allows more)' }),
  keys: t.Object({
    p256dh: t.String({ maxLength: 200, description: 'The browser\'s P-256 public key, base64url (uncompressed point)' }),
    auth: t.String({ maxLength: 100, description: 'The 16-byte auth secret, base64url' }),
  }),
  expirationTime: t.Optional(t.Union([t.Number(), t.Null()], { description: 'As PushSubscription.toJSON() gives it; not used' })),
})
export type SubscribeBody = typeof SubscribeBody.static

export const Device = t.Object({
  id: t.Integer(),
  device: t.String({ description: 'Browser and system, read from the user agent when it subscribed ("Chrome on Android")' }),
  created_at: t.String({ format: 'date-time' }),
  last_used_at: t.String({ format: 'date-time', description: 'Its last subscribe, or the last alert its push service accepted' }),
})
export type Device = typeof Device.static

export const DeviceList = t.Object({
  devices: t.Array(Device, { description: 'The most recently used first' }),
  limit: t.Integer({ description: 'How many devices may take alerts at once' }),
})

export const DeviceIdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })

const HHMM = '^([01][0-9]|2[0-3]):[0-5][0-9]$'
const hhmm = (description: string) => t.String({ pattern: HHMM, description, errorMessage: { pattern: 'Use a time of day as HH:MM (00:00 to 23:59)', type: 'Use a time of day as HH:MM (00:00 to 23:59)' } })

const Kinds = t.Object(
  {
    match: t.Boolean({ description: 'A new match on one of your listings' }),
    saved_search: t.Boolean({ description: 'A listing one of your INSTANT saved searches lets through' }),
    expiring: t.Boolean({ description: 'Your listings ending within 3 days' }),
    registration: t.Boolean({ description: 'Admins: a registration pending in your scope' }),
    deal: t.Boolean({ description: 'Co-broking (issue 35): a request for one of your listings, an answer to yours, a step, message or reveal in one of your deals, a site visit today' }),
  },
  { description: 'Which alerts you take (all, unless turned off)' },
)

const QuietHours = t.Union(
  [t.Object({ from: hhmm('Start, in your time zone'), to: hhmm('End: alerts held since the start leave then, summarised in one push') }), t.Null()],
  {
    description: 'Alerts raised inside are held and summarised at the end (null: none). Default 22:00–07:00',
    errorMessage: { type: 'Quiet hours are null (none) or {"from", "to"}, each a time of day as HH:MM (00:00 to 23:59)' },
  },
)

export const Settings = t.Object({
  kinds: Kinds,
  quiet_hours: QuietHours,
  time_zone: t.String({ description: 'IANA name; the installation\'s TZ until you choose one' }),
  held: t.Integer({ minimum: 0, description: 'Alerts held now, waiting for your quiet hours to end' }),
})
export type Settings = typeof Settings.static

export const UpdateSettingsBody = t.Object({
  kinds: t.Optional(t.Partial(Kinds)),
  quiet_hours: t.Optional(QuietHours),
  time_zone: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'IANA name, e.g. Asia/Kolkata' })),
})
export type UpdateSettingsBody = typeof UpdateSettingsBody.static

export { PUSH_KINDS }
