// The figures of issue 31's "before and after", as text: what `bun run architecture` prints.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { compare, findViolations, importCycles, layerImports, readBaseline, RULE_IDS, sqlSites, tableMatcher, tables, type Facts, type SqlSite } from './check'
import { inside, isStore, LAYER_RULES, moduleOf, TABLE_COMPONENT, TABLE_OWNERS, USER_DIALOG } from './rules'
import type { Trace, TracedFile } from './trace-plan'

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** Where a file counts in the SQL figures: its module, the platform, or its folder. */
const groupOf = (file: string) => moduleOf(file) ?? (inside(file, 'src/platform') ? 'src/platform' : dirname(file))

export function cyclesSection(facts: Facts): string[] {
  const all = importCycles(facts)
  const runtime = new Map([...facts].map(([file, f]) => [file, { ...f, imports: f.imports.filter((i) => !i.typeOnly) }]))
  const atRunTime = importCycles(runtime)
  const out = [`Import cycles (src/, db/, islands/; type-only and dynamic imports count): ${all.length}`]
  for (const c of all) out.push(`  a loop of ${plural(c.files.length, 'file')}, ${plural(c.edges.length, 'import')} among them:`, ...c.files.map((f) => `    ${f}`))
  out.push(`  Of these, loops by run-time imports alone (without \`import type\`): ${atRunTime.length}${atRunTime.length ? ` (of ${atRunTime.map((c) => c.files.length).join(', ')} files)` : ''}`)
  return out
}

export function layerSection(facts: Facts): string[] {
  const out: string[] = []
  const titles: Record<string, string> = {
    'platform-imports-module': 'Platform → module imports (src/platform/** importing src/modules/**)',
    'db-imports-module': 'db → module imports (db/** importing src/modules/**)',
    'island-imports-platform-or-db': 'Islands → platform or db imports (islands/** importing src/platform/** or db/**)',
    'shared-imports-app': 'Shared → platform, module or db imports (src/shared/** importing src/platform/**, src/modules/** or db/**)',
  }
  for (const rule of LAYER_RULES) {
    const edges = layerImports(facts, rule)
    const files = new Set(edges.map((e) => e.from))
    out.push(`${titles[rule.id] ?? rule.title}: ${edges.length}${edges.length ? `, from ${plural(files.size, 'file')}` : ''}`)
    for (const e of edges) out.push(`  ${e.from}:${e.line} → ${e.target}${e.typeOnly ? ' (type only)' : ''}`)
  }
  return out
}

const lineList = (lines: number[]) => `${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}`

export function dialectSection(facts: Facts): string[] {
  const files = [...facts.values()].filter((f) => moduleOf(f.file) && f.dialect.length > 0)
  const uses = (kind: string) => files.flatMap((f) => f.dialect.filter((d) => d.kind === kind).map(() => f.file))
  const branching = files.filter((f) => f.dialect.some((d) => d.kind !== 'pass'))
  const summary = (kind: string, one: string) => `${plural(uses(kind).length, one)} in ${plural(new Set(uses(kind)).size, 'file')}`
  const out = [
    `Module files branching on the dialect (src/modules/**: a test such as \`db.dialect === 'postgres'\` or a switch on it, or a call of a db/dialect.ts helper): ${branching.length}`,
    `  ${summary('test', 'test')}; ${summary('helper', 'helper call')}; besides, ${summary('pass', 'read')} of \`.dialect\` handing it on to a function that branches`,
  ]
  for (const f of files) {
    const n = (kind: string) => f.dialect.filter((d) => d.kind === kind).map((d) => d.line)
    const parts = [
      n('test').length && `${plural(n('test').length, 'test')} (${lineList(n('test'))})`,
      n('helper').length && `${plural(n('helper').length, 'helper call')} (${lineList(n('helper'))})`,
      n('pass').length && `${plural(n('pass').length, 'read passed on', 'reads passed on')} (${lineList(n('pass'))})`,
    ].filter(Boolean)
    out.push(`  ${f.file}: ${parts.join('; ')}`)
  }
  return out
}

/** The derived SQL files of db/ (not the migrations, which copy them): SQL sites too, one per file. */
function sqlFileSites(root: string, known: ReturnType<typeof tables>): SqlSite[] {
  const match = tableMatcher(known)
  const sites: SqlSite[] = []
  for (const dir of ['db/sqlite', 'db/pg'])
    for (const name of readdirSync(join(root, dir)).filter((n) => n.endsWith('.sql')).sort()) {
      const text = readFileSync(join(root, dir, name), 'utf8')
      for (const table of match(text)) sites.push({ file: `${dir}/${name}`, line: 0, table, text: '' })
    }
  return sites
}

