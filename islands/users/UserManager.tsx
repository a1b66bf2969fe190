import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { User, UserList } from '../../src/modules/users/model'
import { REFRESH_MS, SEARCH_DEBOUNCE_MS } from '../../src/shared/constants'
import { GeoSelect, type GeoOption, type GeoValue } from '../geo/GeoSelect'
import { ApiError } from '../shared/api'
import type { ObjectSchema } from '../shared/form-rules'
import { ConfirmDialog } from '../shared/Modal'
import { PageSizeSelect, Pagination } from '../shared/Pagination'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { useDebounce } from '../shared/useDebounce'
import IdCardDialog from './IdCardDialog'
import { UserDialog, type UserDialogMode } from './UserDialog'
import { UserTable, type RowActions } from './UserTable'
import { ACTIVATION_FAILED, activationText, FILTERED_EMPTY, KIND_TEXT, managesEveryCity, SEARCH_PLACEHOLDER, showingText, type Actor, type ManagedRole } from './user-format'
import { LoadError } from '../shared/LoadError'
import { TableEmpty } from '../shared/table/DataTable'
import { holds } from '../../src/shared/permissions'

type Props = {
  kind: ManagedRole
  actor: Actor
  /** Page 1 of the unfiltered list, as the server rendered it. */
  initial: UserList
  countries: GeoOption[]
  rules: { create: ObjectSchema; update: ObjectSchema }
}

type Status = '' | 'active' | 'inactive'
type Filters = { search: string; country_id: number | null; state_id: number | null; city_id: number | null; status: Status }

const NO_GEO: GeoValue = { country_id: null, state_id: null, city_id: null }

function listUrl(kind: ManagedRole, f: Filters, page: number, perPage: number) {
  const q = new URLSearchParams({ role: kind })
  if (f.search) q.set('search', f.search)
  for (const key of ['country_id', 'state_id', 'city_id'] as const) if (f[key]) q.set(key, String(f[key]))
  if (f.status) q.set('is_active', String(f.status === 'active'))
  q.set('page', String(page))
  q.set('per_page', String(perPage))
  return `/api/users?${q}`
}

/**
 * SPEC "Broker Management" / "Module Admin Management": search, filters, the table, paging, and the add, edit,
 * ID card and activation dialogs. The server scopes the list (a module admin only ever gets their own city's brokers).
 */
export default function UserManager({ kind, actor, initial, countries, rules }: Props) {
  const text = KIND_TEXT[kind]
  const master = managesEveryCity(actor)
  const queryClient = useQueryClient()

  const [searchInput, setSearchInput] = useState('')
  const search = useDebounce(searchInput.trim(), SEARCH_DEBOUNCE_MS)
  const [geo, setGeo] = useState<GeoValue>(NO_GEO)
  const [status, setStatus] = useState<Status>('')
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(initial.per_page)

  // Every filter change starts again at page 1; a settled search counts, a keystroke does not.
  useEffect(() => setPage(1), [search])
  const filters: Filters = useMemo(() => ({ search, ...geo, status }), [search, geo, status])
  const filtered = !!(searchInput.trim() || geo.country_id || status)
  const isInitialView = !filtered && page === initial.page && perPage === initial.per_page
  // When the page was rendered: if the first view's cache entry is ever dropped and rebuilt, it is known to be old.
  const [renderedAt] = useState(() => Date.now())

  const query = useQuery({
    queryKey: ['users', kind, filters, page, perPage],
    queryFn: () => fetchJson<UserList>(listUrl(kind, filters, page, perPage)),
    // The server's render is the first view of the unfiltered first page only; any other view is fetched.
    initialData: isInitialView ? initial : undefined,
    initialDataUpdatedAt: renderedAt,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS.userLists,
  })
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['users', kind] })

  const [dialog, setDialog] = useState<UserDialogMode | null>(null)
  const [viewing, setViewing] = useState<User | null>(null)
  const [toggling, setToggling] = useState<User | null>(null)
  const [resetting, setResetting] = useState<User | null>(null)
  const mayReset = holds(actor.permissions, 'manage:second-factor:any')
  const actions: RowActions = useMemo(
    () => ({ viewIdCard: setViewing, edit: (user: User) => setDialog({ mode: 'edit', user }), toggleActive: setToggling, ...(mayReset ? { resetSecondFactor: setResetting } : {}) }),
    [mayReset],
  )

  const list = query.data
  // Fewer pages than before (e.g. the last row of the last page was filtered away): go to the new last page.
  useEffect(() => {
    if (list && list.total_pages > 0 && page > list.total_pages) setPage(list.total_pages)
  }, [list, page])
  // A failed view with a different filter would otherwise show the previous filter's rows as if they matched.
  const rows = query.isError && query.isPlaceholderData ? undefined : list
  const loadError = query.isError ? (query.error instanceof ApiError && query.error.message ? query.error.message : text.loadFailed) : null

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <label className="input input-bordered flex min-w-64 flex-1 items-center gap-2">
          <span className="sr-only">Search</span>
          <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} className="h-4 w-4 opacity-60" aria-hidden="true">
            <path d="M11 4a7 7 0 100 14 7 7 0 000-14zm10 17l-5-5" />
          </svg>
          <input type="search" className="grow" placeholder={SEARCH_PLACEHOLDER} value={searchInput} onChange={(e) => setSearchInput(e.target.value)} />
        </label>
        <select
          id="user-filter-status"
          aria-label="Status"
          className="select select-bordered w-40"
          value={status}
          onChange={(e) => (setStatus(e.target.value as Status), setPage(1))}
        >
          <option value="">All Status</option>
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
        </select>
        <button type="button" className="btn btn-primary" onClick={() => setDialog({ mode: 'add' })}>
          Add {text.title}
        </button>
      </div>
      {master && (
        <GeoSelect
          idPrefix="user-filter"
          value={geo}
          onChange={(next) => (setGeo(next), setPage(1))}
          initial={{ countries }}
          placeholders={{ country_id: 'All countries', state_id: 'All states', city_id: 'All cities' }}
        />
      )}

      {loadError && (
        <LoadError title={text.errorTitle} message={loadError} onRetry={() => void query.refetch()} />
      )}

      {rows && (
        <div className="card bg-base-100 shadow-sm">
          <UserTable
            kind={kind}
            users={rows.users}
            empty={<TableEmpty title={text.empty} text={filtered ? FILTERED_EMPTY : text.start} />}
            actions={actions}
            busy={query.isPlaceholderData && query.isFetching}
          />
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-base-300 px-4 py-3">
            <p className="text-sm text-base-content/70">{rows.total_pages > 1 ? showingText(rows.page, rows.per_page, rows.total, text.many) : ''}</p>
            <div className="flex flex-wrap items-center gap-3">
              <Pagination page={rows.page} totalPages={rows.total_pages} onPage={setPage} label={`${text.title} pages`} />
              <PageSizeSelect id="user-per-page" value={perPage} onChange={(size) => (setPerPage(size), setPage(1))} />
            </div>
          </div>
        </div>
      )}

      <UserDialog
        open={dialog}
        kind={kind}
        actor={actor}
        countries={countries}
        rules={rules}
        onClose={() => setDialog(null)}
        onDone={(_user, mode) => (setDialog(null), toast.success(`${text.title} ${mode === 'add' ? 'created' : 'updated'} successfully`), refresh())}
      />
      {viewing && (
        <IdCardDialog
          open
          onClose={() => setViewing(null)}
          userId={viewing.id}
          fullName={viewing.full_name}
          idCardNumber={viewing.id_card_number}
          hasDocument={!!viewing.id_card_document_url}
        />
      )}
      <ActivationDialog kind={kind} user={toggling} onClose={() => setToggling(null)} onDone={refresh} />
      <ResetSecondFactorDialog user={resetting} onClose={() => setResetting(null)} onDone={refresh} />
    </div>
  )
}

