// The rules of ./rules.ts applied to the facts of ./source.ts: what breaks which rule, and how that compares with the
// baseline of known violations (docs/architecture-baseline.json), which may only shrink.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { is } from 'drizzle-orm'
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import * as schema from '../../db/schema'
import type { Import, SourceFacts } from './source'
import { BASELINE_FILE, CYCLE_RULE, inside, isStore, LAYER_RULES, SQL_RULE, TABLE_OWNERS } from './rules'

export type Facts = Map<string, SourceFacts>

/** An import from one of our files to another. */
export type Edge = Import & { from: string; target: string }

export const edgesOf = (facts: Facts): Edge[] =>
  [...facts.values()].flatMap((f) => f.imports.filter((i): i is Import & { target: string } => i.target !== null).map((i) => ({ ...i, from: f.file })))

const describeEdge = (e: Edge) => `${e.from}:${e.line} imports ${e.target}${e.typeOnly ? ' (type only)' : e.dynamic ? ' (dynamic import)' : ''}`

// ---------------------------------------------------------------------------------------------------------------------
// Import cycles: the strongly connected components of the import graph (Tarjan), each a set of files every one of which
// reaches every other through imports.

export type Cycle = { files: string[]; edges: Edge[] }

export function importCycles(facts: Facts): Cycle[] {
  const edges = edgesOf(facts).filter((e) => facts.has(e.target))
  const out = new Map<string, Edge[]>()
  for (const e of edges) out.set(e.from, [...(out.get(e.from) ?? []), e])
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  let next = 0
  const connect = (v: string) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const { target: w } of out.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      components.push(component)
    }
  }
  for (const v of [...facts.keys()].sort()) if (!index.has(v)) connect(v)
  return components
    .filter((c) => c.length > 1 || (out.get(c[0]!) ?? []).some((e) => e.target === c[0]))
    .map((c) => {
      const files = c.sort()
      const set = new Set(files)
      return { files, edges: edges.filter((e) => set.has(e.from) && set.has(e.target)).sort((a, b) => a.from.localeCompare(b.from) || a.line - b.line) }
    })
    .sort((a, b) => b.files.length - a.files.length || a.files[0]!.localeCompare(b.files[0]!))
}

// ---------------------------------------------------------------------------------------------------------------------
// Layer rules: imports from one part of the tree into another it must not know.

export const layerImports = (facts: Facts, rule: (typeof LAYER_RULES)[number]): Edge[] =>
  edgesOf(facts).filter((e) => inside(e.from, rule.from) && rule.to.some((t) => inside(e.target, t)))

// ---------------------------------------------------------------------------------------------------------------------
// SQL: which tables a string or template literal names. A table is named after `from`, `join`, `into`, `update` or
// `table` in a literal that reads as SQL (it has a clause such as select, where, join or values: "Hidden from users"
// is English), or as `table.column` with one of its columns (`listings.owner_user_id = ?`, a fragment composed into a
// query elsewhere; `listings.xlsx` names no column). Not seen: a table name kept in a variable and put into the SQL
// later (`from ${table}`).

/** Every table of db/schema.ts with its columns, plus the owned tables the schema file does not declare. */
export function tables(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const value of Object.values(schema)) {
    if (!is(value, SQLiteTable)) continue
    const config = getTableConfig(value)
    found.set(config.name, new Set(config.columns.map((c) => c.name)))
  }
  for (const table of Object.keys(TABLE_OWNERS)) if (!found.has(table)) found.set(table, new Set())
  return found
}

/** The tables declared in db/schema.ts, in its order (the figures list them so). */
export const schemaTables = (): string[] =>
  Object.values(schema)
    .filter((v) => is(v, SQLiteTable))
    .map((v) => getTableConfig(v as SQLiteTable).name)

const SQL_SHAPED = /\b(select|insert|update|delete|join|where|returning|values|set|order\s+by|group\s+by|limit|create|drop|alter)\b/i

export function tableMatcher(known: Map<string, Set<string>>) {
  const names = [...known.keys()].sort((a, b) => b.length - a.length).join('|')
  const named = new RegExp(`\\b(?:from|join|into|update|table)\\s+(${names})\\b`, 'gi')
  const qualified = new RegExp(`\\b(${names})\\.([a-z_][a-z0-9_]*)\\b`, 'gi')
  return (sql: string): string[] => {
    const found = new Set<string>()
    if (SQL_SHAPED.test(sql)) for (const m of sql.matchAll(named)) found.add(m[1]!.toLowerCase())
    for (const m of sql.matchAll(qualified)) if (known.get(m[1]!.toLowerCase())?.has(m[2]!.toLowerCase())) found.add(m[1]!.toLowerCase())
    return [...found]
  }
}

/** One literal naming a table. */
export type SqlSite = { file: string; line: number; table: string; text: string }

