import { Elysia, t } from 'elysia'
import type { AppContext } from '../../platform/context'
import { authGuard } from '../../platform/http/auth'
import { vapidPublicKey } from '../../platform/push'
import { ErrorDetail as Detail, NoContent } from '../../shared/schema'
import { Device, DEVICE_LIMIT, DeviceIdParams, DeviceList, PublicKey, Settings, SubscribeBody, UpdateSettingsBody } from './model'
import { addDevice, dropDevice, myDevices, mySettings, updateSettings } from './service'

const tags = ['Notifications']
const errors = { 401: Detail, 403: Detail }
const own = 'Only your own: anyone else’s is a 404.'

/**
 * Push alerts (issue 33): the key a browser subscribes with, the caller's devices, and which alerts they take when.
 * The alerts themselves leave through the push outbox (src/platform/push/), never on a request's path.
 */
export const notificationsApi = (ctx: AppContext) =>
  new Elysia({ name: 'notifications-api' }).use(authGuard(ctx)).group('/api/notifications', (app) =>
    app
      .get('/key', async () => ({ public_key: await vapidPublicKey(ctx.db) }), {
        permission: 'read:push:own',
        response: { 200: PublicKey, ...errors },
        detail: { tags, summary: 'The server\'s VAPID public key', description: 'Made at first start and kept in the database: every instance serves the same.' },
      })
      .get('/devices', async ({ user }) => ({ devices: await myDevices(ctx, user), limit: DEVICE_LIMIT }), {
        permission: 'read:push:own',
        response: { 200: DeviceList, ...errors },
        detail: { tags, summary: 'Your devices that take push alerts', description: 'Labelled by browser and system, with when each was last used.' },
      })
      .post('/devices', async ({ body, user, set, request }) => ((set.status = 201), addDevice(ctx, user, body, request.headers.get('user-agent'))), {
        permission: 'manage:push:own',
        body: SubscribeBody,
        response: { 201: Device, 409: Detail, 422: t.Any(), 503: Detail, ...errors },
        detail: {
          tags,
          summary: 'Take push alerts on this device',
          description: `The body is PushSubscription.toJSON(). The endpoint must be https on a public host name (no IP address, nothing that resolves to a loopback, private, link-local or metadata address; PUSH_ALLOW_HOSTS allows more): otherwise 422 naming \`endpoint\`; keys that are not a P-256 point and a 16-byte secret, 422 naming \`keys.p256dh\` or \`keys.auth\`. At most ${DEVICE_LIMIT} devices (409). An endpoint already known is refreshed (and moves to you if another user had it). 503 with Retry-After when its host name cannot be resolved just now.`,
        },
      })
      .delete('/devices/:id', async ({ params, user, set }) => (await dropDevice(ctx, user, params.id), (set.status = 204), undefined), {
        permission: 'manage:push:own',
        params: DeviceIdParams,
        response: { 204: NoContent('Removed: it takes no more alerts, and what was waiting for it is dropped'), 404: Detail, ...errors },
        detail: { tags, summary: 'Stop push alerts on one of your devices', description: own },
      })
      .get('/settings', ({ user }) => mySettings(ctx, user), {
        permission: 'read:push:own',
        response: { 200: Settings, ...errors },
        detail: { tags, summary: 'Which push alerts you take, and your quiet hours' },
      })
      .put('/settings', ({ body, user }) => updateSettings(ctx, user, body), {
        permission: 'manage:push:own',
        body: UpdateSettingsBody,
        response: { 200: Settings, 422: t.Any(), ...errors },
        detail: {
          tags,
          summary: 'Change which push alerts you take, or your quiet hours (partial)',
          description: 'Quiet hours are a window of the day in `time_zone`: alerts raised inside it are held and summarised in one push at its end, never dropped. `quiet_hours: null` turns them off; start and end must differ. An unknown time zone is a 422 naming `time_zone`.',
        },
      }),
  )
