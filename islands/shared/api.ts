// The browser's API client, with the transport rules of SPEC sections 8 and 9.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message)
  }
}

export const NETWORK_ERROR = 'Network error or request failed'

/** detail (string), else error.message, else message, else 'HTTP {status}: {statusText}'. */
export function errorMessage(status: number, statusText: string, body: unknown): string {
  const b = body as { detail?: unknown; error?: { message?: unknown }; message?: unknown } | null
  if (typeof b?.detail === 'string') return b.detail
  if (Array.isArray(b?.detail) && typeof b.detail[0]?.msg === 'string') return b.detail.map((d: { msg: string }) => d.msg).join('; ')
  if (typeof b?.error?.message === 'string') return b.error.message
  if (typeof b?.message === 'string') return b.message
  return `HTTP ${status}: ${statusText}`
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000)

/** `retries` defaults to 3 for GET and 1 otherwise; React Query callers pass 0 (see ./query.ts fetchJson). */
type Options = { method?: string; json?: unknown; form?: FormData; retries?: number }

export async function api<T = unknown>(path: string, { method = 'GET', json, form, retries }: Options = {}): Promise<T> {
  const maxRetries = retries ?? (method === 'GET' ? 3 : 1)
  for (let attempt = 0; ; attempt++) {
    let res: Response
    try {
      res = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: json !== undefined ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
        body: json !== undefined ? JSON.stringify(json) : form,
      })
    } catch {
      if (attempt < maxRetries) {
        await sleep(retryDelay(attempt))
        continue
      }
      throw new ApiError(0, null, NETWORK_ERROR)
    }
    // Only 5xx (and network failures, above) are retried: a 401 or any other 4xx is final.
    if (res.status >= 500 && attempt < maxRetries) {
      await sleep(retryDelay(attempt))
      continue
    }
    if (res.status === 204) return undefined as T
    const isJson = res.headers.get('content-type')?.includes('application/json')
    if (!res.ok) {
      const body = isJson ? await res.json().catch(() => null) : await res.text().catch(() => null)
      throw new ApiError(res.status, body, errorMessage(res.status, res.statusText, body))
    }
    if (!isJson) return res as T
    try {
      return (await res.json()) as T
    } catch {
      console.warn(`[api] ${path}: response was not valid JSON`)
      return undefined as T
    }
  }
}
