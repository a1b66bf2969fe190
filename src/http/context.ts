import type { Database } from '../../db/client'
import type { Config } from '../config'

/**
 * What every feature module needs from the running app. Modules are built by functions of it, so each test
 * file can compose an app on its own database (bun test runs files in one process).
 */
export type AppContext = { db: Database; config: Config }
