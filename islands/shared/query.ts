// Server state in islands: one React Query client, configured by SPEC section 9 ("Query defaults") and
// section 8 ("Global handler for failed mutations").
//
// - Queries: `useQuery({ queryKey, queryFn: () => fetchJson(path), initialData: props.x })`. Server-known data
//   comes in as `initialData` so the server's first paint is complete; nothing is fetched on the server.
// - Mutations without an `onError` of their own (and without `meta: { handled: true }`) get the global toast.
//   Note: callbacks passed to `mutate(vars, { onError })` are not visible to the cache: mark those `handled`.
// - A 401 sends the browser to /login?redirect=<here>, unless `meta: { noAuthRedirect: true }`.
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { api, ApiError, retryDelay } from './api'
import { toast } from './toast'

/** The `meta` keys this client reads, on queries and mutations alike. */
export type AppMeta = Record<string, unknown> & {
  /** A 401 does not redirect to /login (e.g. a sign-in form that expects one). */
  noAuthRedirect?: boolean
  /** A failed mutation handles its own error: no global toast. */
  handled?: boolean
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppMeta
    mutationMeta: AppMeta
  }
}

export const QUERY_DEFAULTS = {
  staleTime: 5 * 60_000,
  gcTime: 10 * 60_000,
  refetchOnWindowFocus: false,
  refetchOnReconnect: true,
} as const

/** Retries after the first failure: up to 3 for queries, 1 for mutations (SPEC section 9). */
export const MAX_RETRIES = { query: 3, mutation: 1 } as const

const isRetryable = (error: unknown) => error instanceof ApiError && (error.status === 0 || (error.status >= 500 && error.status <= 599))

/**
 * Whether to retry after `failureCount` earlier retries (React Query calls it with 0 after the first failure).
 * Only network failures (status 0) and 5xx are retried; any 4xx, 401 included, and any non-API error never.
 */
export function shouldRetry(kind: 'query' | 'mutation', failureCount: number, error: unknown): boolean {
  return isRetryable(error) && failureCount < MAX_RETRIES[kind]
}

/** A query's own retry budget, under the same rules (SPEC section 9: the listing query retries once, analytics twice). */
export const retryUpTo = (max: number) => (failureCount: number, error: unknown) => isRetryable(error) && failureCount < max

export { retryDelay }

/** The message of SPEC section 8's global handler for a failed mutation. */
export function globalMutationMessage(error: unknown): string {
  const status = error instanceof ApiError ? error.status : undefined
  const message = error instanceof Error ? error.message : ''
  if (status === 401) return 'Your session has expired. Please log in again.'
  if (status !== undefined && status >= 500) return 'Server error. Please try again later.'
  if (message.includes('Network Error') || status === 0) return 'Network error. Please check your connection.'
  return 'An unexpected error occurred'
}

/** Where a 401 sends the browser: the sign-in page, remembering the current path and query. */
export const loginUrl = (path: string) => `/login?redirect=${encodeURIComponent(path)}`

const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401

function redirectToLogin() {
  if (typeof window === 'undefined' || window.location.pathname === '/login') return
  window.location.assign(loginUrl(window.location.pathname + window.location.search))
}

/**
 * A transport call for `queryFn`/`mutationFn`: api() with its own retries off, since React Query retries.
 */
export const fetchJson = <T>(path: string): Promise<T> => api<T>(path, { retries: 0 })
export const sendJson = <T>(path: string, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', json?: unknown): Promise<T> =>
  api<T>(path, { method, json, retries: 0 })

/**
 * A QueryClient with the app's defaults. `server: true` (the default when there is no `window`) is for one
 * request's render: no retries, and no garbage-collection timers that would keep the request's cache alive.
 */
export function makeQueryClient({ server = typeof window === 'undefined' }: { server?: boolean } = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isUnauthorized(error) && !query.meta?.noAuthRedirect) redirectToLogin()
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _result, mutation) => {
        if (!mutation.options.onError && !mutation.meta?.handled) toast.error(globalMutationMessage(error))
        if (isUnauthorized(error) && !mutation.meta?.noAuthRedirect) redirectToLogin()
      },
    }),
    defaultOptions: {
      queries: {
        ...QUERY_DEFAULTS,
        gcTime: server ? Infinity : QUERY_DEFAULTS.gcTime,
        retry: server ? false : (failureCount, error) => shouldRetry('query', failureCount, error),
        retryDelay,
      },
      mutations: {
        retry: server ? false : (failureCount, error) => shouldRetry('mutation', failureCount, error),
        retryDelay,
      },
    },
  })
}

let browserClient: QueryClient | undefined

/** The one QueryClient every island on the page shares (like the shared store of ./store.ts). Browser only. */
export function browserQueryClient(): QueryClient {
  if (typeof window === 'undefined') throw new Error('browserQueryClient() is for the browser: the server makes one client per request')
  return (browserClient ??= makeQueryClient({ server: false }))
}
