import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { lazyDialog } from '../shared/lazy-dialog'
import { useEffect, useRef, useState } from 'react'
import type { SavedSearch, SavedSearchList } from '../../src/modules/saved-searches/model'
import { REFRESH_MS } from '../../src/shared/constants'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { useLiveEvent, type LiveEventHandler } from '../shared/useLiveEvents'
import type { UseListingFilters } from '../listings/useListingFilters'
import { filterStateOf, newCountLabel, SAVED_SEARCHES_KEY, SAVED_SEARCHES_URL, SAVED_TEXT } from './saved-search-format'

// Closed when the page loads: dialog code comes when first opened, or once the page is idle (shared/lazy-dialog.tsx).
const SaveSearchDialog = lazyDialog(() => import('./SaveSearchDialog').then((m) => m.SaveSearchDialog), (p) => p.open)

export type SavedSearchesProps = {
  /** The caller's searches as the server counted them when it rendered the page. */
  initial: SavedSearchList
  /** The screen's filters (useListingFilters): Save search saves those applied; opening a search replaces them, URL too. */
  filters: Pick<UseListingFilters, 'applied' | 'replace'>
  idPrefix: string
}

/**
 * The filter bar's Save search button and Saved searches menu (issue 17): each search with its new count; opening one
 * shows its filters and marks it seen; each can be deleted from the menu.
 */
/** An INSTANT alert (GET /api/events' `saved_search`): said in a toast, and the counts read again. Once per event. */
const onAlert: LiveEventHandler = (data, queryClient) => {
  const news = data as { name: string; listing: { entry_id: string } }
  toast.info(SAVED_TEXT.alert(news.name, news.listing.entry_id))
  void queryClient.invalidateQueries({ queryKey: SAVED_SEARCHES_KEY })
}

/** The filters of a screen's state, without its paging. */
const shown = ({ page: _p, per_page: _pp, ...f }: UseListingFilters['applied']) => f

export function SavedSearches({ initial, filters, idPrefix }: SavedSearchesProps) {
  const queryClient = useQueryClient()
  const [renderedAt] = useState(() => Date.now())
  const [saving, setSaving] = useState(false)
  const menu = useRef<HTMLDetailsElement>(null)
  // The navigation's 'Saved searches' (issue 32: the phone menu) leads here with #saved-searches: the menu opens.
  useEffect(() => {
    if (window.location.hash !== '#saved-searches' || !menu.current) return
    menu.current.open = true
    menu.current.scrollIntoView({ block: 'center' })
    menu.current.querySelector('summary')?.focus()
  }, [])
  const { data } = useQuery({
    queryKey: SAVED_SEARCHES_KEY,
    queryFn: () => fetchJson<SavedSearchList>(SAVED_SEARCHES_URL),
    initialData: initial,
    initialDataUpdatedAt: renderedAt,
    refetchInterval: REFRESH_MS.dashboardListings,
  })
  const refresh = () => void queryClient.invalidateQueries({ queryKey: SAVED_SEARCHES_KEY })
  useLiveEvent('saved_search', onAlert)
  const seen = useMutation({ mutationFn: (s: SavedSearch) => sendJson<void>(`${SAVED_SEARCHES_URL}/${s.id}/seen`, 'POST'), onSettled: refresh })
  const remove = useMutation({
    mutationFn: (s: SavedSearch) => sendJson<void>(`${SAVED_SEARCHES_URL}/${s.id}`, 'DELETE'),
    onSuccess: (_, s) => toast.success(SAVED_TEXT.deleted(s.name)),
    onError: () => toast.error(SAVED_TEXT.deleteFailed),
    onSettled: refresh,
  })
  const searches = data.saved_searches
  const full = searches.length >= data.limit
  const news = searches.reduce((n, s) => n + s.new_count, 0)
  const open = (s: SavedSearch) => {
    if (menu.current) menu.current.open = false
    filters.replace(filterStateOf(s))
    seen.mutate(s)
  }

  return (
    <>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => setSaving(true)} disabled={full} title={full ? SAVED_TEXT.full : undefined} data-save-search>
        {SAVED_TEXT.save}
      </button>
      <details ref={menu} className="dropdown sm:dropdown-end" data-saved-searches>
        <summary className="btn btn-outline btn-sm">
          {SAVED_TEXT.menu}
          {news > 0 && (
            <span className="badge badge-primary badge-sm">
              {newCountLabel(news)}
              <span className="sr-only"> new</span>
            </span>
          )}
        </summary>
        <div className="dropdown-content z-30 mt-1 w-72 max-w-[calc(100vw-2rem)] max-sm:fixed max-sm:inset-x-4 max-sm:w-auto rounded-box border border-base-300 bg-base-100 p-2 shadow-lg">
          {searches.length === 0 ? (
            <p className="p-2 text-sm text-base-content/70">{SAVED_TEXT.none}</p>
          ) : (
            <ul className="space-y-1" aria-label={SAVED_TEXT.menu}>
              {searches.map((s) => (
                <li key={s.id} className="flex items-center gap-1" data-saved-search={s.name}>
                  <button type="button" className="btn btn-ghost btn-sm min-w-0 flex-1 justify-between font-normal" onClick={() => open(s)}>
                    <span className="truncate">{s.name}</span>
                    {s.new_count > 0 && (
                      <span className="badge badge-primary badge-sm shrink-0" data-new-count={s.new_count}>
                        {newCountLabel(s.new_count)}
                        <span className="sr-only"> new</span>
                      </span>
                    )}
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm btn-square shrink-0"
                    aria-label={`Delete saved search ${s.name}`}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(s)}
                  >
                    <span aria-hidden="true">✕</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </details>
      <SaveSearchDialog open={saving} filters={shown(filters.applied)} idPrefix={idPrefix} onClose={() => setSaving(false)} />
    </>
  )
}
