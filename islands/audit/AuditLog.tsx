import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { AuditEvent, AuditPage } from '../../src/modules/audit/model'
import { SEARCH_DEBOUNCE_MS } from '../../src/shared/constants'
import { ApiError } from '../shared/api'
import { Icon } from '../shared/icons'
import { PageSizeSelect, Pagination, showingText } from '../shared/Pagination'
import { fetchJson } from '../shared/query'
import { useDebounce } from '../shared/useDebounce'
import {
  actionLabel,
  AUDIT_REFRESH_MS,
  AUDIT_TEXT,
  entityTypeLabel,
  exportUrl,
  isFiltered,
  listUrl,
  NO_FILTERS,
  type AuditFilters,
} from './audit-format'
import { AuditDetailsDialog } from './AuditDetailsDialog'
import { AuditTable } from './AuditTable'
import { LoadError } from '../shared/LoadError'
import { TableEmpty, TableLoading } from '../shared/table/DataTable'

type Props = {
  /** Page 1 of the unfiltered trail, as the server rendered it (25 a page, SPEC section 9's dashboard default). */
  initial: AuditPage
}

/** The options of a filter select: what the server offers, plus the current choice should it have dropped out. */
const optionsOf = (offered: string[], chosen: string) => (chosen && !offered.includes(chosen) ? [...offered, chosen] : offered)

/**
 * The audit log (issue "a real audit log"): filters, the events newest first, paging, a details dialog and a CSV
 * export of the filtered trail. The server scopes it (a module admin only ever gets their city's events) and
 * offers no way to change an event, so neither does this screen.
 */
