// Opens the database, prepares it, and serves the app until SIGTERM or SIGINT; with WORKERS > 1, in that many
// processes on the same port (src/platform/processes.ts).
import { openDataSource, type DataSource } from '../db/open'
import { createApp } from './app'
import { bootstrap, DEMO_PASSWORD } from './bootstrap'
import { ConfigError, durationText, loadConfig, redactedUrl } from './platform/config'
import { createContext } from './platform/context'
import { TRANSPORT_BODY_LIMIT } from './platform/http/body-limit'
import { raiseTransportHeadLimit, TRANSPORT_HEAD_LIMIT } from './platform/http/transport'
import { answeringThrough } from './platform/http/client-address'
import { startCheckpointer } from '../db/checkpointer'
import { assertPortFree, exitWithParent, isWorker, selfCommand, startWorkers } from './platform/processes'
import { Backups, childProcessRunner } from './platform/backup/service'
import { markAbandonedRuns } from './platform/backup/runs'
import { SqliteDb } from '../db/sqlite'
import { forgetStatements, keptStatements } from '../db/statements'

let config
try {
  config = loadConfig()
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(`Configuration error: ${e.message}`)
    process.exit(1)
  }
  throw e
}

// `brokernet backup …`, `brokernet restore …`: a command, not the server (src/cli.ts).
const args = process.argv.slice(2)
if (args.length > 0) {
  const { COMMANDS, runCommand } = await import('./cli')
  if (!(COMMANDS as readonly string[]).includes(args[0]!)) {
    console.error(`Unknown command "${args[0]}". Run \`brokernet help\` for the commands.`)
    process.exit(2)
  }
  process.exit(await runCommand(args, config))
}

let source: DataSource
try {
  // Workers serve the database their primary prepared: one that no longer looks prepared is never "upgraded" by them.
  source = await openDataSource(config, { migrate: !isWorker() })
} catch (e) {
  const where = config.databaseUrl ? 'the PostgreSQL database of DATABASE_URL' : `the database at ${config.databasePath}`
  console.error(`Cannot open ${where}: ${(e as Error).message}. Check ${config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR'}.`)
  process.exit(1)
}
// The checkpointer thread of the primary copies SQLite's log back into the file (db/checkpointer.ts), in no request's way.
source.sqlite?.$client.exec('PRAGMA wal_autocheckpoint = 0')

// A worker finds the database prepared by its primary (which starts workers only after that), and leaves start-up
// chores to it: one first admin, one demo seed, one delivery of leftover mail, one sweep of orphaned documents.
const worker = isWorker()
const report = worker ? null : await bootstrap(source, config)
const ctx = createContext(source, config)
// Backups run as a child process of this program (`brokernet backup`), in no request's way.
ctx.backups = new Backups(ctx.db, config, ctx.logger, childProcessRunner(selfCommand(), process.env))
if (!worker) ctx.mail.resume()
// The features, composed over those services (src/app.ts), and their reactions started: timers, sweeps and schedules,
// in the primary only or in every process, as each feature registered them (src/platform/features.ts).
const app = createApp(ctx)
// The memory probe (a measuring tool, docs/decisions/062-memory.md) and bun:jsc are loaded only when asked for: nothing
// of them on every start.
if (config.memoryProbeDir) (await import('./platform/memory-probe')).watchMemoryProbe(
  config.memoryProbeDir,
  () => ({
    caches: { counts: ctx.counts.describe(), pages: ctx.pages.describe(), sessions: ctx.sessions.size },
    statements: ctx.db instanceof SqliteDb ? { writer: keptStatements(ctx.db.writer), reader: keptStatements(ctx.db.reader) } : null,
  }),
  () => {
    if (ctx.db instanceof SqliteDb) for (const c of new Set([ctx.db.writer, ctx.db.reader])) c.exec('PRAGMA shrink_memory')
  },
  () => {
    if (ctx.db instanceof SqliteDb) for (const c of new Set([ctx.db.writer, ctx.db.reader])) forgetStatements(c)
  },
)
ctx.features.start({ primary: !worker })
// BACKUP_EVERY's schedule, from the primary (instances sharing PostgreSQL claim each period in the database). On SQLite a
// run the previous server left RUNNING cannot finish any more: it is marked so first.
if (!worker && source.sqlite) await markAbandonedRuns(ctx.db)
if (!worker) ctx.backups.schedule()
const shared = worker || config.workers > 1

// Bun's own limit on request heads, raised out of the way so that the app's 431 (JSON) is the one sent
// (src/platform/http/transport.ts).
if ((await raiseTransportHeadLimit()) < TRANSPORT_HEAD_LIMIT)
  console.warn("Could not raise Bun's limit on request headers: over 16 KB, Bun answers 431 itself, without the JSON detail")

let server
try {
  if (shared && !worker) await assertPortFree(config.port)
  // Through Elysia's listen, so handlers get the server (no idle timeout on the event streams); client addresses for
  // rate limits are read through it too (answeringThrough). reusePort only when several processes serve the port
  // (src/platform/processes.ts).
  app.listen({ port: config.port, maxRequestBodySize: TRANSPORT_BODY_LIMIT, reusePort: shared, idleTimeout: 30 })
  server = app.server!
  answeringThrough(server)
  // The binary starts with JavaScriptCore's JIT held back (scripts/build-binary.ts): start-up code runs once and is
  // not worth compiling. Normal policy a moment after listening, once a first request (a health check) has been
  // answered; requests in that window run interpreted (a no-op under `bun src/server.ts`).
  setTimeout(() => Bun.unsafe.setJITPolicy(1), 100).unref()
} catch (e) {
  console.error(`Cannot listen on port ${config.port}: ${(e as Error).message}. Set PORT to a free port.`)
  await source.close()
  process.exit(1)
}