export function sqlSection(root: string, facts: Facts): string[] {
  const known = tables()
  const sites = [...sqlSites(facts, known), ...sqlFileSites(root, known)]
  const out = [
    'SQL sites per table (a site: a string or template literal naming the table after from/join/into/update/table, or as table.column; a db/ .sql file counts once)',
    '  each table: its owner (scripts/architecture/rules.ts); its files in src/modules/, the platform and db/; then by folder, the files naming it (sites in each)',
  ]
  let outsideOwner = 0
  let outsideStore = 0
  for (const table of [...known.keys()].sort()) {
    const mine = sites.filter((s) => s.table === table)
    const owner = TABLE_OWNERS[table] ?? '(no owner)'
    const files = [...new Set(mine.map((s) => s.file))]
    const inModules = files.filter((f) => moduleOf(f))
    const foreign = files.filter((f) => inside(f, 'src') && !inside(f, owner))
    const unstored = owner.startsWith('src/modules/') ? files.filter((f) => inside(f, owner) && !isStore(f, owner)) : []
    outsideOwner += foreign.length
    outsideStore += unstored.length
    out.push(
      `  ${table} (${owner}): ${plural(mine.length, 'site')} in ${plural(files.length, 'file')}: ` +
        `${inModules.length} in ${plural(new Set(inModules.map(moduleOf)).size, 'module')}, ${files.filter((f) => inside(f, 'src/platform')).length} in the platform, ` +
        `${files.filter((f) => inside(f, 'db')).length} in db/; ${foreign.length} in src/ outside its owner` +
        (owner.startsWith('src/modules/') ? `, ${unstored.length} in its module outside its store` : ''),
    )
    const groups = [...new Set(files.map(groupOf))].sort()
    for (const g of groups) {
      const inGroup = files.filter((f) => groupOf(f) === g).sort()
      out.push(`    ${g}: ${inGroup.map((f) => `${f.slice(g.length + 1) || f} (${mine.filter((s) => s.file === f).length})`).join(', ')}`)
    }
  }
  out.push(`  In all: ${outsideOwner} (table, file) pairs name a table in src/ outside its owner; ${outsideStore} in the owning module outside its store`)
  return out
}

export function traceSection(trace: Trace | null): string[] {
  if (!trace) return ['Files a listing create passes through: not traced this run (--no-trace)']
  const traced = trace.files
  const folders = [...new Set(traced.map((t) => dirname(t.file)))].sort()
  const functions = (t: TracedFile) => new Set([...t.down, ...t.back].filter((f) => f !== '(module)')).size
  const total = traced.reduce((n, t) => n + functions(t), 0)
  const down = traced.filter((t) => t.down.length > 0).length
  const back = traced.filter((t) => t.back.length > 0).length
  const feed = Object.entries(trace.feed)
  const out = [
    `Files a listing create passes through (POST /api/listings run and traced in process, scripts/architecture/trace.ts): ${plural(traced.length, 'file')} in ${plural(folders.length, 'folder')}, ${plural(total, 'function')}`,
    `  on the way down (request to answer): ${plural(down, 'file')}; on the way back (after the answer, until the new match and the saved-search alert have reached the open event stream): ${plural(back, 'file')}; both ways: ${traced.filter((t) => t.down.length && t.back.length).length}`,
    `  change-feed rows the create and its reactions wrote: ${feed.reduce((n, [, c]) => n + c, 0)} (${feed.map(([topic, n]) => `${topic} ${n}`).join(', ')})`,
  ]
  for (const folder of folders) {
    out.push(`  ${folder}/`)
    for (const t of traced.filter((x) => dirname(x.file) === folder)) {
      const phases = [t.down.length && `down ${t.down.length}`, t.back.length && `back ${t.back.length}`].filter(Boolean).join(', ')
      out.push(`    ${t.file.slice(folder.length + 1)} (${phases}): ${[...new Set([...t.down, ...t.back])].join(', ')}`)
    }
  }
  return out
}

export function linesSection(facts: Facts): string[] {
  const out: string[] = []
  for (const [title, pattern] of [
    ['Lines of the table components (islands/**/*Table.tsx)', TABLE_COMPONENT],
    ['Lines of the user dialogs (islands/**/*User*Dialog.tsx)', USER_DIALOG],
  ] as const) {
    const files = [...facts.values()].filter((f) => pattern.test(f.file)).sort((a, b) => a.file.localeCompare(b.file))
    out.push(`${title}: ${files.reduce((n, f) => n + f.lines, 0)} in ${plural(files.length, 'file')}`)
    for (const f of files) out.push(`  ${f.file}: ${f.lines}`)
  }
  return out
}

export function rulesSection(root: string, facts: Facts): string[] {
  const found = findViolations(facts)
  const baseline = readBaseline(root)
  const { fresh, stale } = compare(found, baseline)
  const out = ['Architecture rules (tests/unit/architecture.test.ts): violations now / listed in docs/architecture-baseline.json']
  for (const rule of RULE_IDS)
    out.push(`  ${rule}: ${(found.byRule.get(rule) ?? []).length} / ${(baseline.violations[rule] ?? []).length}${fresh.get(rule)?.length ? `, ${fresh.get(rule)!.length} NEW` : ''}`)
  if (stale.length) out.push(`  ${plural(stale.length, 'baseline entry', 'baseline entries')} no longer as listed: bun run architecture --prune`)
  return out
}
