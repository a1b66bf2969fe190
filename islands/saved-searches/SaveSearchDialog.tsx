import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { Alert, CreateSavedSearchBody, SavedSearch } from '../../src/modules/saved-searches/model'
import { SAVED_SEARCHES } from '../../src/shared/constants'
import { ApiError } from '../shared/api'
import { Field, FormActions } from '../shared/form-parts'
import { Modal } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import type { ListingFilters } from '../listings/useListingFilters'
import { ALERT_LABELS, SAVED_SEARCHES_KEY, SAVED_SEARCHES_URL, SAVED_TEXT } from './saved-search-format'

type Props = { open: boolean; filters: ListingFilters; idPrefix: string; onClose: () => void }

/** Saves the filters in view under a name, with an alert: the app's dialog and form parts. A refusal stays in the dialog. */
export function SaveSearchDialog({ open, filters, idPrefix, onClose }: Props) {
  return (
    <Modal open={open} title={SAVED_TEXT.save} size="sm" onClose={onClose}>
      <SaveSearchForm filters={filters} idPrefix={idPrefix} onClose={onClose} />
    </Modal>
  )
}

function SaveSearchForm({ filters, idPrefix, onClose }: Omit<Props, 'open'>) {
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [alert, setAlert] = useState<Alert>('OFF')
  const [error, setError] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (body: CreateSavedSearchBody) => sendJson<SavedSearch>(SAVED_SEARCHES_URL, 'POST', body),
    meta: { handled: true },
    onError: (err) => setError(err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : 'Could not save the search. Please try again.'),
    onSuccess: (saved) => {
      toast.success(SAVED_TEXT.saved(saved.name))
      void queryClient.invalidateQueries({ queryKey: SAVED_SEARCHES_KEY })
      onClose()
    },
  })
  const id = (field: string) => `${idPrefix}-save-${field}`
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault()
        if (!name.trim()) return setError(SAVED_TEXT.nameRequired)
        setError(null)
        save.mutate({ name: name.trim(), filters: filters as CreateSavedSearchBody['filters'], alert })
      }}
    >
      <Field id={id('name')} label="Name" error={error ?? undefined}>
        <input
          id={id('name')}
          name="name"
          className={`input input-bordered w-full ${error ? 'input-error' : ''}`}
          maxLength={SAVED_SEARCHES.nameMax}
          value={name}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id('name')}-error` : undefined}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field id={id('alert')} label="Alert me">
        <select id={id('alert')} name="alert" className="select select-bordered w-full" value={alert} onChange={(e) => setAlert(e.target.value as Alert)}>
          {(Object.keys(ALERT_LABELS) as Alert[]).map((a) => (
            <option key={a} value={a}>
              {ALERT_LABELS[a]}
            </option>
          ))}
        </select>
      </Field>
      <FormActions busy={save.isPending} onCancel={onClose}>
        Save
      </FormActions>
    </form>
  )
}
