// `bun run architecture`: the figures of issue 31's "before and after" for the tree as it is (docs/architecture-before.txt
// holds them for main when the issue began), and the upkeep of the architecture rules' baseline.
//   bun run architecture               the figures, with a traced listing create (about ten seconds)
//   bun run architecture --no-trace    the figures without the trace (a few seconds)
//   bun run architecture --check       only the rules against docs/architecture-baseline.json (what `bun run test` checks)
//   bun run architecture --prune       takes out of the baseline what no longer occurs (it never adds)
//   bun run architecture --write-baseline   writes every current violation into the baseline: for the lead only, when
//                                      merging work that predates the rules; the diff shows each entry it adds
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { baselineText, compare, explainFresh, explainStale, findViolations, pruned, readBaseline, RULE_IDS, type Baseline } from './architecture/check'
import { cyclesSection, dialectSection, layerSection, linesSection, rulesSection, sqlSection, traceSection } from './architecture/figures'
import { APP_DIRS, readSources } from './architecture/source'
import { traceListingCreate } from './architecture/trace-plan'
import { BASELINE_FILE } from './architecture/rules'

const root = join(import.meta.dir, '..')
const args = new Set(process.argv.slice(2))
const known = ['--no-trace', '--check', '--prune', '--write-baseline']
for (const a of args) if (!known.includes(a)) throw new Error(`unknown option ${a}: ${known.join(', ')}`)

const facts = await readSources({ root, dirs: APP_DIRS, withFunctions: !args.has('--no-trace') && !args.has('--check') && !args.has('--prune') && !args.has('--write-baseline') })

const writeBaseline = (b: Baseline) => writeFileSync(join(root, BASELINE_FILE), baselineText(b))

if (args.has('--check') || args.has('--prune') || args.has('--write-baseline')) {
  const found = findViolations(facts)
  if (args.has('--write-baseline')) {
    const about = readBaseline(root).about
    writeBaseline({ about, violations: Object.fromEntries(RULE_IDS.map((r) => [r, (found.byRule.get(r) ?? []).map((v) => v.key)])) })
    console.log(`${BASELINE_FILE}: every current violation written`)
    process.exit(0)
  }
  const baseline = readBaseline(root)
  const comparison = compare(found, baseline)
  if (args.has('--prune')) {
    writeBaseline(pruned(baseline, comparison))
    console.log(`${BASELINE_FILE}: ${comparison.stale.length} entries taken out or narrowed`)
    process.exit(0)
  }
  const text = [...RULE_IDS.map((r) => explainFresh(r, comparison.fresh.get(r) ?? [])), explainStale(comparison.stale)].filter(Boolean).join('\n\n')
  console.log(text || 'The architecture rules hold (no violation beyond the baseline, and no baseline entry left over).')
  process.exit(text ? 1 : 0)
}

const traced = args.has('--no-trace') ? null : await traceListingCreate(root, facts)
const git = (...a: string[]) => Bun.spawnSync(['git', ...a], { cwd: root }).stdout.toString().trim()
const changed = git('status', '--porcelain', '--', ...APP_DIRS) !== ''
const sections = [
  [
    `Brokernet architecture figures (issue 31), by \`bun run architecture\``,
    `src/, db/ and islands/ as in commit ${git('log', '-1', '--format=%h of %cs', '--', ...APP_DIRS)}${changed ? ', with uncommitted changes' : ''}`,
    `${facts.size} files read (.ts/.tsx), ${[...facts.values()].reduce((n, f) => n + f.lines, 0)} lines`,
  ],
  cyclesSection(facts),
  layerSection(facts),
  dialectSection(facts),
  sqlSection(root, facts),
  traceSection(traced),
  linesSection(facts),
  rulesSection(root, facts),
]
console.log(sections.map((s) => s.join('\n')).join('\n\n'))
