import { useEffect, useState, type FormEvent } from 'react'
import type { Device, Settings } from '../../src/modules/notifications/model'
import { ApiError } from '../shared/api'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { KIND_LABELS, PUSH_TEXT as T } from './push-text'

type Props = { publicKey: string; devices: Device[]; settings: Settings; approves: boolean; timeZones: string[] }

/** The id the server gave this browser's device, so the list can say which one it is and "off" knows what to remove. */
const DEVICE_KEY = 'brokernet.push-device'

type Here = 'checking' | 'unsupported' | 'denied' | 'on' | 'off'

const keyBytes = (base64url: string) => Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
/** The same text on the server and in the browser (no local zone in it), so the first render hydrates as drawn. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
const message = (err: unknown, fallback: string) => (err instanceof ApiError && err.status ? err.message : fallback)

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !window.isSecureContext) return null
  return (await navigator.serviceWorker.getRegistration('/')) ?? navigator.serviceWorker.register('/sw.js', { scope: '/' })
}

/**
 * Issue 33, the notifications screen: turn alerts on or off for this device (the browser's permission, then
 * PushManager.subscribe with the server's key, then POST /api/notifications/devices), the devices that take them, and
 * which kinds arrive when.
 */
export default function PushSettings({ publicKey, devices: initialDevices, settings: initial, approves, timeZones }: Props) {
  const [devices, setDevices] = useState(initialDevices)
  const [here, setHere] = useState<Here>('checking')
  const [thisId, setThisId] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [kinds, setKinds] = useState(initial.kinds)
  const [quietOn, setQuietOn] = useState(initial.quiet_hours !== null)
  const [from, setFrom] = useState(initial.quiet_hours?.from ?? '22:00')
  const [to, setTo] = useState(initial.quiet_hours?.to ?? '07:00')
  const [zone, setZone] = useState(initial.time_zone)
  const [held, setHeld] = useState(initial.held)
  const [error, setError] = useState<string | null>(null)
  const [deviceZone, setDeviceZone] = useState<string | null>(null)

  useEffect(() => {
    setDeviceZone(Intl.DateTimeFormat().resolvedOptions().timeZone)
    const stored = Number(localStorage.getItem(DEVICE_KEY))
    if (stored) setThisId(stored)
    void (async () => {
      const reg = await registration().catch(() => null)
      if (!reg) return setHere('unsupported')
      if (Notification.permission === 'denied') return setHere('denied')
      const sub = await reg.pushManager.getSubscription()
      setHere(sub && initialDevices.some((d) => d.id === stored) ? 'on' : 'off')
    })()
  }, [initialDevices])

  const reload = async () => setDevices((await fetchJson<{ devices: Device[] }>('/api/notifications/devices')).devices)

  async function turnOn() {
    setBusy(true)
    setError(null)
    try {
      const reg = await registration()
      if (!reg) return setHere('unsupported')
      if ((await Notification.requestPermission()) !== 'granted') return setHere('denied')
      await navigator.serviceWorker.ready
      const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }))
      const device = await sendJson<Device>('/api/notifications/devices', 'POST', sub.toJSON())
      localStorage.setItem(DEVICE_KEY, String(device.id))
      setThisId(device.id)
      setHere('on')
      await reload()
    } catch (err) {
      setError(message(err, 'Alerts could not be turned on here. Try again in a moment.'))
    } finally {
      setBusy(false)
    }
  }

  async function remove(id: number) {
    setBusy(true)
    setError(null)
    try {
      await sendJson('/api/notifications/devices/' + id, 'DELETE')
      if (id === thisId) {
        const sub = await (await registration())?.pushManager.getSubscription()
        await sub?.unsubscribe()
        localStorage.removeItem(DEVICE_KEY)
        setThisId(null)
        setHere('off')
      }
      await reload()
    } catch (err) {
      setError(message(err, 'The device could not be removed. Try again in a moment.'))
    } finally {
      setBusy(false)
    }
  }

  async function save(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const saved = await sendJson<Settings>('/api/notifications/settings', 'PUT', { kinds, quiet_hours: quietOn ? { from, to } : null, time_zone: zone })
      setHeld(saved.held)
      toast.success(T.saved)
    } catch (err) {
      setError(message(err, 'The settings could not be saved. Try again in a moment.'))
    } finally {
      setBusy(false)
    }
  }

  // Registrations are admins' to review; co-broking steps brokers' (admins are party to no deal).
  const shownKinds = (Object.keys(KIND_LABELS) as (keyof typeof KIND_LABELS)[]).filter((k) => (k === 'registration' ? approves : k === 'deal' ? !approves : true))
  const status = here === 'on' ? T.on : here === 'off' ? T.off : here === 'denied' ? T.denied : here === 'unsupported' ? T.unsupported : ''

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4" data-push-settings>
      <header>
        <h1 className="text-2xl font-bold">{T.title}</h1>
        <p className="text-base-content/70">{T.intro}</p>
      </header>
      {error && (
        <p role="alert" className="alert alert-error">
          {error}
        </p>
      )}
      <section className="card bg-base-100 shadow-sm" aria-labelledby="push-here">
        <div className="card-body gap-3 p-4">
          <h2 id="push-here" className="font-semibold">
            {T.thisDevice}
          </h2>
          <p data-push-here={here} aria-live="polite">
            {status}
          </p>
          {(here === 'off' || here === 'on') && (
            <div>
              {here === 'off' ? (
                <button type="button" className="btn btn-primary min-h-11" disabled={busy} onClick={turnOn}>
                  {T.turnOn}
                </button>
              ) : (
                <button type="button" className="btn btn-outline min-h-11" disabled={busy || thisId === null} onClick={() => thisId !== null && remove(thisId)}>
                  {T.turnOff}
                </button>
              )}
            </div>
          )}
        </div>
      </section>
      <section className="card bg-base-100 shadow-sm" aria-labelledby="push-devices">
        <div className="card-body gap-3 p-4">
          <h2 id="push-devices" className="font-semibold">
            {T.devices}
          </h2>
          {devices.length === 0 ? (
            <p className="text-base-content/70">{T.noDevices}</p>
          ) : (
            <ul className="divide-y divide-base-200" data-push-devices>
              {devices.map((d) => (
                <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <div>
                    <p className="font-medium">
                      {d.device}
                      {d.id === thisId && <span className="badge badge-ghost ml-2">{T.thisDevice}</span>}
                    </p>
                    <p className="text-sm text-base-content/70">
                      Added {when(d.created_at)} · last used {when(d.last_used_at)}
                    </p>
                  </div>
                  <button type="button" className="btn btn-outline btn-sm min-h-11 min-w-11" disabled={busy} onClick={() => remove(d.id)} aria-label={`${T.remove} ${d.device}, added ${when(d.created_at)}`}>
                    {T.remove}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      <form noValidate onSubmit={save} className="card bg-base-100 shadow-sm" aria-labelledby="push-kinds">
        <div className="card-body gap-3 p-4">
          <h2 id="push-kinds" className="font-semibold">
            {T.kinds}
          </h2>
          {shownKinds.map((k) => (
            <label key={k} className="flex min-h-11 cursor-pointer items-start gap-3">
              <input type="checkbox" className="checkbox mt-1" name={`kind-${k}`} checked={kinds[k]} onChange={(e) => setKinds({ ...kinds, [k]: e.target.checked })} />
              <span>
                <span className="block font-medium">{KIND_LABELS[k][0]}</span>
                <span className="block text-sm text-base-content/70">{KIND_LABELS[k][1]}</span>
              </span>
            </label>
          ))}
          <h2 className="mt-2 font-semibold">{T.quiet}</h2>
          <p className="text-sm text-base-content/70">{T.quietHint}</p>
          <label className="flex min-h-11 cursor-pointer items-center gap-3">
            <input type="checkbox" className="checkbox" name="quiet" checked={quietOn} onChange={(e) => setQuietOn(e.target.checked)} />
            <span className="font-medium">{T.quietOn}</span>
          </label>
          <div className="flex flex-wrap items-end gap-3">
            <label className="form-control">
              <span className="label-text mb-1">{T.from}</span>
              <input type="time" name="quiet-from" className="input input-bordered min-h-11" value={from} disabled={!quietOn} onChange={(e) => setFrom(e.target.value)} />
            </label>
            <label className="form-control">
              <span className="label-text mb-1">{T.to}</span>
              <input type="time" name="quiet-to" className="input input-bordered min-h-11" value={to} disabled={!quietOn} onChange={(e) => setTo(e.target.value)} />
            </label>
            <label className="form-control min-w-0 max-w-full">
              <span className="label-text mb-1">{T.zone}</span>
              <select name="time-zone" className="select select-bordered min-h-11 max-w-full" value={zone} onChange={(e) => setZone(e.target.value)}>
                {(timeZones.includes(zone) ? timeZones : [zone, ...timeZones]).map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {deviceZone && deviceZone !== zone && timeZones.includes(deviceZone) && (
            <div>
              <button type="button" className="btn btn-ghost btn-sm min-h-11" onClick={() => setZone(deviceZone)}>
                {T.useDeviceZone(deviceZone)}
              </button>
            </div>
          )}
          {held > 0 && <p className="text-sm">{T.held(held)}</p>}
          <div>
            <button type="submit" className="btn btn-primary min-h-11" disabled={busy}>
              {T.save}
            </button>
          </div>
        </div>
      </form>
    </div>
  )
}
