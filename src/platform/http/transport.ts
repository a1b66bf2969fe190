// Bun's own limit on request heads, set out of the app's way (docs/decisions/024-request-limits.md). Kept apart from
// the app's check (./head-limit.ts) so that scripts/build-binary.ts can read the flag without loading the app.

/**
 * Over this, Bun answers a bare 431 with no body before the app sees the request (by default it did so from 16 KB
 * on). The app's own limit, far below, is what applies; at this size Bun buffers no more for a head than the body
 * limit lets the app read for a body.
 */
export const TRANSPORT_HEAD_LIMIT = 11 * 1024 * 1024

/** Bun's command-line flag for it, which scripts/build-binary.ts builds into the binary. */
export const TRANSPORT_HEAD_FLAG = `--max-http-header-size=${TRANSPORT_HEAD_LIMIT}`

/**
 * Raises Bun's head limit for the servers this process starts from now on, and returns the limit in force. The binary
 * carries the flag already (nothing to load at start); `bun src/server.ts` and its workers set it through node:http,
 * whose `maxHeaderSize` Bun lets a program set (Node's is read-only).
 */
export async function raiseTransportHeadLimit(): Promise<number> {
  if (process.execArgv.includes(TRANSPORT_HEAD_FLAG)) return TRANSPORT_HEAD_LIMIT
  const http = (await import('node:http')).default
  Reflect.set(http, 'maxHeaderSize', TRANSPORT_HEAD_LIMIT)
  return http.maxHeaderSize
}
