import { useQuery, type QueryKey } from '@tanstack/react-query'

type Options = {
  queryKey: QueryKey
  /** Asks the server for the number: only while the live stream is down. */
  fetchCount: () => Promise<number>
  /** The number when the page was rendered. */
  initial: number
  /** Whether the live stream that sets the number is connected. */
  live: boolean
  pollMs: number
}

/**
 * A number beside a navigation item: the page's rendered value, then whatever the live stream sets under `queryKey`,
 * polled every `pollMs` only while the stream is down (SPEC section 9). A failed poll keeps the last number: the
 * badge is a hint, and the page behind the link shows the error.
 */
export function useNavCount({ queryKey, fetchCount, initial, live, pollMs }: Options): number {
  const { data } = useQuery({ queryKey, queryFn: fetchCount, initialData: initial, refetchInterval: live ? false : pollMs })
  return data ?? 0
}

type BadgeProps = {
  count: number
  /** The text alternative, e.g. "3 unseen matches": the link's accessible name gains it. */
  label: string
  /** What the badge reads, when the number alone would not say what it counts (default: the number). */
  text?: string
  tone: 'badge-warning' | 'badge-primary'
  /** A data attribute naming the badge, for tests and styles (e.g. `data-pending-badge`). */
  mark: `data-${string}`
}

/** The badge itself, hidden at zero. */
export function NavCountBadge({ count, label, text, tone, mark }: BadgeProps) {
  if (!count) return null
  return (
    <span className="flex justify-end">
      <span className={`badge ${tone} badge-sm`} {...{ [mark]: '' }} role="img" aria-label={label}>
        {text ?? count}
      </span>
    </span>
  )
}
