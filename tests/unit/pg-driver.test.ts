// postgres.js 3.4.9 as patched for issue 29 (patches/postgres@3.4.9.patch; docs/decisions/028-database-faults.md): a
// connection that fails fails its queries, and the next one works. Each case left queries waiting forever, or a
// connection never sending its startup, before the patch. A socket of the test's own (postgres.js's `socket` option)
// makes the order of events Bun gives deterministic; the server is a real PostgreSQL (or, for the balancer, a port that
// closes what it accepts).
import { beforeAll, expect, test } from 'bun:test'
import net from 'node:net'
import postgres from 'postgres'
import { connectPostgres } from '../../db/postgres'
import { sharedCluster } from '../support/postgres'

let url: string
beforeAll(async () => {
  url = await (await sharedCluster()).createDatabase()
}, 120_000)

/** `work`'s outcome, or 'still waiting' after `ms`: a query that never settles fails the test instead of hanging it. */
const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work.then((value) => ({ value }), (error: { code?: string }) => ({ error: error.code ?? String(error) })), Bun.sleep(ms).then(() => 'still waiting')])

const rows = (result: Iterable<unknown>) => Array.from(result)

/** Until postgres.js has given a query made now to its connection: it awaits once first (a microtask, not a turn). */
const dispatched = async () => {
  for (let i = 0; i < 3; i++) await Promise.resolve()
}

/** A pool of one connection to the test database whose sockets the test holds (the latest in `sockets.at(-1)`). */
function heldPool() {
  const sockets: net.Socket[] = []
  const { pathname, searchParams } = new URL(url)
  const sql = postgres({
    host: searchParams.get('host')!,
    database: pathname.slice(1),
    username: 'postgres',
    max: 1,
    connect_timeout: 3,
    onnotice: () => {},
    // As postgres.js's own: connected to the server's Unix socket; handed over once connected.
    socket: ({ path }: { path: string }) =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect(path)
        sockets.push(socket)
        socket.once('connect', () => resolve(socket))
        socket.once('error', reject)
      }),
  } as postgres.Options<{}>)
  return { sql, sockets }
}


test('a clean close before the server speaks (a TCP balancer with no server behind it) fails the query at once', async () => {
  const balancer = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open: (s) => void s.end(), data: () => {} } })
  const sql = connectPostgres(`postgres://postgres@127.0.0.1:${balancer.port}/brokernet`, { max: 1 })
  try {
    expect(await within(10_000, sql.unsafe('select 1'))).toEqual({ error: 'CONNECTION_CLOSED' })
  } finally {
    await sql.end({ timeout: 0 })
    balancer.stop(true)
  }
})

test('a socket closed while a query waits to be written: that query fails, and the next connection sends its startup', async () => {
  const { sql, sockets } = heldPool()
  try {
    expect(rows(await sql.unsafe('select 1 as n'))).toEqual([{ n: 1 }])
    // The query is given to the connection (a moment later: postgres.js awaits once) and written on the next turn; the
    // close comes in between (the server went away).
    const cut = within(10_000, sql.unsafe('select 2 as n').execute())
    await dispatched()
    const socket = sockets.at(-1)!
    socket.emit('close', false)
    socket.destroy()
    expect(await cut).toEqual({ error: 'CONNECTION_CLOSED' })
    expect(await within(10_000, sql.unsafe('select 3 as n').then(rows))).toEqual({ value: [{ n: 3 }] })
    expect(sockets).toHaveLength(2)
  } finally {
    await sql.end({ timeout: 0 })
  }
})

test("a query sent between a socket's error and its close (Bun tells the close a turn later) fails with the connection", async () => {
  const { sql, sockets } = heldPool()
  try {
    expect(rows(await sql.unsafe('select 1 as n'))).toEqual([{ n: 1 }])
    const socket = sockets.at(-1)!
    socket.emit('error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))
    const late = within(10_000, sql.unsafe('select 2 as n').execute())
    await dispatched()
    socket.emit('close', true)
    socket.destroy()
    expect(await late).toEqual({ error: 'CONNECTION_CLOSED' })
    expect(await within(10_000, sql.unsafe('select 3 as n').then(rows))).toEqual({ value: [{ n: 3 }] })
  } finally {
    await sql.end({ timeout: 0 })
  }
})
