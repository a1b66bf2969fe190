import type { Socket } from 'bun'

/**
 * A TCP port in front of a Unix socket (a test PostgreSQL's), to play a balancer and a network that goes silent: with
 * the server stopped it accepts a connection and closes it (as HAProxy does with no live server); `hold()` keeps
 * accepting connections but sends nothing on until `release()` (a client waits for the server's answer as it would
 * behind a partition or a lost machine); `cut()` closes the connections open now.
 */
export type TcpProxy = { port: number; hold: () => void; release: () => void; cut: () => void; close: () => void }

/** Bytes on their way to a socket: what it did not take yet is sent when it drains. */
type Outbox = { socket: Socket<any> | null; queued: Uint8Array[]; ending: boolean }

const outbox = (): Outbox => ({ socket: null, queued: [], ending: false })

function flush(box: Outbox): void {
  const socket = box.socket
  if (!socket) return
  while (box.queued.length) {
    const chunk = box.queued[0]!
    const written = socket.write(chunk)
    if (written < chunk.length) {
      box.queued[0] = chunk.subarray(Math.max(written, 0))
      return
    }
    box.queued.shift()
  }
  if (box.ending) socket.end()
}

const send = (box: Outbox, chunk: Uint8Array) => {
  box.queued.push(new Uint8Array(chunk))
  flush(box)
}
const finish = (box: Outbox) => {
  box.ending = true
  flush(box)
}

type Side = { toServer: Outbox; toClient: Outbox; closed: boolean }

export function tcpProxy(unixPath: string): TcpProxy {
  let holding = false
  const held: (() => void)[] = []
  const open = new Set<Socket<Side>>()

  const forward = async (client: Socket<Side>) => {
    const side = client.data
    try {
      const upstream = await Bun.connect({
        unix: unixPath,
        socket: {
          data: (_, chunk) => send(side.toClient, chunk),
          drain: () => flush(side.toServer),
          end: () => finish(side.toClient),
          close: () => finish(side.toClient),
          error: () => finish(side.toClient),
        },
      })
      if (side.closed) return void upstream.end()
      side.toServer.socket = upstream
      flush(side.toServer)
    } catch {
      finish(side.toClient)
    }
  }

  const server = Bun.listen<Side>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(client) {
        client.data = { toServer: outbox(), toClient: { ...outbox(), socket: client }, closed: false }
        open.add(client)
        if (holding) held.push(() => void forward(client))
        else void forward(client)
      },
      data: (client, chunk) => send(client.data.toServer, chunk),
      drain: (client) => flush(client.data.toClient),
      // The client's FIN: passed on, and this side closed too.
      end(client) {
        finish(client.data.toServer)
        client.end()
      },
      close(client) {
        client.data.closed = true
        open.delete(client)
        finish(client.data.toServer)
      },
      error: (client) => void client.end(),
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
