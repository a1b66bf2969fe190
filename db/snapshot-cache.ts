import type { Database } from './client'
import { statement } from './statements'

type Limits = { entries?: number; /** Summed `weigh` of the entries (e.g. bytes of cached answers). */ weight?: number; weigh?: (value: unknown) => number }

/**
 * Answers computed from the database as it is now (totals, aggregates, whole pages), forgotten as soon as the database
 * changes: this connection's writes (total_changes) or another process's (data_version), so nothing served is stale.
 * The check is one cheap statement per lookup; past the limits the least recently used entries go first.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { value: unknown; weight: number }>()
  private version = ''
  private weight = 0
  private readonly limits: Required<Limits>

  constructor(limits: Limits = {}) {
    this.limits = { entries: 1000, weight: Infinity, weigh: () => 0, ...limits }
  }

  get size() {
    return this.entries.size
  }

  clear() {
    this.entries.clear()
    this.weight = 0
  }

  get<T>(db: Database, key: string, compute: () => T): T {
    const version = this.currentVersion(db)
    if (version !== this.version) {
      this.clear()
      this.version = version
    }
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit.value as T
    }
    const value = compute()
    const weight = this.limits.weigh(value)
    if (weight > this.limits.weight) return value
    this.entries.set(key, { value, weight })
    this.weight += weight
    while (this.entries.size > this.limits.entries || this.weight > this.limits.weight) {
      const [oldest, entry] = this.entries.entries().next().value!
      this.entries.delete(oldest)
      this.weight -= entry.weight
    }
    return value
  }

  private currentVersion(db: Database) {
    const v = statement<{ d: number; t: number }, []>(db.$client, 'select (select data_version from pragma_data_version) as d, total_changes() as t').get()!
    return `${v.d}:${v.t}`
  }
}