export function sqlSites(facts: Facts, known = tables()): SqlSite[] {
  const match = tableMatcher(known)
  const sites: SqlSite[] = []
  for (const f of facts.values()) for (const l of f.literals) for (const table of match(l.text)) sites.push({ file: f.file, line: l.line, table, text: l.text })
  return sites
}

const snippet = (sql: string) => {
  const s = sql.replace(/\s+/g, ' ').trim()
  return s.length > 100 ? `${s.slice(0, 97)}...` : s
}

// ---------------------------------------------------------------------------------------------------------------------
// Violations, each with the key the baseline lists it by (stable when lines move) and a message saying what to do.

export type Violation = { rule: string; key: string; message: string }

export type Findings = {
  cycles: Cycle[]
  /** Rule id → its violations (cycles included, one per cycle). */
  byRule: Map<string, Violation[]>
}

export const cycleKey = (files: string[]) => files.join(' ')

export function findViolations(facts: Facts, known = tables()): Findings {
  const byRule = new Map<string, Violation[]>()
  const cycles = importCycles(facts)
  byRule.set(
    CYCLE_RULE.id,
    cycles.map((c) => ({
      rule: CYCLE_RULE.id,
      key: cycleKey(c.files),
      message: `a loop of ${c.files.length} files, closed by these imports among them:\n${c.edges.map((e) => `      ${describeEdge(e)}`).join('\n')}`,
    })),
  )
  for (const rule of LAYER_RULES) {
    // One violation per pair of files, however many imports join them (`import type` and `import` of one file).
    const pairs = new Map<string, Violation>()
    for (const e of layerImports(facts, rule)) {
      const key = `${e.from} -> ${e.target}`
      const line = `${describeEdge(e)} ('${e.specifier}')`
      const seen = pairs.get(key)
      pairs.set(key, seen ? { ...seen, message: `${seen.message}\n    - ${line}` } : { rule: rule.id, key, message: line })
    }
    byRule.set(rule.id, [...pairs.values()])
  }
  const sql = new Map<string, SqlSite[]>()
  for (const site of sqlSites(facts, known)) {
    const owner = TABLE_OWNERS[site.table]
    if (!owner || !SQL_RULE.appliesTo.some((d) => inside(site.file, d))) continue
    // In its owner: a feature's own tables only in its store (a platform table anywhere in the platform).
    if (inside(site.file, owner) && (!owner.startsWith('src/modules/') || isStore(site.file, owner))) continue
    const key = `${site.file}: ${site.table}`
    sql.set(key, [...(sql.get(key) ?? []), site])
  }
  byRule.set(
    SQL_RULE.id,
    [...sql.entries()].map(([key, sites]) => {
      const { file, table } = sites[0]!
      const owner = TABLE_OWNERS[table]!
      const store = owner.startsWith('src/modules/') ? `${owner}/store.ts` : owner
      if (inside(file, owner))
        return {
          rule: SQL_RULE.id,
          key,
          message:
            `${file} names table ${table} in SQL outside its feature's store: ` +
            sites.map((s) => `line ${s.line} \`${snippet(s.text)}\``).join('; ') +
            `\n      Fix: move the statement into a function of ${store} (or a file of ${owner}/store/) and call it`,
        }
      return {
        rule: SQL_RULE.id,
        key,
        message:
          `${file} names table ${table} in SQL, and ${table} belongs to ${owner}: ` +
          sites.map((s) => `line ${s.line} \`${snippet(s.text)}\``).join('; ') +
          `\n      Fix: call (or add) a function of ${store} that does this, or compose a SQL fragment ${store} exports; ` +
          `if ${file} is where ${table} belongs, change its owner in scripts/architecture/rules.ts`,
      }
    }),
  )
  return { cycles, byRule }
}

// ---------------------------------------------------------------------------------------------------------------------
// The baseline: the violations known when issue 31 began. A violation not in it fails; an entry that no longer occurs
// fails too, so the file only shrinks. A cycle is listed by its files: a smaller loop within a listed one is known
// (the redesign cutting it down), but the entry must then be narrowed to what is left.

/** Rule id → its known violations by key (a cycle's key: its files joined by spaces). */
export type Baseline = { about: string; violations: Record<string, string[]> }

/** In the file a cycle is a list of files, easier to read and to edit than one long key. */
type BaselineFile = { about: string; violations: Record<string, (string | string[])[]> }

export function readBaseline(root: string): Baseline {
  const file = JSON.parse(readFileSync(join(root, BASELINE_FILE), 'utf8')) as BaselineFile
  const violations: Record<string, string[]> = {}
  for (const [rule, entries] of Object.entries(file.violations)) {
    if (!RULE_IDS.includes(rule)) throw new Error(`${BASELINE_FILE}: no rule is called "${rule}" (the rules: ${RULE_IDS.join(', ')})`)
    violations[rule] = entries.map((e) => (Array.isArray(e) ? cycleKey([...e].sort()) : e))
  }
  return { about: file.about, violations }
}

