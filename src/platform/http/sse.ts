import type { Server } from 'bun'
import type { Cookie } from 'elysia'
import type { SessionWatch } from '../session-watch'
import { sessionIdOf } from '../sessions'
import { readToken, type Actor } from './auth'
import { elysiaCredentials } from './credentials'

const KEEP_ALIVE_MS = 25_000
const encoder = new TextEncoder()

/** Sends one server-sent event: its name and its data as one line of JSON. */
export type SendEvent = (event: string, data: unknown) => void

/** Whom a stream serves: the session the request was authenticated with, and its user as the stream scoped it. */
export type StreamCaller = { sessionId: string; user: Pick<Actor, 'id' | 'role' | 'cityId'> }

/** The caller of an authenticated request (the route's `user`, and the token the guard accepted it by). */
export function streamCaller(user: StreamCaller['user'], headers: Record<string, string | undefined>, cookie: Record<string, Cookie<unknown>>): StreamCaller {
  const found = readToken(elysiaCredentials(headers, cookie))
  // The guard let the request in by this token: there is one.
  if (!found) throw new Error('streamCaller: an authenticated request carries a token')
  return { sessionId: sessionIdOf(found.token), user: { id: user.id, role: user.role, cityId: user.cityId } }
}

/**
 * A `text/event-stream` answer that stays open: `start` subscribes to whatever it reports (before sending its first
 * events, so nothing falls between) and returns its unsubscribe, called once when the client goes or `end` is called
 * (a shutdown). Comments keep the connection alive through proxies between events.
 *
 * Every stream belongs to its caller's session and ends with it (`watch`, src/platform/session-watch.ts): when the
 * session is over it sends `session_ended` (`{}`) and closes, so a client knows not to connect again; when the user's
 * role or city changed it just closes (a new connection is scoped anew).
 */
export function eventStream(
  request: Request,
  server: Server<unknown> | null,
  watch: SessionWatch,
  caller: StreamCaller,
  start: (send: SendEvent, end: () => void) => () => void,
): Response {
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
      const send: SendEvent = (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
      const release = start(send, end)
      const unwatch = watch.watch({ sessionId: caller.sessionId, userId: caller.user.id, role: caller.user.role, cityId: caller.user.cityId }, (why) => {
        if (why === 'ended') send('session_ended', {})
        end()
      })
      const releaseAll = () => {
        unwatch()
        release()
      }
      // Ended while starting (the client already gone): release at once.
      if (stopped) releaseAll()
      else unsubscribe = releaseAll
    },
    cancel() {
      stop()
    },
  })
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  })
}
