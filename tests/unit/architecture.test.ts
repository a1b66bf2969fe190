// The architecture rules of issue 31 (scripts/architecture/rules.ts) over the tree as it is: no import cycle, the
// platform and db/ know no feature, islands know neither the platform nor db/ (nor does src/shared/, which islands
// import), and a table is named in SQL only by the folder that owns it. Violations known when the redesign began are listed in docs/architecture-baseline.json; a test
// fails on one not listed there (saying which import or SQL site broke which rule, and how to fix it), and on an entry
// that no longer occurs, so the baseline only shrinks. The same files with a violation of each rule planted in memory
// show that each rule is enforced.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'bun:test'
import { compare, explainFresh, explainStale, findViolations, readBaseline, RULE_IDS, schemaTables, type Comparison } from '../../scripts/architecture/check'
import { CYCLE_RULE, LAYER_RULES, SQL_RULE, TABLE_OWNERS } from '../../scripts/architecture/rules'
import { readSources } from '../../scripts/architecture/source'

const root = join(import.meta.dir, '../..')

/** One violation of each rule, planted in memory (never written to disk) beside the real files. */
const PLANTED: Record<string, string> = {
  'src/platform/planted-platform.ts': "import { createListing } from '../modules/listings/service'\nexport const planted = createListing\n",
  'db/planted-db.ts': "import type { Listing } from '../src/modules/listings/model'\nexport type Planted = Listing\n",
  'islands/planted-island.ts': "import { holds } from '../src/platform/policy/permissions'\nimport type { Db } from '../db/sql'\nexport const planted = (db: Db) => [db, holds]\n",
  'src/shared/planted-shared.ts': "import type { Role } from '../platform/policy/permissions'\nexport type Planted = Role\n",
  'src/shared/planted-a.ts': "import { b } from './planted-b'\nexport const a = () => b\n",
  'src/shared/planted-b.ts': "import type { a } from './planted-a'\nexport const b = 1\nexport type B = typeof a\n",
  // Audit's table named from another feature, and by the audit feature outside its store; the same SQL in the audit
  // store, and English, are fine.
  'src/modules/saved-searches/planted-sql.ts': "export const planted = `select id\n  from audit_events where id = ?`\nexport const words = 'Hidden from audit_events'\n",
  'src/modules/audit/planted-service.ts': "export const planted = 'delete from audit_events where id = ?'\n",
  'src/modules/audit/store/planted-own.ts': "export const planted = 'select id from audit_events where id = ?'\n",
}

const everything = await readSources({ root, overlay: PLANTED })
const real = new Map([...everything].filter(([file]) => !(file in PLANTED)))
const baseline = readBaseline(root)
const comparison = compare(findViolations(real), baseline)

const titles: Record<string, string> = {
  [CYCLE_RULE.id]: CYCLE_RULE.title,
  [SQL_RULE.id]: SQL_RULE.title,
  ...Object.fromEntries(LAYER_RULES.map((r) => [r.id, r.title])),
}

/** A rule's failure: the text that says what broke it and how to fix it. */
const failure = (c: Comparison, rule: string) => explainFresh(rule, c.fresh.get(rule) ?? [])

describe('the architecture rules hold beyond the known violations', () => {
  for (const rule of RULE_IDS)
    test(titles[rule]!, () => {
      const text = failure(comparison, rule)
      if (text) throw new Error(text)
    })

  test('the baseline lists only violations that still occur, so it only shrinks', () => {
    const text = explainStale(comparison.stale)
    if (text) throw new Error(text)
  })

  test('every table of db/schema.ts has an owner, and every owner is a folder of the tree', () => {
    const missing = schemaTables().filter((t) => !TABLE_OWNERS[t])
    if (missing.length) throw new Error(`Tables without an owner: ${missing.join(', ')}. Name the folder that owns each in TABLE_OWNERS (scripts/architecture/rules.ts).`)
    expect(Object.entries(TABLE_OWNERS).filter(([, owner]) => !existsSync(join(root, owner)))).toEqual([])
  })
})

describe('a violation of each rule, planted, fails with the import or SQL site and the fix', () => {
  const planted = compare(findViolations(everything), baseline)
  const fresh = (rule: string) => (planted.fresh.get(rule) ?? []).map((v) => v.key)

  test('an import cycle', () => {
    expect(fresh(CYCLE_RULE.id)).toEqual(['src/shared/planted-a.ts src/shared/planted-b.ts'])
    const text = failure(planted, CYCLE_RULE.id)
    expect(text).toContain('src/shared/planted-a.ts:1 imports src/shared/planted-b.ts')
    expect(text).toContain('src/shared/planted-b.ts:1 imports src/shared/planted-a.ts (type only)')
    expect(text).toContain('Fix: cut one import of the loop')
  })

  test('platform → module', () => {
    expect(fresh('platform-imports-module')).toEqual(['src/platform/planted-platform.ts -> src/modules/listings/service.ts'])
    const text = failure(planted, 'platform-imports-module')
    expect(text).toContain("src/platform/planted-platform.ts:1 imports src/modules/listings/service.ts ('../modules/listings/service')")
    expect(text).toContain('Fix: invert it')
  })

  test('db → module, by a type-only import too', () => {
    expect(fresh('db-imports-module')).toEqual(['db/planted-db.ts -> src/modules/listings/model.ts'])
    expect(failure(planted, 'db-imports-module')).toContain('db/planted-db.ts:1 imports src/modules/listings/model.ts (type only)')
  })

  test('islands → platform and db', () => {
    expect(fresh('island-imports-platform-or-db')).toEqual(['islands/planted-island.ts -> src/platform/policy/permissions.ts', 'islands/planted-island.ts -> db/sql.ts'])
    expect(failure(planted, 'island-imports-platform-or-db')).toContain('Fix: move what the island needs')
  })

  test('shared → platform', () => {
    expect(fresh('shared-imports-app')).toEqual(['src/shared/planted-shared.ts -> src/platform/policy/permissions.ts'])
    expect(failure(planted, 'shared-imports-app')).toContain('src/shared/planted-shared.ts:1 imports src/platform/policy/permissions.ts (type only)')
  })

  test("SQL naming another feature's table, or its own outside its store; not in its store, not in English", () => {
    expect(fresh(SQL_RULE.id)).toEqual(['src/modules/saved-searches/planted-sql.ts: audit_events', 'src/modules/audit/planted-service.ts: audit_events'])
    const text = failure(planted, SQL_RULE.id)
    expect(text).toContain('src/modules/saved-searches/planted-sql.ts names table audit_events in SQL, and audit_events belongs to src/modules/audit: line 1 `select id from audit_events where id = ?`')
    expect(text).toContain('Fix: call (or add) a function of src/modules/audit/store.ts')
    expect(text).toContain("src/modules/audit/planted-service.ts names table audit_events in SQL outside its feature's store: line 1 `delete from audit_events where id = ?`")
  })

  test('a fixed violation left in the baseline fails until it is taken out', () => {
    const fixed = compare(findViolations(real), { ...baseline, violations: { ...baseline.violations, 'db-imports-module': [...(baseline.violations['db-imports-module'] ?? []), 'db/gone.ts -> src/modules/gone.ts'] } })
    expect(explainStale(fixed.stale)).toContain('remove from "db-imports-module": db/gone.ts -> src/modules/gone.ts')
  })
})