export const baselineText = (b: Baseline): string => {
  const file: BaselineFile = { about: b.about, violations: {} }
  for (const rule of RULE_IDS) file.violations[rule] = (b.violations[rule] ?? []).map((e) => (rule === CYCLE_RULE.id ? e.split(' ') : e))
  return `${JSON.stringify(file, null, 2)}\n`
}

export const RULE_IDS = [CYCLE_RULE.id, ...LAYER_RULES.map((r) => r.id), SQL_RULE.id]

export type Comparison = {
  /** Rule id → violations the baseline does not list. */
  fresh: Map<string, Violation[]>
  /** Baseline entries to remove or narrow, each with what to do. */
  stale: { rule: string; entry: string; now: string[] }[]
}

export function compare(found: Findings, baseline: Baseline): Comparison {
  const fresh = new Map<string, Violation[]>()
  const stale: Comparison['stale'] = []
  for (const rule of RULE_IDS) {
    const listed = baseline.violations[rule] ?? []
    const current = found.byRule.get(rule) ?? []
    if (rule === CYCLE_RULE.id) {
      const listedSets = listed.map((entry) => new Set(entry.split(' ')))
      const within = (files: string[], set: Set<string>) => files.every((f) => set.has(f))
      fresh.set(
        rule,
        found.cycles
          .filter((c) => !listedSets.some((set) => within(c.files, set)))
          .map((c) => {
            const v = current.find((x) => x.key === cycleKey(c.files))!
            const nearest = listedSets.find((set) => c.files.some((f) => set.has(f)))
            const beyond = nearest ? c.files.filter((f) => !nearest.has(f)) : []
            return beyond.length ? { ...v, message: `${v.message}\n      (a known loop that grew: these files joined it: ${beyond.join(', ')})` } : v
          }),
      )
      listed.forEach((entry, i) => {
        const contained = found.cycles.filter((c) => within(c.files, listedSets[i]!)).map((c) => cycleKey(c.files))
        if (contained.length !== 1 || contained[0] !== entry) stale.push({ rule, entry, now: contained })
      })
    } else {
      const keys = new Set(current.map((v) => v.key))
      fresh.set(
        rule,
        current.filter((v) => !listed.includes(v.key)),
      )
      for (const entry of listed) if (!keys.has(entry)) stale.push({ rule, entry, now: [] })
    }
  }
  return { fresh, stale }
}

/** The baseline with what no longer occurs taken out and shrunk cycles narrowed; never a new entry. */
export function pruned(baseline: Baseline, comparison: Comparison): Baseline {
  const violations: Record<string, string[]> = {}
  for (const rule of RULE_IDS) {
    const entries: string[] = []
    for (const entry of baseline.violations[rule] ?? []) {
      const s = comparison.stale.find((x) => x.rule === rule && x.entry === entry)
      if (!s) entries.push(entry)
      else for (const now of s.now) if (!entries.includes(now)) entries.push(now)
    }
    violations[rule] = entries
  }
  return { about: baseline.about, violations }
}

/** The failure text of one rule's new violations: which import or SQL site broke it, and how to fix it. */
export function explainFresh(rule: string, violations: Violation[]): string {
  if (violations.length === 0) return ''
  const layer = LAYER_RULES.find((r) => r.id === rule)
  const title = layer?.title ?? (rule === CYCLE_RULE.id ? CYCLE_RULE.title : SQL_RULE.title)
  const lines = [`${violations.length} new violation${violations.length === 1 ? '' : 's'} of the rule "${title}" [${rule}]:`]
  for (const v of violations) lines.push(`  - ${v.message}`)
  if (layer) lines.push(`Why: ${layer.why}.`, `Fix: ${layer.fix}.`)
  if (rule === CYCLE_RULE.id) lines.push(`Fix: ${CYCLE_RULE.fix}.`)
  lines.push(`(${BASELINE_FILE} lists the violations known when issue 31 began; it only shrinks: do not add to it.)`)
  return lines.join('\n')
}

export function explainStale(stale: Comparison['stale']): string {
  if (stale.length === 0) return ''
  const lines = [`${BASELINE_FILE} lists violations that no longer occur as listed (fixed: well done). Update it so it only shrinks (bun run architecture --prune does this):`]
  for (const s of stale)
    lines.push(
      s.now.length === 0
        ? `  - remove from "${s.rule}": ${s.entry}`
        : `  - in "${s.rule}", the loop shrank: replace\n      ${s.entry}\n    with ${s.now.map((n) => `\n      ${n}`).join('')}`,
    )
  return lines.join('\n')
}
