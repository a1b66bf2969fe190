import type { ReactNode } from 'react'

type Props = {
  title: string
  /** The server's or the transport's message; left out when the title says it all. */
  message?: string | null
  onRetry: () => void
  retryLabel?: string
  /** The heading level that fits where the panel sits (a page section or a nested card). */
  heading?: 'h2' | 'h3'
}

/** The red load-failure panel every list screen shows (SPEC section 8): title, message, a button to try again. */
export function LoadError({ title, message, onRetry, retryLabel = 'Retry', heading: Heading = 'h2' }: Props): ReactNode {
  return (
    <div role="alert" className="alert alert-error flex flex-col items-start gap-2">
      <Heading className="font-bold">{title}</Heading>
      {message && <p>{message}</p>}
      <button type="button" className="btn btn-sm" onClick={onRetry}>
        {retryLabel}
      </button>
    </div>
  )
}
