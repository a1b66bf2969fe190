/**
 * Where to go after signing in: only a path on this site. Anything that could leave it
 * (`//host`, `/\host`, `https://…`, control characters) falls back to the dashboard.
 */
export function safeRedirectPath(raw: string | undefined | null, fallback = '/dashboard'): string {
  if (!raw || typeof raw !== 'string') return fallback
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback
  if (/[\u0000-\u001f\\]/.test(raw)) return fallback
  try {
    const url = new URL(raw, 'http://same.site')
    if (url.origin !== 'http://same.site') return fallback
    return url.pathname + url.search + url.hash
  } catch {
    return fallback
  }
}
