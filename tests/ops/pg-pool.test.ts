// The PostgreSQL pool's queue. A transaction as a fresh pool's first use (no connection open: at start, or once every
// connection has reached its lifetime on a quiet server) is handed the connection it opened (patches/postgres@3.4.9:
// postgres.js left that reservation waiting until another connection opened, for ever on a quiet server).
//
// Reads waiting in the pool's queue when PostgreSQL goes out of reach (db/postgres.ts `whileReachable`; issue 37: a
// full run saw one request answered 503 after 9.6 s with the network silent). Without the bound, the pool gave each
// queued read to its connection attempts one after another, 1.5 s each: with 24 reads on 4 connections the last was
// answered after 9 s. With it, once the first attempt fails (the outage starts) every read still waiting is answered
// like any statement during an outage: 503 within a second more.
//
// Writes in the same silence (issue 37: "create a city" answered 503 after 11.2 s): each is a one-statement transaction
// on a reserved connection, answered 503 within the same bound, and a write answered 503 is never written later.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { DatabaseUnavailable } from '../../db/faults'
import { CONNECT_TIMEOUT_S, postgresDb, type PostgresDb } from '../../db/postgres'
import { OUTAGE_WAIT_MS } from '../../db/pg-outage'
import { startCluster, type Cluster } from '../support/postgres'
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy'

const CONNECTIONS = 4
const READS = 24
const WRITES = 24
/** The first attempt's timeout and the outage's wait, and what a loaded machine may add to them. */
const ALLOWED_MS = CONNECT_TIMEOUT_S * 1000 + OUTAGE_WAIT_MS + 2500

let cluster: Cluster
let proxy: TcpProxy
let direct: string
/** The same database through the proxy. */
let behindProxy: string

beforeAll(async () => {
  cluster = await startCluster()
  direct = await cluster.createDatabase()
  const url = new URL(direct)
  proxy = tcpProxy(`${url.searchParams.get('host')}/.s.PGSQL.5432`)
  url.searchParams.delete('host')
  url.hostname = '127.0.0.1'
  url.port = String(proxy.port)
  behindProxy = url.toString()
  const setup = postgresDb(direct, { max: 1 })
  await setup.run('create table written (n int not null)')
  await setup.close()
}, 120_000)

afterAll(async () => {
  proxy?.release()
  proxy?.close()
  await cluster?.stop()
}, 60_000)

test('a transaction as a fresh pool’s first use gets its connection (no other request needed to open one)', async () => {
  const fresh = postgresDb(direct, { max: 2 })
  try {
    let timer: ReturnType<typeof setTimeout> | undefined
    const stuck = new Promise<string>((resolve) => (timer = setTimeout(resolve, 30_000, 'still waiting after 30 s')))
    const done = fresh.tx(async (tx) => (await tx.get<{ n: number }>('select 1 as n'))!.n).then((n) => `answered ${n}`)
    expect(await Promise.race([done, stuck])).toBe('answered 1')
    clearTimeout(timer)
  } finally {
    await fresh.close()
  }
}, 60_000)

/**
 * `count` statements asked of a pool of CONNECTIONS connections that has none open yet, through a network that accepts
 * connections and never answers (a partition, or a failover's lost machine): each statement's outcome and when it came.
 * A pool whose connections were open and then cut is in the same state: it connects anew for the statements that come.
 */
async function inSilence(count: number, statement: (pool: PostgresDb, i: number) => Promise<unknown>) {
  const pool = postgresDb(behindProxy, { max: CONNECTIONS })
  proxy.hold()
  const since = performance.now()
  // The network comes back after 20 s whatever happens: a statement still waiting then is answered, and fails the
  // test below instead of hanging it.
  const back = setTimeout(() => proxy.release(), 20_000)
  try {
    const outcomes = await Promise.all(
      Array.from({ length: count }, (_, i) => statement(pool, i).then(() => 'answered', (e: unknown) => (e instanceof DatabaseUnavailable ? '503' : String(e)))
        .then((outcome) => ({ outcome, ms: performance.now() - since }))),
    )
    return { outcomes, pool }
  } finally {
    clearTimeout(back)
    proxy.release()
  }
}

