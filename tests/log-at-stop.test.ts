import { expect, test } from 'bun:test'
import { BINARY } from './support/app'
import { startServer } from './support/server'

// Issue 36: the request log waits in memory and is written in batches (src/platform/http/log-buffer.ts). A normal stop
// (SIGTERM) must still write every line of every request answered, in every process: the lines
// still waiting are written on the way out. Run against the compiled binary with BROKERNET_BINARY.

const REQUESTS = 600

test('a normal stop (SIGTERM, WORKERS=2) loses no request log line: every answered request is in the log once', async () => {
  const server = await startServer({ ...(BINARY ? { command: [BINARY] } : {}), env: { WORKERS: '2', LOG_LEVEL: 'info' } })
  const ids = Array.from({ length: REQUESTS }, (_, i) => `stop-test-${i}`)
  // A few connections at a time, as clients do; each request names itself (an incoming X-Request-Id is kept).
  for (let i = 0; i < ids.length; i += 20)
    await Promise.all(
      ids.slice(i, i + 20).map(async (id) => {
        // A fresh connection each: the kernel spreads them over both processes (SO_REUSEPORT).
        const res = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': id, connection: 'close' } })
        expect(res.status).toBe(200)
        expect(res.headers.get('x-request-id')).toBe(id)
        await res.arrayBuffer()
      }),
    )
  // Stopped right after the last answer: lines of the last second are still waiting to be written.
  expect(await server.stop()).toBe(0)
  const logged = server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { request_id?: string })
    .map((l) => l.request_id)
    .filter((id): id is string => !!id?.startsWith('stop-test-'))
  expect(logged.length).toBe(REQUESTS)
  expect(new Set(logged)).toEqual(new Set(ids))
}, 120_000)
