import { useState, type FormEvent } from 'react'
import { ApiError } from '../shared/api'
import { SettingForm } from '../shared/form-parts'
import { sendJson } from '../shared/query'
import { toast } from '../shared/toast'

type Policy = { required_for_module_admins: boolean; updated_at: string | null }

const nowText = (required: boolean) =>
  required
    ? 'Required: every module admin proves a code from an authenticator app at sign-in; one without it sets it up first.'
    : 'Not required: module admins may turn it on for themselves on their Security page. Master admins always use it.'

/**
 * Issue 29, on the Module Admins screen: the master admin requires two-factor sign-in for module admins, or stops
 * requiring it. Turning it on signs out the module admins who have none (the server does; the box says so).
 */
export default function SecondFactorPolicy({ initial }: { initial: Policy }) {
  const [saved, setSaved] = useState(initial.required_for_module_admins)
  const [required, setRequired] = useState(initial.required_for_module_admins)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const next = await sendJson<Policy>('/api/settings/second-factor', 'PUT', { required_for_module_admins: required })
      setSaved(next.required_for_module_admins)
      toast.success(next.required_for_module_admins ? 'Module admins now need two-factor sign-in' : 'Module admins no longer need two-factor sign-in')
    } catch (err) {
      setError(err instanceof ApiError && err.status ? err.message : 'Failed to save the setting')
    } finally {
      setBusy(false)
    }
  }

  return (
    <SettingForm name="second-factor-policy" title="Two-factor sign-in for module admins" now={nowText(saved)} busy={busy} alert={error} onSubmit={submit}>
      <label className="flex min-h-11 max-w-xl cursor-pointer items-start gap-3 pt-1">
        <input type="checkbox" className="checkbox mt-1" checked={required} onChange={(e) => setRequired(e.target.checked)} />
        <span>
          <span className="block font-medium">Require two-factor sign-in for module admins</span>
          <span className="block text-sm text-base-content/70">Module admins without it are signed out and set it up at their next sign-in.</span>
        </span>
      </label>
    </SettingForm>
  )
}