test(`${READS} reads on ${CONNECTIONS} connections, asked as the network goes silent: each answered 503 within the first attempt's timeout and a second`, async () => {
  const { outcomes, pool } = await inSilence(READS, (pool, i) => pool.all(`select ${i} as n`))
  await pool.close()
  expect(outcomes.map((o) => o.outcome)).toEqual(Array(READS).fill('503'))
  expect(outcomes.filter((o) => o.ms >= ALLOWED_MS).map((o) => `${o.ms.toFixed(0)} ms`)).toEqual([])
}, 60_000)

// A write on its own is a one-statement transaction on a reserved connection (db/postgres.ts `run`). Given to the
// pool's queue, a full run saw "create a city" answered 503 after 11.2 s; bounding that wait with a cancel answered
// 503 for writes that were then written once the network came back (17 of 24), which is worse than slow.
test(`${WRITES} writes on ${CONNECTIONS} connections in silence: each answered 503 within the same bound, and none of them written once the network is back`, async () => {
  const { outcomes, pool } = await inSilence(WRITES, (pool, i) => pool.run('insert into written (n) values (?)', [i]))
  // Ending the pool waits for whatever it still holds to be sent and answered: a write kept somewhere is written by now.
  await pool.close()
  expect(outcomes.map((o) => o.outcome)).toEqual(Array(WRITES).fill('503'))
  expect(outcomes.filter((o) => o.ms >= ALLOWED_MS).map((o) => `${o.ms.toFixed(0)} ms`)).toEqual([])
  const check = postgresDb(direct, { max: 1 })
  try {
    expect(await check.get<{ n: number }>('select count(*)::int as n from written')).toEqual({ n: 0 })
    // And the pool's writes reach the table when the network is there (the count above can fail).
    const again = postgresDb(behindProxy, { max: CONNECTIONS })
    await again.run('insert into written (n) values (?)', [-1])
    await again.close()
    expect(await check.get<{ n: number }>('select count(*)::int as n from written')).toEqual({ n: 1 })
  } finally {
    await check.close()
  }
}, 60_000)

// A transaction handed a connection the moment it was cut (the pool had not yet heard of the close) wrote its
// statements to no socket: postgres.js put the write off to the next turn, where it threw outside any promise, and the
// transaction waited for an answer for ever, the network back or not; statements queued behind a Describe waited in
// the reservation's queue the same way (patches/postgres@3.4.9.patch; issue 37: "create a city" answered 503 only
// after 16.5 s in a full run's outage test, and for ever with nothing else going on).
test('transactions and writes asked the moment the connections are cut are answered 503, never held', async () => {
  const pool = postgresDb(behindProxy, { max: CONNECTIONS })
  try {
    // Every connection open, as a serving instance's are.
    await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.all('select pg_sleep(0.02)')))
    proxy.hold()
    proxy.cut()
    const since = performance.now()
    const outcome = (p: Promise<unknown>) =>
      p.then(() => 'answered', (e: unknown) => (e instanceof DatabaseUnavailable ? '503' : String(e))).then((o) => ({ o, ms: performance.now() - since }))
    const asked = [
      ...Array.from({ length: 2 }, (_, i) => outcome(pool.tx(async (tx) => (await tx.get('select 1 as x'), await tx.run('insert into written (n) values (?)', [100 + i]))))),
      ...Array.from({ length: 2 }, (_, i) => outcome(pool.run('insert into written (n) values (?)', [200 + i]))),
    ]
    let timer: ReturnType<typeof setTimeout> | undefined
    const held = new Promise<'held'>((resolve) => (timer = setTimeout(resolve, 20_000, 'held')))
    const outcomes = await Promise.race([Promise.all(asked), held])
    clearTimeout(timer)
    proxy.release()
    expect(outcomes === 'held' ? 'held after 20 s' : outcomes.map((x) => x.o)).toEqual(['503', '503', '503', '503'])
    if (outcomes !== 'held') expect(outcomes.filter((x) => x.ms >= ALLOWED_MS).map((x) => `${x.ms.toFixed(0)} ms`)).toEqual([])
  } finally {
    proxy.release()
    await pool.close()
  }
}, 60_000)
