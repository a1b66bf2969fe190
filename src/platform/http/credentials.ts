import type { Cookie } from 'elysia'

/** A cookie as an answer sets it: its value and attributes (what Elysia's cookie jar writes into `set.cookie`). */
export type CookieSetting = { value: string; httpOnly?: boolean; sameSite?: 'lax' | 'strict' | 'none'; secure?: boolean; path?: string; expires?: Date; maxAge?: number }

/**
 * What authentication reads of a request (its headers and cookies) and how it sets a cookie on the answer. The API's
 * guard reads them off the request itself (`requestCredentials`): a route that names neither `headers` nor `cookie`
 * then gets neither from Elysia, which otherwise copies every header into an object and parses every cookie into a
 * jar of proxies for each request (a tenth of a warm listing read's JavaScript, issue 36). Handlers and pages that
 * hold Elysia's `headers` and `cookie` already wrap them (`elysiaCredentials`).
 */
export type Credentials = {
  header: (name: string) => string | undefined
  cookie: (name: string) => string | undefined
  setCookie: (name: string, setting: CookieSetting) => void
}

type Answering = { cookie?: Record<string, unknown> }

/**
 * Set as Elysia's jar sets one: an entry of `set.cookie`, serialised into `Set-Cookie` when the answer is made (for
 * every route, whether or not it parsed the request's cookies).
 */
function setCookie(set: Answering, name: string, setting: CookieSetting): void {
  ;(set.cookie ??= Object.create(null) as Record<string, unknown>)[name] = { path: '/', ...setting }
}

/** One cookie's value from a `Cookie` header, decoded as Elysia decodes it; undefined when absent or empty. */
export function cookieIn(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue
    try {
      return decodeURIComponent(part.slice(eq + 1).trim()) || undefined
    } catch {
      // A value that cannot be decoded is none, as in Elysia's parser.
      return undefined
    }
  }
  return undefined
}

/** The credentials of a request, read from it when first asked (a bearer request never reads its cookies). */
export function requestCredentials(request: Request, set: Answering): Credentials {
  return {
    header: (name) => request.headers.get(name) ?? undefined,
    cookie: (name) => cookieIn(request.headers.get('cookie'), name),
    setCookie: (name, setting) => setCookie(set, name, setting),
  }
}

/** The same over what Elysia parsed for a handler or page (`headers`, and its cookie jar, which writes `set.cookie`). */
export function elysiaCredentials(headers: Record<string, string | undefined>, cookie: Record<string, Cookie<unknown>>): Credentials {
  return {
    header: (name) => headers[name],
    cookie: (name) => {
      const value = cookie[name]?.value
      return typeof value === 'string' && value ? value : undefined
    },
    setCookie: (name, setting) => void cookie[name]!.set(setting),
  }
}
