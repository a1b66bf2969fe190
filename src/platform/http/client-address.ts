import type { Server } from 'bun'

/** The server this process answers through (src/server.ts names it once listening); none in process (`app.handle`). */
let answering: Pick<Server<unknown>, 'requestIP'> | null = null

/**
 * Names the server whose peers `clientAddress` reads. Hooks ask for the address here rather than take Elysia's
 * `server` from their context: Elysia reads every hook's source text, and one hook naming `server` makes it define a
 * `server` property on the context of every request of every route (issue 36: about 0.3 µs a request).
 */
export function answeringThrough(server: Pick<Server<unknown>, 'requestIP'> | null): void {
  answering = server
}

/**
 * The caller's address for rate limits. X-Forwarded-For is honoured only with TRUST_PROXY=1: anyone can send
 * the header, so believing it by default would let a client pick a fresh address for every attempt.
 */
export function clientAddress(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return plainAddress(answering?.requestIP(request)?.address ?? 'unknown')
}

/**
 * An IPv4 peer of a dual-stack socket shows as `::ffff:203.0.113.7`; it is the same client as `203.0.113.7` (what a
 * proxy's X-Forwarded-For says), so limits count it under one key.
 */
export const plainAddress = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address)
