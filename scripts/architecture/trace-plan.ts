// Runs ./trace.ts in a process of its own (its loader rewrites the app's files, which must not happen to this one) and
// reads back which files and functions a listing create ran.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FunctionBody, SourceFacts } from './source'

export type TracePlan = { root: string; files: { file: string; length: number; functions: FunctionBody[] }[] }
export type TraceResult = {
  down: { file: number; fn: number }[]
  back: { file: number; fn: number }[]
  /** Rows the create and its reactions appended to the change feed, by topic. */
  feed: Record<string, number>
}

/** One file the create ran code of: its functions that ran (`(module)`: it was loaded meanwhile), on the way down or back. */
export type TracedFile = { file: string; down: string[]; back: string[] }

export type Trace = { files: TracedFile[]; feed: Record<string, number> }

/** The folders traced: the server's code and its data layer (islands run in the browser, not in a create). */
export const TRACED = ['src/', 'db/']

export async function traceListingCreate(root: string, facts: Map<string, SourceFacts>): Promise<Trace> {
  const files = [...facts.values()]
    .filter((f) => TRACED.some((d) => f.file.startsWith(d)) && f.functions)
    .map((f) => ({ file: f.file, length: 0, functions: f.functions! }))
  for (const f of files) f.length = (await Bun.file(join(root, f.file)).text()).length
  const dir = mkdtempSync(join(tmpdir(), 'brokernet-trace-'))
  try {
    const planFile = join(dir, 'plan.json')
    const resultFile = join(dir, 'result.json')
    await Bun.write(planFile, JSON.stringify({ root, files } satisfies TracePlan))
    const child = Bun.spawn([process.execPath, join(root, 'scripts/architecture/trace.ts'), planFile, resultFile], { cwd: root, stdout: 'inherit', stderr: 'inherit' })
    if ((await child.exited) !== 0) throw new Error(`the listing create trace failed (exit ${child.exitCode})`)
    const result = (await Bun.file(resultFile).json()) as TraceResult
    const traced = new Map<string, TracedFile>()
    for (const phase of ['down', 'back'] as const)
      // In the order of the file, whatever order they ran in.
      for (const { file, fn } of [...result[phase]].sort((a, b) => a.file - b.file || a.fn - b.fn)) {
        const f = files[file]!
        const entry = traced.get(f.file) ?? { file: f.file, down: [], back: [] }
        traced.set(f.file, entry)
        const name = fn < 0 ? '(module)' : `${f.functions[fn]!.name}:${f.functions[fn]!.line}`
        if (!entry[phase].includes(name)) entry[phase].push(name)
      }
    return { files: [...traced.values()].sort((a, b) => a.file.localeCompare(b.file)), feed: result.feed }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
