import net from 'node:net'

/** What postgres.js hands its `socket` option: the parsed URL's Unix socket, or its hosts and ports. */
type Target = { path?: string | false; host: string[]; port: number[] }

/**
 * The connections postgres.js opens, made here (its `socket` option) so that a connection that fails fails the queries
 * on it (issue 29; docs/decisions/0XX-database-faults.md). postgres.js 3.4.9 on Bun 1.4.5 left some waiting forever:
 * - a connection the other side closes cleanly before saying anything (what a TCP balancer such as HAProxy does with no
 *   live PostgreSQL behind it) is connected again at once, without end, and the query waiting on it never settles
 *   (postgres.js issue 1193, open in 2026). Such a close is made an error here, which fails that query as a refused
 *   connection does (a 503; the outage watch of db/pg-outage.ts takes over);
 * - Bun tells a socket's close a turn of the event loop after its error, and postgres.js sends the queries it is given
 *   meanwhile on the dead socket: the close fails none of them. Here the close follows the error at once, as in Node.
 *
 * Otherwise as postgres.js connects: the Unix socket the URL names, else its host and port (the next of a list each
 * time, as postgres.js goes round them), handed over before it is connected, so its connect_timeout covers the
 * connection too.
 */
export function pgSocket(): (target: Target) => net.Socket {
  let next = 0
  return (target) => {
    const i = next++ % target.host.length
    const host = target.host[i]!
    const port = target.port[i] ?? target.port[0]!
    const socket = new net.Socket()
    // postgres.js names the server to TLS by the socket's host.
    Object.assign(socket, { host, port })
    const told = failuresTold(socket)
    socket.once('end', () => {
      if (socket.bytesRead === 0)
        socket.destroy(Object.assign(new Error(`${target.path || `${host}:${port}`} closed the connection before the server answered`), { code: 'ECONNRESET' }))
    })
    // Connecting on the next turn, once postgres.js listens, and telling a failure of the first moments (a missing Unix
    // socket fails at once) only after postgres.js's first write, which it queues for that turn too: a failure told
    // before it would leave that write pending on the connection, never to be sent on a later attempt.
    setImmediate(() => {
      told.hold()
      if (target.path) socket.connect(target.path)
      else socket.connect(port, host)
      setImmediate(told.release)
    })
    return socket
  }
}

/**
 * How the socket's failures reach postgres.js: its close right after its error, as Node tells them (see above); nothing
 * after the close, when postgres.js no longer listens (an error with no listener would be thrown); and, between `hold`
 * and `release`, failures kept to be told then.
 */
function failuresTold(socket: net.Socket): { hold: () => void; release: () => void } {
  const emit = socket.emit
  let closed = false
  let held: [string | symbol, unknown[]][] | null = null
  const tell = (event: string | symbol, args: unknown[]): boolean => {
    if (closed && (event === 'close' || event === 'error')) return false
    if (event === 'close') closed = true
    const heard = emit.call(socket, event, ...args)
    if (event === 'error' && !closed) {
      closed = true
      emit.call(socket, 'close', true)
    }
    return heard
  }
  socket.emit = function (event: string | symbol, ...args: unknown[]): boolean {
    if (held && (event === 'error' || event === 'close' || event === 'end')) {
      held.push([event, args])
      return true
    }
    return tell(event, args)
  } as typeof socket.emit
  return {
    hold: () => void (held = []),
    release: () => {
      const events = held ?? []
      held = null
      for (const [event, args] of events) tell(event, args)
    },
  }
}
