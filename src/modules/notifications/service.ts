import type { AppContext } from '../../platform/context'
import { fieldError, notFound } from '../../platform/errors'
import { allowList, listDevices, removeDevice, subscribe, systemResolver, type EndpointPolicy, type PushDevice } from '../../platform/push'
import { PUSH_KINDS, type PushKind } from './kinds'
import type { Device, Settings, SubscribeBody, UpdateSettingsBody } from './model'
import { DEFAULT_QUIET, hhmmOf, knownTimeZone, minutesOf } from './quiet'
import { heldCount, saveSettings, settingsOfUsers } from './store'

// The user's own devices and settings (issue 33). Everything here is the caller's own: nobody sees another's.

type Me = { id: number }

const iso = (ms: number) => new Date(ms).toISOString()
const deviceOf = (d: PushDevice): Device => ({ id: d.id, device: d.device, created_at: iso(d.createdAt), last_used_at: iso(d.lastUsedAt) })

export const endpointPolicy = (ctx: Pick<AppContext, 'config'>): EndpointPolicy => ({ allow: allowList(ctx.config.pushAllowHosts), resolve: systemResolver })

export async function addDevice(ctx: AppContext, me: Me, body: SubscribeBody, userAgent: string | null): Promise<Device> {
  return deviceOf(await subscribe(ctx.db, me.id, body, userAgent, endpointPolicy(ctx)))
}

export const myDevices = async (ctx: AppContext, me: Me): Promise<Device[]> => (await listDevices(ctx.db, me.id)).map(deviceOf)

export async function dropDevice(ctx: AppContext, me: Me, id: number): Promise<void> {
  if (!(await removeDevice(ctx.db, me.id, id))) throw notFound('Device not found')
}

export async function mySettings(ctx: AppContext, me: Me): Promise<Settings> {
  const s = (await settingsOfUsers(ctx.db, [me.id], DEFAULT_QUIET)).get(me.id)!
  return {
    kinds: Object.fromEntries(PUSH_KINDS.map((k) => [k, !s.kindsOff.includes(k)])) as Settings['kinds'],
    quiet_hours: s.quiet ? { from: hhmmOf(s.quiet.from), to: hhmmOf(s.quiet.to) } : null,
    time_zone: s.timeZone ?? ctx.config.timeZone,
    held: await heldCount(ctx.db, me.id),
  }
}

/** A partial change: what the body leaves out stays as it is. Alerts already held keep the end they were given. */
export async function updateSettings(ctx: AppContext, me: Me, body: UpdateSettingsBody): Promise<Settings> {
  const now = await mySettings(ctx, me)
  const timeZone = body.time_zone?.trim() ?? now.time_zone
  if (!knownTimeZone(timeZone)) throw fieldError('time_zone', 'Not a time zone this server knows: use an IANA name such as Asia/Kolkata or UTC')
  const kinds = { ...now.kinds, ...body.kinds }
  const quiet = body.quiet_hours === undefined ? now.quiet_hours : body.quiet_hours
  if (quiet && quiet.from === quiet.to) throw fieldError('quiet_hours', 'Quiet hours must start and end at different times (or be turned off)')
  await saveSettings(ctx.db, me.id, {
    kindsOff: PUSH_KINDS.filter((k: PushKind) => !kinds[k]),
    quiet: quiet ? { from: minutesOf(quiet.from), to: minutesOf(quiet.to) } : null,
    timeZone,
  })
  return mySettings(ctx, me)
}
