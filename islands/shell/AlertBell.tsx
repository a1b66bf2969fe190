import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { REFRESH_MS } from '../../src/shared/constants'
import { Icon } from '../shared/icons'
import { useHydrated } from '../shared/useHydrated'
import { useLiveEvent } from '../shared/useLiveEvents'
import { EXPIRING_COUNT_KEY, onExpiring } from './ExpiringBadge'
import { fetchUnseenMatches, onMatches, UNSEEN_MATCHES_KEY } from './MatchesBadge'
import { useNavCount } from './NavCount'

type Props = {
  /** Unseen matches when the page was rendered (the Matches badge's own number). */
  initialMatches: number
  /** Where listings ending soon are renewed (My Listings, filtered); null for a role without them. */
  expiringHref: string | null
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** 'No new alerts', '2 unseen matches', '1 listing expiring within 3 days', or both joined by 'and'. */
export function alertText(matches: number, expiring: number): string {
  const parts = [matches ? plural(matches, 'unseen match', 'unseen matches') : null, expiring ? plural(expiring, 'listing expiring within 3 days', 'listings expiring within 3 days') : null]
  const said = parts.filter(Boolean).join(' and ')
  return said || 'No new alerts'
}

/**
 * The bell in the header (issue 32, "Alerts visible"): on a phone the navigation's badges are inside the closed
 * drawer, so the header counts unseen matches and the user's listings ending soon, the same numbers (the same live
 * events and query keys as MatchesBadge and ExpiringBadge). It leads to the matches while any is unseen, else to the
 * listings to renew. Its name says both numbers; a new match is also announced (a polite live region).
 */
export default function AlertBell({ initialMatches, expiringHref }: Props) {
  const live = useLiveEvent('matches', onMatches)
  useLiveEvent('expiring', onExpiring)
  const matches = useNavCount({ queryKey: UNSEEN_MATCHES_KEY, fetchCount: fetchUnseenMatches, initial: initialMatches, live, pollMs: REFRESH_MS.unseenMatchesNav })
  const { data: soonCount = 0 } = useQuery({ queryKey: EXPIRING_COUNT_KEY, queryFn: () => 0, initialData: 0, enabled: false })
  // Until it is hydrated it shows what the server rendered: another island may have put newer numbers in the shared
  // cache meanwhile (the badges hydrate first), and React would find the markup changed.
  const hydrated = useHydrated()
  const expiring = expiringHref && hydrated ? soonCount : 0
  const shownMatches = hydrated ? matches : initialMatches
  const total = shownMatches + expiring
  const text = alertText(shownMatches, expiring)
  // New matches are news, announced politely; the count of listings ending soon arrives with each page's event stream,
  // so announcing it would repeat it on every page: it is in the bell's name instead.
  const [news, setNews] = useState('')
  const before = useRef(initialMatches)
  useEffect(() => {
    if (!hydrated) return
    if (matches > before.current) setNews(`New: ${alertText(matches, 0)}`)
    before.current = matches
  }, [hydrated, matches])
  const shown = total > 99 ? '99+' : String(total)
  const href = shownMatches > 0 || !expiring || !expiringHref ? '/dashboard/matches' : expiringHref
  return (
    <>
      {/* Named by its content, which holds the number it shows (no aria-label that would hide it from speech input). */}
      <a href={href} className="btn btn-ghost btn-square relative h-11 min-h-11 w-11" data-alert-bell={total} data-alert-text={text}>
        <Icon name="bell" className="h-6 w-6" />
        <span className="sr-only">Alerts</span>
        {total > 0 && <span className="badge badge-primary badge-sm absolute -top-0.5 -right-0.5 px-1.5">{shown}</span>}
        <span className="sr-only">{`: ${text}`}</span>
      </a>
      <span className="sr-only" role="status" aria-live="polite" data-alert-news>
        {news}
      </span>
    </>
  )
}
