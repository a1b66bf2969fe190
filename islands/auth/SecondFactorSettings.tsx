import { useState, type FormEvent, type ReactNode } from 'react'
import { api, ApiError } from '../shared/api'
import { CodeField } from './CodeField'

type Status = { enabled: boolean; required: boolean; enabled_at: string | null; recovery_codes_left: number }
type Enrolment = { secret: string; uri: string; qr_svg: string }

type Props = {
  initial: Status
  /** 'enrol': the setup a session opened for enrolment only must finish (then on to the dashboard); 'settings': the Security page. */
  mode: 'enrol' | 'settings'
}

type View = { name: 'status' } | { name: 'setup'; enrolment: Enrolment } | { name: 'codes'; codes: string[] } | { name: 'regenerate' } | { name: 'disable' }

const FAILED = 'An unexpected error occurred. Please try again.'
const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : FAILED)
/** The key in groups of four, as apps show it and people type it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)!.join(' ')

/**
 * An admin's two-factor sign-in (issue 29): set it up (QR code, the key as text, a first code), save the ten recovery
 * codes (shown once), make new ones, or turn it off where the role allows.
 */
export default function SecondFactorSettings({ initial, mode }: Props) {
  const [status] = useState(initial)
  const [view, setView] = useState<View>({ name: 'status' })
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function run<T>(work: () => Promise<T>): Promise<T | undefined> {
    setBusy(true)
    setError(null)
    try {
      return await work()
    } catch (err) {
      setError(messageOf(err))
      return undefined
    } finally {
      setBusy(false)
    }
  }

  const startSetup = () =>
    run(async () => setView({ name: 'setup', enrolment: await api<Enrolment>('/api/auth/second-factor/setup', { method: 'POST', json: {}, retries: 0 }) }))

  const alert = error && (
    <div role="alert" className="alert alert-error text-sm">
      {error}
    </div>
  )

  if (view.name === 'setup')
    return (
      <CodeForm
        key="setup"
        action="Turn on"
        busy={busy}
        alert={alert}
        onCancel={mode === 'settings' ? () => setView({ name: 'status' }) : undefined}
        onSubmit={(code) =>
          run(async () => {
            const done = await api<{ recovery_codes: string[] }>('/api/auth/second-factor/confirm', { method: 'POST', json: { code }, retries: 0 })
            setView({ name: 'codes', codes: done.recovery_codes })
          })
        }
      >
        <p className="text-sm">Scan this QR code with an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Aegis and others).</p>
        <div
          className="mx-auto w-48 max-w-full [&>svg]:h-auto [&>svg]:w-full"
          role="img"
          aria-label="QR code of your authenticator key"
          data-qr-code
          dangerouslySetInnerHTML={{ __html: view.enrolment.qr_svg }}
        />
        <div className="text-sm">
          <p>Can't scan it? Enter this key in the app instead (time-based, 6 digits):</p>
          <p className="mt-1 rounded bg-base-200 p-2 text-center font-mono text-base break-all" data-manual-key>
            {grouped(view.enrolment.secret)}
          </p>
        </div>
        <p className="text-sm">Then enter the code the app shows, to check that it works.</p>
      </CodeForm>
    )

  if (view.name === 'codes') return <RecoveryCodes codes={view.codes} next={mode === 'enrol' ? '/dashboard' : '/dashboard/security'} />

  if (view.name === 'regenerate' || view.name === 'disable') {
    const regenerate = view.name === 'regenerate'
    return (
      <CodeForm
        key={view.name}
        action={regenerate ? 'Make new codes' : 'Turn off'}
        danger={!regenerate}
        busy={busy}
        alert={alert}
        onCancel={() => setView({ name: 'status' })}
        onSubmit={(code) =>
          run(async () => {
            if (regenerate) {
              const made = await api<{ recovery_codes: string[] }>('/api/auth/second-factor/recovery-codes', { method: 'POST', json: { code }, retries: 0 })
              setView({ name: 'codes', codes: made.recovery_codes })
            } else {
              await api('/api/auth/second-factor/disable', { method: 'POST', json: { code }, retries: 0 })
              window.location.assign('/dashboard/security')
            }
          })
        }
      >
        <p className="text-sm">
          {regenerate
            ? 'Enter a code from your authenticator app. Your current recovery codes stop working and ten new ones are shown.'
            : 'Enter a code from your authenticator app to turn two-factor sign-in off. Your recovery codes stop working.'}
        </p>
      </CodeForm>
    )
  }

  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="second-factor-title" data-second-factor-status={status.enabled ? 'on' : 'off'}>
      <div className="card-body gap-3 p-4 sm:p-6">
        <h2 id="second-factor-title" className="text-lg font-semibold">
          Two-factor sign-in is {status.enabled ? 'on' : 'off'}
        </h2>
        {alert}
        {status.enabled ? (
          <>
            <p className="text-sm">
              On since {status.enabled_at?.slice(0, 10)}. Every sign-in asks for a code from your authenticator app. Recovery codes left:{' '}
              <strong data-recovery-codes-left>{status.recovery_codes_left}</strong> of 10.
            </p>
            {status.required && (
              <p className="text-sm text-base-content/70">Your role must use two-factor sign-in. If you lose your phone, sign in with a recovery code, or ask a master admin to reset it.</p>
            )}
            <div className="flex flex-wrap gap-2">
              <button type="button" className="btn btn-outline min-h-11" onClick={() => setView({ name: 'regenerate' })}>
                New recovery codes
              </button>
              {!status.required && (
                <button type="button" className="btn btn-outline btn-error min-h-11" onClick={() => setView({ name: 'disable' })}>
                  Turn off
                </button>
              )}
            </div>
          </>
        ) : (
          <>
            <p className="text-sm">
              {status.required
                ? 'Your role must use two-factor sign-in: set it up now. You need an authenticator app on your phone.'
                : 'Protect your account with a code from an authenticator app on your phone at every sign-in.'}
            </p>
            <div>
              <button type="button" className="btn btn-primary min-h-11" onClick={startSetup} disabled={busy}>
                {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                Set up two-factor sign-in
              </button>
            </div>
          </>
        )}
      </div>
    </section>
  )
}

