import type { Database } from './client'
import { statement } from './statements'

/**
 * Answers computed from the database as it is now (totals, aggregates, whole pages), forgotten as soon as the database
 * changes: this connection's writes (total_changes) or another process's (data_version), so nothing served is stale.
 * The check is one cheap statement per lookup; oldest entries go first past `max`.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, unknown>()
  private version = ''

  constructor(private readonly max = 1000) {}

  get size() {
    return this.entries.size
  }

  clear() {
    this.entries.clear()
  }

  get<T>(db: Database, key: string, compute: () => T): T {
    const version = this.currentVersion(db)
    if (version !== this.version) {
      this.entries.clear()
      this.version = version
    }
    if (this.entries.has(key)) return this.entries.get(key) as T
    const value = compute()
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, value)
    return value
  }

  private currentVersion(db: Database) {
    const v = statement<{ d: number; t: number }, []>(db.$client, 'select (select data_version from pragma_data_version) as d, total_changes() as t').get()!
    return `${v.d}:${v.t}`
  }
}
