import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Database } from '../../db/client'
import { openDataSource, sqliteSource } from '../../db/open'
import type { Queryable } from '../../db/sql'
import { createApp } from '../../src/app'
import { loadConfig, type Config } from '../../src/platform/config'
import { createContext, type AppContext } from '../../src/platform/context'
import { createLogger } from '../../src/platform/http/request-log'
import { READ_AFTER_HEADER } from '../../src/platform/http/read-after'
import { sharedCluster } from './postgres'
import { startServer } from './server'
import { startSmtp } from './smtp'

/**
 * Where the API suites send their requests. Unset: in process, through `app.handle` (fast, no port).
 * `BROKERNET_BINARY=/path/to/brokernet`: over real HTTP to that compiled binary, started once per test app on the
 * same temporary database, so the artifact self-hosters run is the thing tested (`bun run test` runs both).
 */
export const BINARY = process.env.BROKERNET_BINARY || undefined

/**
 * `BROKERNET_TEST_DATABASE=postgres`: every test app gets a database of its own on a throwaway PostgreSQL cluster
 * (tests/support/postgres.ts) instead of a SQLite file (`bun run test` runs the API suites on both).
 */
export const ON_POSTGRES = process.env.BROKERNET_TEST_DATABASE === 'postgres'

export type TestApp = {
  /** The in-process app; under BROKERNET_BINARY it is not the one answering (see `inProcess`). */
  app: ReturnType<typeof createApp>
  /**
   * SQLite's own handle on the app's database, for what only SQLite has (its pragmas, migrations); null on
   * PostgreSQL. Fixtures and assertions go through `ctx.db`, the data layer, in plain SQL: the same on every backend.
   */
  db: Database | null
  config: Config
  /** Services over the same database, for fixtures and direct service calls (their rows are what the app reads). */
  ctx: AppContext
  dataDir: string
  /** True when requests go through `app.handle`; false when a compiled binary answers over HTTP. */
  inProcess: boolean
  /** Where the binary listens (`http://127.0.0.1:port`), for a request fetch cannot send; null in process. */
  baseUrl: string | null
  /** The client address the app sees for these requests (what its rate limits count by). */
  address: string
  /** A request to the app as a browser or script would send it. */
  request: (path: string, init?: RequestInit) => Promise<Response>
  /** Resolves once the app has delivered (or given up on) every mail it queued. */
  mailIdle: () => Promise<void>
  /**
   * Resolves once the answering process has heard every write committed through `ctx.db` so far. In process they are
   * the app's own, and on SQLite another connection's commit is seen at the next read: at once. Against a binary on
   * PostgreSQL they are another instance's, heard a moment after each commit (db/pg-feed.ts): one request, signed in
   * with `headers`, names a position past them (read-after-write, docs/decisions/072-read-after-write.md) and is
   * answered once the binary has heard everything committed before it.
   */
  heard: (headers: Record<string, string>) => Promise<void>
  /**
   * The JSON log lines written so far (parsed). Tests start with LOG_LEVEL=silent (none); pass `{ LOG_LEVEL: 'info' }`
   * to see them. In process they are kept by the app's logger; from a binary they are read off its stdout.
   */
  logLines: () => Record<string, unknown>[]
  /** Stops the binary, if any, and removes the database and its folder. */
  close: () => Promise<void>
}

/**
 * A fresh app on its own migrated SQLite file in a temporary DATA_DIR: the real thing, not a mock. `backend: 'sqlite'`:
 * on SQLite in a PostgreSQL run too, for a test of what only SQLite has (in process or the binary, as the run's).
 */
export async function createTestApp(env: Record<string, string> = {}, overrides: Partial<AppContext> = {}, { backend }: { backend?: 'sqlite' } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'brokernet-test-'))
  const databaseUrl = ON_POSTGRES && backend !== 'sqlite' ? await (await sharedCluster()).createDatabase() : undefined
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env })
  const source = databaseUrl ? await openDataSource(config) : sqliteSource(openDatabase(config.databasePath))
  const db = source.sqlite
  const written: string[] = []
  const ctx = createContext(source, config, { logger: createLogger(config.logLevel, (line) => void written.push(line)), ...overrides })
  const app = createApp(ctx)
  const base = { app, db, config, ctx, dataDir }
  if (!BINARY)
    return {
      ...base,
      inProcess: true,
      baseUrl: null,
      address: 'unknown', // app.handle has no server, so no peer address
      request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
      logLines: () => jsonLines(written.join('')),
      mailIdle: () => ctx.mail.idle(),
      heard: async () => {},
      close: async () => {
        // What the features armed (a listing's end) stops with the app; the server starts the rest, tests none.
        await ctx.features.stop()
        await ctx.mail.close()
        await source.close()
        rmSync(dataDir, { recursive: true, force: true })
      },
    }

  const server = await startServer({ command: [BINARY], dataDir, env: { DEMO_DATA: '0', LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env } })
  // Its first start created a master admin in the empty database; the in-process app starts without one, and both
  // targets must start from the same state.
  await ctx.db.run('delete from users where email = ?', [config.adminEmail])
  // By address, not name: the address the app sees (and counts rate limits by) is then known.
  const base127 = server.url.replace('//localhost:', '//127.0.0.1:')
  const origin = new URL(base127).origin
  return {
    ...base,
    inProcess: false,
    baseUrl: base127,
    address: '127.0.0.1',
    request: (path, init = {}) => {
      const headers = new Headers(init.headers)
      // Fixtures speak of the app's own origin as http://localhost (what app.handle sees); over HTTP it has a port.
      if (headers.get('origin') === 'http://localhost') headers.set('origin', origin)
      // Answers as sent: no redirect followed, no gzip undone (app.handle does neither).
      return fetch(base127 + path, { ...init, headers, redirect: 'manual', decompress: false })
    },
    mailIdle: () => outboxSettled(ctx.db),
    heard: async (headers) => {
      if (!databaseUrl) return
      const [{ position }] = (await ctx.db.all('SELECT pg_current_xact_id()::text AS position')) as [{ position: string }]
      const res = await fetch(`${base127}/api/listings/`, { headers: { ...headers, [READ_AFTER_HEADER]: position } })
      if (res.status !== 200) throw new Error(`the request naming a position answered ${res.status}: ${await res.text()}`)
    },
    logLines: () => jsonLines(server.output()),
    close: async () => {
      await ctx.mail.close()
      await source.close()
      await server.stop() // and removes dataDir
    },
  }
}

/** The lines of a log that are JSON objects (a binary's stdout also carries its banner and notes). */
export const jsonLines = (text: string): Record<string, unknown>[] =>
  text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)

/** The binary's mailer works on its own: wait until no outbox row is still PENDING (delivered, logged or failed). */
async function outboxSettled(db: Queryable, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (await db.get("select id from mail_outbox where status = 'PENDING' limit 1")) {
    if (Date.now() > deadline) throw new Error('mail still pending after 20 s')
    await Bun.sleep(20)
  }
}

export const jsonBody = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})


/** A test app whose mail goes to a real SMTP server on a free port (./smtp.ts); `close` stops both. */
export async function createTestAppWithSmtp(env: Record<string, string> = {}) {
  const smtp = await startSmtp()
  const app = await createTestApp({ SMTP_URL: smtp.url, ...env })
  return { h: app, smtp, close: async () => (await app.close(), await smtp.close()) }
}
