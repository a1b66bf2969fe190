// The server's memory during `bun run bench:http` (issue 36: each process ≤ 300 MB RSS, at 1M and 5M listings).
//
// Every process of the binary is sampled from /proc: the primary, the workers it starts (BROKERNET_WORKER in their
// environment) and anything else under it (the image process). A sampler reads each one's resident set twice a second
// while the run goes on (the highest is kept), and `mark(label)` records the set at a moment worth naming (the server
// started, a mix warmed up, a scenario done). Linux only: elsewhere nothing is sampled and nothing is printed.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Issue 36: each process's resident set at most this (MB), at 5,000,000 listings too. */
export const RSS_GOAL_MB = 300
const PAGE = 4096

/** Pid → parent pid of every process now (one read of /proc/<pid>/stat each). */
function parents(): Map<number, number> {
  const out = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after its last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      out.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {} // gone meanwhile
  }
  return out
}

/** A process's resident set in bytes (statm's second field, in pages), or undefined once it has exited. */
function rss(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE
  } catch {
    return undefined
  }
}

/**
 * The resident set's two parts, in bytes (docs/decisions/071-native-memory.md): anonymous (the allocator's arena, where
 * JavaScriptCore's heap, SQLite's caches and every buffer live; the JIT's code) and file pages (the binary's code and
 * embedded files as they are read: 55-60 MB of every peak at 1M listings, the same at any size, shared between the
 * processes and given back under pressure). Read at each process's highest sample, to tell which part made it.
 */
function parts(pid: number): { anon: number; file: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) * 1024
    return { anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') }
  } catch {
    return undefined
  }
}

/**
 * The anonymous part of the resident set (the heaps: JavaScript's, SQLite's caches, malloc's), in bytes. The rest is
 * file pages (the executable's code and embedded files as they are read, mapped database pages): shared with the
 * kernel's page cache, given back under pressure, and the same at any number of listings.
 */
function anon(pid: number): number | undefined {
  try {
    const kb = /^RssAnon:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

/** What a process is: the primary, worker N, or its program's name. */
function nameOf(pid: number, rootPid: number, prefix: string): string {
  if (pid === rootPid) return `${prefix}primary`
  try {
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
    const worker = env.find((e) => e.startsWith('BROKERNET_WORKER='))
    if (worker) return `${prefix}worker ${worker.split('=')[1]}`
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    return `${prefix}${argv0.at(-1)?.split('/').at(-1) ?? pid}`
  } catch {
    return `${prefix}pid ${pid}`
  }
}

const mbText = (bytes: number | undefined) => (bytes === undefined ? '' : `${Math.round(bytes / 1024 / 1024)} MB`)

export class RssWatch {
  private readonly names = new Map<number, string>()
  private readonly peak = new Map<number, number>()
  /** Each process's anonymous and file-backed parts at its highest sample. */
  private readonly peakParts = new Map<number, { anon: number; file: number }>()
  /** The highest since the last mark: where in the run a peak came. */
  private peakSince = new Map<number, number>()
  private readonly marks: { label: string; rss: Map<number, number>; anon: Map<number, number>; highest: Map<number, number> }[] = []
  private timer: Timer | undefined
  readonly available = existsSync('/proc/self/statm')

  /** `roots`: the binaries' pids (one per instance), each named with `prefix(i)` when there are several. */
  constructor(private readonly roots: () => number[]) {}

  /** Every process under the roots, now (found afresh each time: a worker restarted has a new pid). */
  private processes(): number[] {
    const tree = parents()
    const roots = this.roots()
    const out: number[] = []
    roots.forEach((root, i) => {
      const prefix = roots.length > 1 ? `instance ${i + 1} ` : ''
      const walk = (pid: number) => {
        if (!this.names.has(pid)) this.names.set(pid, nameOf(pid, root, prefix))
        out.push(pid)
        for (const [child, parent] of tree) if (parent === pid) walk(child)
      }
      if (tree.has(root)) walk(root)
    })
    return out
  }

  private sample(): Map<number, number> {
    const now = new Map<number, number>()
    for (const pid of this.processes()) {
      const bytes = rss(pid)
      if (bytes === undefined) continue
      now.set(pid, bytes)
      if (bytes > (this.peak.get(pid) ?? 0)) {
        const split = parts(pid)
        if (split) this.peakParts.set(pid, split)
      }
      this.peak.set(pid, Math.max(this.peak.get(pid) ?? 0, bytes))
      this.peakSince.set(pid, Math.max(this.peakSince.get(pid) ?? 0, bytes))
    }
    return now
  }

  start(everyMs = 500): this {
    if (this.available && !this.timer) this.timer = setInterval(() => this.sample(), everyMs)
    return this
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Records every process's resident set now, under `label`. */
  mark(label: string): void {
    if (!this.available || !this.roots().length) return
    const now = this.sample()
    const highest = this.peakSince
    this.peakSince = new Map()
    // BROKERNET_MEMORY_PROBE (src/platform/memory-probe.ts): every process also writes what its heap holds, under this label.
    const probe = process.env.BROKERNET_MEMORY_PROBE
    if (probe) {
      mkdirSync(probe, { recursive: true })
      writeFileSync(join(probe, 'label'), label)
      // The binary's own processes only (the probe's handler is theirs; SIGUSR2 would end another program).
      for (const pid of now.keys()) if (/primary|worker/.test(this.names.get(pid) ?? '')) process.kill(pid, 'SIGUSR2')
    }
    this.marks.push({ label, rss: now, highest, anon: new Map([...now.keys()].flatMap((pid) => { const a = anon(pid); return a === undefined ? [] : [[pid, a] as const] })) })
  }

  /** The footer: one row per mark and the highest seen, one column per process; empty when nothing was sampled. */
  table(): string[] {
    if (!this.marks.length) return []
    const pids = [...this.names.keys()].filter((pid) => this.peak.has(pid))
    const head = `| Memory (RSS, from /proc, at the moment; in brackets its anonymous part, the heaps; then the highest since the row before) | ${pids.map((p) => this.names.get(p)).join(' | ')} |`
    const lines = [head, `|---|${pids.map(() => '---|').join('')}`]
    const cell = (m: (typeof this.marks)[number], p: number) => (m.rss.has(p) ? `${mbText(m.rss.get(p))} (${mbText(m.anon.get(p)) || '?'}); ≤ ${mbText(m.highest.get(p))}` : '')
    for (const m of this.marks) lines.push(`| ${m.label} | ${pids.map((p) => cell(m, p)).join(' | ')} |`)
    const over = pids.filter((p) => this.peak.get(p)! > RSS_GOAL_MB * 1024 * 1024)
    lines.push(`| **highest during the run** (sampled twice a second) | ${pids.map((p) => `**${mbText(this.peak.get(p))}**`).join(' | ')} |`)
    const split = (p: number) => {
      const at = this.peakParts.get(p)
      return at ? `${mbText(at.anon)} anonymous, ${mbText(at.file)} file pages` : ''
    }
    lines.push(`| … of which, at that sample (from /proc/<pid>/status) | ${pids.map(split).join(' | ')} |`)
    lines.push(
      '',
      `Memory goal (issue 36): each process ≤ ${RSS_GOAL_MB} MB RSS: ${over.length ? `**missed** by ${over.map((p) => `${this.names.get(p)} (${mbText(this.peak.get(p))})`).join(', ')}` : 'met'}.`,
    )
    return lines
  }
}
