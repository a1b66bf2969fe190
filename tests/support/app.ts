import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { createApp } from '../../src/app'
import { loadConfig, type Config } from '../../src/config'
import { createContext, type AppContext } from '../../src/http/context'

export type TestApp = {
  app: ReturnType<typeof createApp>
  db: Database
  config: Config
  ctx: AppContext
  dataDir: string
  /** A request to the app as a browser or script would send it, without a network. */
  request: (path: string, init?: RequestInit) => Promise<Response>
  close: () => void
}

/** A fresh app on its own migrated SQLite file in a temporary DATA_DIR: the real thing, not a mock. */
export function createTestApp(env: Record<string, string> = {}, overrides: Partial<AppContext> = {}): TestApp {
  const dataDir = mkdtempSync(join(tmpdir(), 'brokernet-test-'))
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', ...env })
  const db = openDatabase(config.databasePath)
  const ctx = createContext(db, config, overrides)
  const app = createApp(ctx)
  return {
    app,
    db,
    config,
    ctx,
    dataDir,
    request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
    close: () => {
      void ctx.mail.close()
      closeDatabase(db)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export const jsonBody = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
