import type { Server } from 'bun'
import type { Actor } from '../../http/auth'
import type { AppContext } from '../../http/context'
import type { PendingScope } from './events'
import { countPending } from './read'

const KEEP_ALIVE_MS = 25_000
const encoder = new TextEncoder()

/**
 * Server-sent events with the number of registrations pending in the admin's scope: once on connect, then at
 * every registration, approval and rejection that concerns them. Screens poll only when this cannot connect.
 */
export function pendingStream(ctx: AppContext, actor: Actor, request: Request, server: Server<unknown> | null) {
  // Bun closes idle connections after 10 s; this one is idle by nature between events.
  server?.timeout(request, 0)
  let stop = () => {}
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk))
        } catch {
          stop()
        }
      }
      const send = () => write(`event: pending\ndata: ${JSON.stringify({ total: countPending(ctx.db, actor) })}\n\n`)
      const inScope = (cityId: PendingScope) => actor.role === 'MASTER_ADMIN' || cityId === 'any' || (cityId !== null && cityId === actor.cityId)
      const end = () => {
        stop()
        try {
          controller.close()
        } catch {
          // already closed by the client
        }
      }
      const unsubscribe = ctx.pending.subscribe((cityId) => inScope(cityId) && send(), end)
      const ping = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS)
      stop = () => {
        unsubscribe()
        clearInterval(ping)
      }
      request.signal.addEventListener('abort', end)
      write('retry: 5000\n\n')
      send()
    },
    cancel() {
      stop()
    },
  })
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  })
}
