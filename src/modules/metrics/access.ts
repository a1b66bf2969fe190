import type { Server } from 'bun'
import { forbidden } from '../../platform/errors'
import { HttpError } from '../../platform/http/errors'

// node:crypto is required at first use, not at start: loading it costs milliseconds of CPU before the first answer
// (issue 36, docs/decisions/004-lazy-start.md).
const crypto = () => require('node:crypto') as typeof import('node:crypto')

/** Loopback as the socket's peer shows it: IPv4's 127/8, IPv6's ::1, and IPv4 loopback on a dual-stack socket. */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/i

/**
 * Who may read /metrics (docs/decisions/021-metrics.md): a caller on this machine, by the connection's own peer
 * address (never X-Forwarded-For, which anyone can send), or anyone with METRICS_TOKEN as a bearer token. A request
 * that carries X-Forwarded-For or Forwarded came through a proxy, from someone else: it is not a local caller even
 * when the proxy itself connects from loopback (a header can only take rights away here, never give them).
 * Throws 401 when a token is configured and not given, 403 when none is configured.
 */
export function assertMayReadMetrics(request: Request, server: Server<unknown> | null | undefined, token: string | undefined): void {
  const peer = server?.requestIP(request)?.address
  const proxied = request.headers.has('x-forwarded-for') || request.headers.has('forwarded')
  if (peer && LOOPBACK.test(peer) && !proxied) return
  if (token === undefined) throw forbidden('/metrics answers only callers on this machine unless METRICS_TOKEN is set')
  const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  if (given !== undefined && sameSecret(given, token)) return
  throw new HttpError(401, 'Send METRICS_TOKEN as Authorization: Bearer <token>', { 'www-authenticate': 'Bearer realm="metrics"' })
}

/** Compared in constant time: both sides are hashed first, so neither their content nor their length shows in timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => crypto().createHash('sha256').update(s).digest()
  return crypto().timingSafeEqual(digest(given), digest(expected))
}