/** Deactivate (danger) or activate (info) after the confirmation of SPEC sections 4 and 8; a refusal stays in the dialog. */
function ActivationDialog({ kind, user, onClose, onDone }: { kind: ManagedRole; user: User | null; onClose: () => void; onDone: () => void }) {
  const [error, setError] = useState<string | null>(null)
  const change = useMutation({
    mutationFn: ({ id, is_active, reason }: { id: number; is_active: boolean; reason: string }) =>
      sendJson<User>(`/api/users/${id}/activation`, 'PATCH', { is_active, reason }),
    onError: (err) => setError(err instanceof ApiError && err.status ? err.message : ACTIVATION_FAILED),
  })
  const close = () => (setError(null), change.reset(), onClose())
  const t = user ? activationText(kind, user) : null
  return (
    <ConfirmDialog
      open={user !== null}
      title={t?.title ?? ''}
      message={t?.message ?? ''}
      confirmLabel={t?.confirm ?? ''}
      tone={t?.tone}
      busy={change.isPending}
      error={error}
      onClose={close}
      onConfirm={() => {
        if (!user || !t) return
        setError(null)
        change.mutate(
          { id: user.id, is_active: !user.is_active, reason: t.reason },
          { onSuccess: () => (toast.success(t.done), close(), onDone()) },
        )
      }}
    />
  )
}

/** Issue 29: a master admin resets the second factor of someone who lost their phone; a refusal stays in the dialog. */
function ResetSecondFactorDialog({ user, onClose, onDone }: { user: User | null; onClose: () => void; onDone: () => void }) {
  const [error, setError] = useState<string | null>(null)
  const reset = useMutation({
    mutationFn: (id: number) => sendJson<void>(`/api/users/${id}/second-factor/reset`, 'POST', {}),
    onError: (err) => setError(err instanceof ApiError && err.status ? err.message : 'Failed to reset two-factor sign-in'),
  })
  const close = () => (setError(null), reset.reset(), onClose())
  return (
    <ConfirmDialog
      open={user !== null}
      title="Reset two-factor sign-in"
      message={
        user
          ? `${user.full_name} will be signed out everywhere, and their authenticator app and recovery codes will stop working. Their next sign-in sets up two-factor sign-in again where their role requires it. They are told by mail. Do this only when you are sure it is them who lost their phone.`
          : ''
      }
      confirmLabel="Reset"
      tone="error"
      busy={reset.isPending}
      error={error}
      onClose={close}
      onConfirm={() => {
        if (!user) return
        setError(null)
        reset.mutate(user.id, { onSuccess: () => (toast.success(`Two-factor sign-in of ${user.full_name} was reset`), close(), onDone()) })
      }}
    />
  )
}
