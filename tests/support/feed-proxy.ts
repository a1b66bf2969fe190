import type { Socket } from 'bun'

/**
 * A TCP port on loopback in front of a Unix socket (a test PostgreSQL's) that passes every byte through, those from the
 * server `delayMs` late (in order): an instance whose change-feed listener connects through it hears every
 * notification that much later, as a slow network or a busy listener would (tests/read-after-write.test.ts). The real
 * protocol, only late. `delayMs = Infinity` holds the server's bytes until the delay is lowered again.
 */
export type FeedProxy = { port: number; url: (databaseUrl: string) => string; delayMs: number; close: () => void }

type Side = { upstream: Socket<undefined> | null; toServer: Uint8Array[]; late: { at: number; bytes: Uint8Array }[]; timer: Timer | null; closed: boolean }

export function feedProxy(unixPath: string): FeedProxy {
  const open = new Set<Socket<Side>>()
  const proxy: FeedProxy = {
    port: 0,
    delayMs: 0,
    // The database's name and user from its URL, the host this port.
    url: (databaseUrl) => {
      const u = new URL(databaseUrl)
      return `postgres://${u.username}@127.0.0.1:${proxy.port}${u.pathname}`
    },
    close: () => {
      server.stop(true)
      for (const client of open) void client.end()
    },
  }

  /** Sends the server's bytes whose time has come, then waits for the next (the delay may change meanwhile). */
  const pump = (client: Socket<Side>) => {
    const side = client.data
    if (side.timer) clearTimeout(side.timer)
    side.timer = null
    const now = performance.now()
    while (side.late.length && side.late[0]!.at + proxy.delayMs <= now) {
      const head = side.late[0]!
      const written = client.write(head.bytes)
      // The rest when the socket drains (`drain` pumps again).
      if (written < head.bytes.length) return void (head.bytes = head.bytes.subarray(Math.max(written, 0)))
      side.late.shift()
    }
    if (side.late.length && !side.closed) side.timer = setTimeout(() => pump(client), Math.min(100, Math.max(1, side.late[0]!.at + proxy.delayMs - now)))
  }

  const server = Bun.listen<Side>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      async open(client) {
        client.data = { upstream: null, toServer: [], late: [], timer: null, closed: false }
        open.add(client)
        try {
          const upstream = await Bun.connect({
            unix: unixPath,
            socket: {
              data: (_, chunk) => {
                client.data.late.push({ at: performance.now(), bytes: new Uint8Array(chunk) })
                if (!client.data.timer) pump(client)
              },
              close: () => void client.end(),
              error: () => void client.end(),
            },
          })
          client.data.upstream = upstream
          for (const bytes of client.data.toServer) upstream.write(bytes)
          client.data.toServer = []
        } catch {
          client.end()
        }
      },
      data: (client, chunk) => {
        if (client.data.upstream) client.data.upstream.write(chunk)
        else client.data.toServer.push(new Uint8Array(chunk))
      },
      close: (client) => {
        client.data.closed = true
        if (client.data.timer) clearTimeout(client.data.timer)
        client.data.upstream?.end()
        open.delete(client)
      },
      drain: (client) => pump(client),
      error: (client) => void client.end(),
    },
  })
  proxy.port = server.port
  return proxy
}
