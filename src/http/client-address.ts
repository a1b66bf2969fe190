import type { Server } from 'bun'

/**
 * The caller's address for rate limits. X-Forwarded-For is honoured only with TRUST_PROXY=1: anyone can send
 * the header, so believing it by default would let a client pick a fresh address for every attempt.
 */
export function clientAddress(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return server?.requestIP(request)?.address ?? 'unknown'
}
