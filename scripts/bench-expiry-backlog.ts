// The expiry's backlog on PostgreSQL (issue 36, docs/decisions/068-expiry-sweep.md): builds started on a copy of the
// bench cluster whose listings' ends passed while no server ran, nobody asking anything, until every one of them is
// EXPIRED. Per build: how long that took, how many times the expiry's UPDATE ran for it (pg_stat_statements), and how
// many of the pools' connections waited on a lock meanwhile (pg_stat_activity, sampled). Builds in turn, each on a
// fresh copy of the same cluster.
//
//   bun scripts/bench-expiry-backlog.ts --cache <a data/bench-pg folder with a backlog> [--instances 2] [--seconds 240]
//                                      <binary A> <binary B> [<binary A> ...]
//
// The cache is only copied, never written (scripts/bench-pg.ts catches its own cluster up before each bench:http run, so
// a cluster with a backlog is one that no run of this branch's bench:http has touched since its listings came due:
// a copy of the lead's data/bench-pg, say).
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { connectPostgres } from '../db/postgres'
import { DEMO_PASSWORD } from '../src/bootstrap'
import { argValue as argOf } from './bench-stats'
import { enableStatements, startBenchPostgres } from './bench-pg'
import { benchPort } from './bench-port'

const args = process.argv.slice(2)
const argValue = (name: string) => argOf(args, name)
const cache = argValue('cache')
const INSTANCES = Number(argValue('instances') ?? 2)
const SECONDS = Number(argValue('seconds') ?? 240)
const binaries = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')).map((b) => resolve(b))
if (!cache || binaries.length === 0) {
  console.error('usage: bun scripts/bench-expiry-backlog.ts --cache <data/bench-pg folder> [--instances 2] [--seconds 240] <binary> [<binary> ...]')
  process.exit(2)
}

const DUE = "select count(*)::int as n from listings where status in ('ACTIVE', 'ON_HOLD') and expires_at <= $1"

for (const binary of binaries) {
  const workDir = mkdtempSync(join(tmpdir(), 'brokernet-bench-expiry-'))
  const pg = startBenchPostgres(cache, workDir, { stats: true, explainOver: '10s' })
  const sql = connectPostgres(pg.url, { max: 1 })
  const servers: ReturnType<typeof Bun.spawn>[] = []
  try {
    await enableStatements(pg.url)
    const at = Date.now()
    const due = (await sql.unsafe<{ n: number }[]>(DUE, [at]))[0]!.n
    await sql.unsafe('select pg_stat_statements_reset()')
    const port = benchPort(INSTANCES)
    const t0 = performance.now()
    for (let i = 0; i < INSTANCES; i++) {
      const fd = openSync(join(workDir, `server-${i + 1}.log`), 'a')
      servers.push(
        Bun.spawn([binary], {
          env: { ...process.env, PORT: String(port + i), DATA_DIR: mkdtempSync(join(workDir, 'instance-')), NODE_ENV: 'production', DEMO_DATA: '0', ADMIN_PASSWORD: DEMO_PASSWORD, DATABASE_URL: pg.url },
          stdout: fd,
          stderr: fd,
        }),
      )
      closeSync(fd)
    }
    // Sampled every 250 ms: what is still due (as of the start), and the connections waiting on a lock.
    let left = due
    let samples = 0
    let waitingSum = 0
    let waitingMost = 0
    while (left > 0 && performance.now() - t0 < SECONDS * 1000) {
      await Bun.sleep(250)
      left = (await sql.unsafe<{ n: number }[]>(DUE, [at]))[0]!.n
      const [w] = await sql.unsafe<{ n: number }[]>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")
      samples++
      waitingSum += w!.n
      waitingMost = Math.max(waitingMost, w!.n)
    }
    const seconds = (performance.now() - t0) / 1000
    const [runs] = await sql.unsafe<{ calls: number; ms: number }[]>(
      // Normalised text: 'EXPIRED' is a $n there. Either build's statement (by id, or by the first due id in a subquery).
      "select coalesce(sum(calls), 0)::int as calls, coalesce(sum(total_exec_time), 0)::float8 as ms from pg_stat_statements where query like 'update listings set status = $%, updated_at = $1 where id = %'",
    )
    console.log(
      `${binary}: ${(due - left).toLocaleString('en')} of ${due.toLocaleString('en')} listings past their end expired in ${seconds.toFixed(1)} s${left ? ` (${left} left at the limit)` : ''}; ` +
        `the expiry's UPDATE ran ${runs!.calls.toLocaleString('en')} times (${(runs!.calls / Math.max(1, due - left)).toFixed(2)} per listing), ${Math.round(runs!.ms).toLocaleString('en')} ms in the server; ` +
        `connections waiting on a lock: ${(waitingSum / Math.max(1, samples)).toFixed(1)} on average, ${waitingMost} at most (${INSTANCES} instances, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
    )
  } finally {
    for (const s of servers) s.kill('SIGTERM')
    await Promise.all(servers.map((s) => s.exited))
    await sql.end()
    await pg.stop()
    rmSync(workDir, { recursive: true, force: true })
  }
}
