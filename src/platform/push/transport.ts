import type { checkedLookup } from './endpoint'

// One push message on the wire (RFC 8030): a POST to the endpoint through node:http(s), whose `lookup` option makes the
// connection go to the address the endpoint check has just passed (src/platform/push/endpoint.ts). Redirects are not
// followed: a push service answers where it is asked.

export type PushRequest = {
  url: URL
  headers: Record<string, string | number>
  body: Buffer | null
  lookup: ReturnType<typeof checkedLookup>
  timeoutMs: number
}

/** The push service's answer: its status, its Retry-After (429, 503), and the start of its body (for the log). */
export type PushAnswer = { status: number; retryAfter: string | null; body: string }

/** The start of an answer's body kept for the error it explains. */
const BODY_KEPT = 500

export async function post({ url, headers, body, lookup, timeoutMs }: PushRequest): Promise<PushAnswer> {
  const client = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
  return new Promise<PushAnswer>((resolve, reject) => {
    const request = client.request(
      {
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: url.pathname + url.search,
        method: 'POST',
        headers,
        lookup: lookup as never,
        timeout: timeoutMs,
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          if (text.length < BODY_KEPT) text += chunk
        })
        response.on('end', () => {
          const retryAfter = response.headers['retry-after']
          resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, body: text.slice(0, BODY_KEPT) })
        })
        response.on('error', reject)
      },
    )
    request.on('timeout', () => request.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })))
    request.on('error', reject)
    request.end(body ?? undefined)
  })
}
