import type { Socket } from 'bun'

/**
 * A TCP port in front of a Unix socket (a test PostgreSQL's), to play a network that goes silent: `hold()` keeps
 * accepting connections but sends nothing on until `release()` (a client waits for the server's answer as it would
 * behind a partition or a lost machine), and `cut()` closes the connections open now.
 */
export type TcpProxy = { port: number; hold: () => void; release: () => void; cut: () => void; close: () => void }

type Side = { upstream: Socket<undefined> | null; pending: Uint8Array[]; closed: boolean }

export function tcpProxy(unixPath: string): TcpProxy {
  let holding = false
  const held: (() => void)[] = []
  const open = new Set<Socket<Side>>()

  const forward = async (client: Socket<Side>) => {
    try {
      const upstream = await Bun.connect({
        unix: unixPath,
        socket: {
          data: (_, chunk) => void client.write(chunk),
          end: () => void client.end(),
          close: () => void client.end(),
          error: () => void client.end(),
        },
      })
      if (client.data.closed) return void upstream.end()
      client.data.upstream = upstream
      for (const chunk of client.data.pending) upstream.write(chunk)
      client.data.pending = []
    } catch {
      client.end()
    }
  }

  const server = Bun.listen<Side>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(client) {
        client.data = { upstream: null, pending: [], closed: false }
        open.add(client)
        if (holding) held.push(() => void forward(client))
        else void forward(client)
      },
      data(client, chunk) {
        if (client.data.upstream) client.data.upstream.write(chunk)
        else client.data.pending.push(new Uint8Array(chunk))
      },
      // The client's FIN: pass it on, and close this side too.
      end(client) {
        client.data.upstream?.end()
        client.end()
      },
      close(client) {
        client.data.closed = true
        open.delete(client)
        client.data.upstream?.end()
      },
      error(client) {
        client.end()
      },
    },
  })

  return {
    port: server.port,
    hold: () => void (holding = true),
    release: () => {
      holding = false
      for (const go of held.splice(0)) go()
    },
    cut: () => {
      for (const client of open) client.end()
    },
    close: () => {
      for (const client of open) client.end()
      server.stop(true)
    },
  }
}