// Documents a crash left unreferenced, swept once the server answers: the sweep reads every user's document name (on
// the 5,000,000-listing bench database, 100,000 users: about 20 ms of the start before it moved here, issue 36).
if (!worker)
  ctx.documents
    .sweepOrphans(ctx.db)
    .then((orphans) => orphans > 0 && console.log(`Removed ${orphans} identity document(s) that no user refers to`))
    .catch((e: unknown) => console.error(`The sweep of unreferenced identity documents failed: ${(e as Error).message}`))

// SQLite's checkpointer thread and the worker processes start on the next turn of the loop, not before it: a request
// already waiting (a supervisor's or a load balancer's first health check) is answered first, and the worker's own
// start does not take the second core while the primary compiles that request's route. Spawn to first answer 43.4 ->
// 40.1 ms, medians of 11 in turn (issue 36). Nothing starts once a stop has begun.
let checkpointer: ReturnType<typeof startCheckpointer> | null = null
let workers: ReturnType<typeof startWorkers> | null = null
setTimeout(() => {
  if (stopping) return
  if (!worker && source.sqlite) checkpointer = startCheckpointer(config.databasePath)
  if (!worker && config.workers > 1) workers = startWorkers(config.workers - 1, server.port!)
}, 0)

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  if (!worker) console.log(`${signal} received: finishing in-flight requests`)
  // stop(false) stops accepting and waits for requests in flight; workers do the same; then the database closes.
  // Every open event stream ends (a stream never ends by itself), and the features' reactions stop.
  const reactionsStopped = ctx.features.stop()
  await Promise.all([server!.stop(false), workers?.stop(), ctx.backups.close(), reactionsStopped])
  await ctx.mail.close()
  await checkpointer?.stop()
  // Only the last process folds SQLite's log back into the file; a worker leaves that to its primary.
  await source.close({ checkpoint: !worker })
  if (!worker) console.log('Stopped')
  process.exit(0)
}
// postgres.js 3.4.9 on Bun: when a connection dies while a transaction is between statements, the transaction is
// rejected (its request answers an error), but the driver still tries to end it on the dead socket and throws outside
// any promise. That one error must not take the whole instance down with the requests it still serves; any other
// uncaught error still does.
process.on('uncaughtException', (e) => {
  // Known by its message: inside the binary the stack names one bundled file, not the driver's.
  if (config.databaseUrl && e instanceof TypeError && /evaluating 'socket\.write'/.test(e.message)) {
    console.error(`[database] a connection was lost mid-transaction (already answered as an error): ${e.message}`)
    return
  }
  console.error(e)
  process.exit(1)
})
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
if (worker) exitWithParent(() => void shutdown('primary gone'))

// The banner comes last: whoever reads it as "started" (a service manager, the start-up tests) may stop the server at
// once, and a SIGTERM before the handlers above were attached would kill the process without a graceful stop.
if (report) {
  const url = `http://localhost:${server.port}`
  // One write for the whole banner: whoever reads the log (people, the start-up tests) sees it whole or not at all.
  const banner = [`Brokernet is running at ${url}`, `Database: ${config.databaseUrl ? `PostgreSQL, ${redactedUrl(config.databaseUrl)}` : config.databasePath}`]
  // Issue 34: where listing photos live (docs/decisions/047-photo-storage.md); never the bucket's keys.
  const s3 = config.photoS3
  banner.push(`Photos: ${s3 ? `S3 bucket ${s3.bucket}${s3.endpoint ? ` at ${new URL(s3.endpoint).origin}` : ''}, keys ${s3.prefix}…` : config.databaseUrl ? 'in the database' : config.photosDir}`)
  if (report.admin.created && report.admin.generatedPassword)
    banner.push(`Master admin created: ${report.admin.email} / ${report.admin.generatedPassword}  (shown once: keep it safe)`)
  else if (report.admin.created) banner.push(`Master admin created: ${report.admin.email} (password from ADMIN_PASSWORD)`)
  else banner.push(`Master admin: ${report.admin.email}`)
  // Issue 29: the password alone opens only the setup of the second factor.
  banner.push('Master admins set up two-factor sign-in (an authenticator app on their phone) at their first sign-in.')
  if (report.demo)
    banner.push(
      `Demo data loaded: ${report.demo.cities} cities, ${report.demo.brokers} brokers, ${report.demo.moduleAdmins} module admins, ` +
        `${report.demo.listings} listings.`,
    )
  if (report.demo?.sampleBroker)
    banner.push(`Demo users share the password ${DEMO_PASSWORD}, e.g. ${report.demo.sampleBroker} (broker), ${report.demo.sampleModuleAdmin} (module admin)`)
  banner.push(`API docs: ${url}/swagger`)
  banner.push(`Processes: ${config.workers} (WORKERS)`)
  banner.push(
    config.backupEveryMs
      ? `Backups: every ${durationText(config.backupEveryMs)} into ${config.backupDir}, keeping the newest ${config.backupKeep}`
      : 'Backups: none scheduled (set BACKUP_EVERY, e.g. 6h; `brokernet backup` writes one now)',
  )
  console.log(banner.join('\n'))
}
