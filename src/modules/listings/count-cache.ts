import type { Database } from '../../../db/client'
import { statement } from '../../../db/statements'

/**
 * Totals are the costly half of a page at a million rows; they are cached per viewer scope and filters, and the cache
 * forgets everything as soon as the database changes: this connection's writes (total_changes) or another process's
 * (data_version), so a total is never stale.
 */
export class CountCache {
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
