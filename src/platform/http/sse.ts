import type { Server } from 'bun'

const KEEP_ALIVE_MS = 25_000
const encoder = new TextEncoder()

/** Sends one server-sent event: its name and its data as one line of JSON. */
export type SendEvent = (event: string, data: unknown) => void

/**
 * A `text/event-stream` answer that stays open: `start` subscribes to whatever it reports (before sending its first
 * events, so nothing falls between) and returns its unsubscribe, called once when the client goes or `end` is called
 * (a shutdown). Comments keep the connection alive through proxies between events.
 */
export function eventStream(request: Request, server: Server<unknown> | null, start: (send: SendEvent, end: () => void) => () => void): Response {
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
      const end = () => {
        stop()
        try {
          controller.close()
        } catch {
          // already closed by the client
        }
      }
      let stopped = false
      let unsubscribe: (() => void) | null = null
      const ping = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS)
      stop = () => {
        if (stopped) return
        stopped = true
        clearInterval(ping)
        unsubscribe?.()
      }
      request.signal.addEventListener('abort', end)
      write('retry: 5000\n\n')
      const release = start((event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`), end)
      // Ended while starting (the client already gone): release at once.
      if (stopped) release()
      else unsubscribe = release
    },
    cancel() {
      stop()
    },
  })
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  })
}
