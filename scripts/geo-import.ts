// `bun run geo:import <country>`: loads one country's states and cities from the country-state-city package
// into the database of DATA_DIR, keeping whatever is already there. Safe to run again.
import { closeDatabase, openDatabase } from '../db/client'
import { importCountry } from '../db/seed/geo-import'
import { ConfigError, loadConfig, type Config } from '../src/platform/config'

const query = process.argv.slice(2).join(' ').trim() // unquoted names work too: geo:import United Kingdom
if (!query) {
  console.error('Usage: bun run geo:import <country>   (ISO code like IN, or a name like "United Kingdom")')
  process.exit(2)
}

let config: Config
try {
  config = loadConfig()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(`Configuration error: ${error.message}`)
  process.exit(1)
}

const db = openDatabase(config.databasePath)
try {
  const r = importCountry(db, query)
  console.log(
    `${r.country}: ${r.states.added} states added, ${r.states.existing} existing; ` +
      `${r.cities.added} cities added, ${r.cities.existing} existing`,
  )
  if (r.skipped.length) console.log(`Skipped (name shorter than 2 characters): ${r.skipped.join(', ')}`)
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exitCode = 1
} finally {
  closeDatabase(db)
}
