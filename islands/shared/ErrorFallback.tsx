import { Icon } from './icons'

type Props = { onRetry?: () => void; retryHref?: string }

/** 'Something went wrong' with 'Try Again' and 'Refresh Page' (SPEC section 2 "Shell"); also the server's 500 page. */
export function ErrorFallback({ onRetry, retryHref }: Props) {
  return (
    <div role="alert" className="flex min-h-[50vh] items-center justify-center p-6">
      <div className="card bg-base-100 shadow-xl max-w-md w-full">
        <div className="card-body items-center text-center">
          <Icon name="warning" className="h-12 w-12 text-warning" />
          <h2 className="card-title text-2xl">Something went wrong</h2>
          <p className="text-base-content/70">An unexpected error occurred. You can try again, or refresh the page.</p>
          <div className="card-actions mt-4">
            {onRetry ? (
              <button type="button" className="btn btn-primary" onClick={onRetry}>
                Try Again
              </button>
            ) : (
              <a className="btn btn-primary" href={retryHref ?? ''}>
                Try Again
              </a>
            )}
            <a className="btn btn-outline" href={retryHref ?? ''} data-refresh-page>
              Refresh Page
            </a>
          </div>
        </div>
      </div>
    </div>
  )
}