export default function AuditLog({ initial }: Props) {
  const [actorInput, setActorInput] = useState('')
  const actor = useDebounce(actorInput.trim(), SEARCH_DEBOUNCE_MS)
  const [rest, setRest] = useState<Omit<AuditFilters, 'actor'>>(NO_FILTERS)
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(initial.per_page)
  const [viewing, setViewing] = useState<AuditEvent | null>(null)

  // Every filter change starts again at page 1; a settled actor name counts, a keystroke does not.
  useEffect(() => setPage(1), [actor])
  const filters: AuditFilters = useMemo(() => ({ ...rest, actor }), [rest, actor])
  const filtered = isFiltered({ ...rest, actor: actorInput })
  const setFilter = (key: keyof typeof rest, value: string) => (setRest((f) => ({ ...f, [key]: value })), setPage(1))
  const clearFilters = () => (setActorInput(''), setRest(NO_FILTERS), setPage(1))

  const isInitialView = !isFiltered(filters) && page === 1 && perPage === initial.per_page
  const [renderedAt] = useState(() => Date.now())
  const query = useQuery({
    queryKey: ['audit', filters, page, perPage],
    queryFn: () => fetchJson<AuditPage>(listUrl(filters, page, perPage)),
    // The server's render is the unfiltered first page only; any other view is fetched.
    initialData: isInitialView ? initial : undefined,
    initialDataUpdatedAt: renderedAt,
    placeholderData: keepPreviousData,
    refetchInterval: AUDIT_REFRESH_MS,
  })

  const list = query.data
  // Fewer pages than before (the trail was filtered down): go to the new last page.
  useEffect(() => {
    if (list && list.total_pages > 0 && page > list.total_pages) setPage(list.total_pages)
  }, [list, page])
  // A failed view with other filters would otherwise show the previous filters' events as if they matched.
  const rows = query.isError && query.isPlaceholderData ? undefined : list
  const loadError = query.isError ? (query.error instanceof ApiError && query.error.message ? query.error.message : AUDIT_TEXT.loadFailed) : null
  const actions = optionsOf(list?.actions ?? initial.actions, rest.action)
  const entityTypes = optionsOf(list?.entity_types ?? initial.entity_types, rest.entity_type)

  return (
    <div className="space-y-4" data-audit-log data-fetching={query.isFetching || undefined}>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body gap-3 p-4">
          <div className="flex flex-wrap items-end gap-3">
            <div className="flex min-w-56 flex-1 flex-col gap-1">
              <label htmlFor="audit-filter-actor" className="text-sm font-medium">
                Actor
              </label>
              <input
                id="audit-filter-actor"
                type="search"
                className="input input-bordered w-full"
                placeholder={AUDIT_TEXT.actorPlaceholder}
                value={actorInput}
                onChange={(e) => setActorInput(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-1 w-52">
              <label htmlFor="audit-filter-action" className="text-sm font-medium">
                Action
              </label>
              <select id="audit-filter-action" className="select select-bordered w-full" value={rest.action} onChange={(e) => setFilter('action', e.target.value)}>
                <option value="">All actions</option>
                {actions.map((a) => (
                  <option key={a} value={a}>
                    {actionLabel(a)}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-1 w-44">
              <label htmlFor="audit-filter-entity-type" className="text-sm font-medium">
                Entity type
              </label>
              <select
                id="audit-filter-entity-type"
                className="select select-bordered w-full"
                value={rest.entity_type}
                onChange={(e) => setFilter('entity_type', e.target.value)}
              >
                <option value="">All entities</option>
                {entityTypes.map((t) => (
                  <option key={t} value={t}>
                    {entityTypeLabel(t)}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-1 w-40">
              <label htmlFor="audit-filter-date-from" className="text-sm font-medium">
                From date
              </label>
              <input
                id="audit-filter-date-from"
                type="date"
                className="input input-bordered w-full"
                value={rest.date_from}
                max={rest.date_to || undefined}
                onChange={(e) => setFilter('date_from', e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-1 w-40">
              <label htmlFor="audit-filter-date-to" className="text-sm font-medium">
                To date
              </label>
              <input
                id="audit-filter-date-to"
                type="date"
                className="input input-bordered w-full"
                value={rest.date_to}
                min={rest.date_from || undefined}
                onChange={(e) => setFilter('date_to', e.target.value)}
              />
            </div>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-xs text-base-content/60">Dates are whole days in UTC. Events are a permanent record: they cannot be edited or deleted.</p>
            <div className="flex flex-wrap gap-2">
              {filtered && (
                <button type="button" className="btn btn-ghost btn-sm" onClick={clearFilters}>
                  Clear filters
                </button>
              )}
              {/* A plain same-origin link: the browser sends the session cookie and saves the attachment itself. */}
              <a className="btn btn-outline btn-sm" href={exportUrl(filters)} download>
                <Icon name="download" className="h-4 w-4" />
                Export CSV
              </a>
            </div>
          </div>
        </div>
      </div>

      {loadError && (
        <LoadError title={AUDIT_TEXT.errorTitle} message={loadError} onRetry={() => void query.refetch()} />
      )}

      {!rows && !loadError && <TableLoading label="Loading audit events" />}

      {rows && (
        <div className="card bg-base-100 shadow-sm">
          <AuditTable
            events={rows.events}
            empty={<TableEmpty title={AUDIT_TEXT.empty} text={filtered ? AUDIT_TEXT.filteredEmpty : AUDIT_TEXT.start} />}
            onView={setViewing}
            busy={query.isPlaceholderData && query.isFetching}
          />
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-base-300 px-4 py-3">
            <p className="text-sm text-base-content/70" data-showing>
              {rows.total > 0 ? showingText(rows.page, rows.per_page, rows.total, AUDIT_TEXT.many) : ''}
            </p>
            <div className="flex flex-wrap items-center gap-3">
              <Pagination page={rows.page} totalPages={rows.total_pages} onPage={setPage} label="Audit log pages" />
              <PageSizeSelect id="audit-per-page" value={perPage} onChange={(size) => (setPerPage(size), setPage(1))} />
            </div>
          </div>
        </div>
      )}

      <AuditDetailsDialog event={viewing} onClose={() => setViewing(null)} />
    </div>
  )
}