type CodeFormProps = {
  action: string
  danger?: boolean
  busy: boolean
  alert: ReactNode
  onSubmit: (code: string) => void
  onCancel?: () => void
  children: ReactNode
}

/** What comes before a code, the code of the app, and the button that sends it. */
function CodeForm({ action, danger = false, busy, alert, onSubmit, onCancel, children }: CodeFormProps) {
  const [code, setCode] = useState('')
  const [missing, setMissing] = useState<string | undefined>()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!code.trim()) return setMissing('Please enter the 6-digit code')
    onSubmit(code.trim())
  }
  return (
    <form noValidate onSubmit={submit} className="card bg-base-100 shadow-sm" data-second-factor-form>
      <div className="card-body gap-4 p-4 sm:p-6">
        {children}
        {alert}
        <CodeField
          id="second-factor-code"
          kind="app"
          value={code}
          onChange={(v) => {
            setCode(v)
            setMissing(undefined)
          }}
          error={missing}
        />
        <div className="flex flex-wrap justify-end gap-2">
          {onCancel && (
            <button type="button" className="btn btn-ghost min-h-11" onClick={onCancel} disabled={busy}>
              Cancel
            </button>
          )}
          <button type="submit" className={`btn min-h-11 ${danger ? 'btn-error' : 'btn-primary'}`} disabled={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {action}
          </button>
        </div>
      </div>
    </form>
  )
}

/** The ten recovery codes, shown this once: copy, download, and "I have saved them" before going on. */
function RecoveryCodes({ codes, next }: { codes: string[]; next: string }) {
  const [saved, setSaved] = useState(false)
  const [copied, setCopied] = useState(false)
  const text = `Brokernet recovery codes (each works once)\n\n${codes.join('\n')}\n`
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined)
    setCopied(true)
  }
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="recovery-codes-title" data-recovery-codes-card>
      <div className="card-body gap-4 p-4 sm:p-6">
        <h2 id="recovery-codes-title" className="text-lg font-semibold">
          Save your recovery codes
        </h2>
        <p className="text-sm">
          Two-factor sign-in is on. If you lose your phone, each of these codes signs you in once. They are shown only now: keep them somewhere safe, away
          from your phone.
        </p>
        <ol className="grid grid-cols-1 gap-2 rounded bg-base-200 p-3 font-mono text-base sm:grid-cols-2" data-recovery-codes>
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ol>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-outline min-h-11" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </button>
          <a className="btn btn-outline min-h-11" download="brokernet-recovery-codes.txt" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}>
            Download
          </a>
        </div>
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input type="checkbox" className="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
          <span>I have saved them</span>
        </label>
        <div>
          <button type="button" className="btn btn-primary min-h-11" disabled={!saved} onClick={() => window.location.assign(next)}>
            Done
          </button>
        </div>
      </div>
    </section>
  )
}
