// What a server process's resident set is made of, mapping by mapping, while something else drives it (issue 36,
// docs/decisions/071-native-memory.md). bench:http's memory table gives each process's RSS and its anonymous / file
// split; this says which mappings hold it: the allocator's arena (mimalloc reserves one 1 GiB mapping: JavaScriptCore's
// heap, SQLite's page caches and every buffer are in it), the binary's own pages, the JIT's executable mapping.
//
//   bun scripts/rss-maps.ts <path of the binary> <out.json> &   # then run bench:http with --binary <that path>
//
// Every 100 ms it reads /proc/<pid>/status of each process whose executable is that path (copy the binary to a path
// of its own: other runs on the machine may serve dist/brokernet), keeps each one's highest RSS with its RssAnon /
// RssFile / RssShmem, and each time that highest grows by 4 MB or more, the resident bytes of its mappings by kind
// (from /proc/<pid>/smaps). SIGINT or SIGTERM writes <out.json> and prints a summary. Linux only.
import { readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs'

const [given, out] = process.argv.slice(2)
if (!given || !out) throw new Error('usage: bun scripts/rss-maps.ts <binary path> <out.json>')
/** As /proc/<pid>/exe names it: absolute, links resolved. */
const binary = realpathSync(given)

const kb = (text: string, name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0)
const mb = (kbytes: number) => Math.round(kbytes / 102.4) / 10

type Seen = { name: string; highest: Record<string, number>; kinds: { atMB: number; kindsMB: Record<string, number> }[] }
const seen = new Map<number, Seen>()

/** The resident MB of a process's mappings, summed by what they are. */
function kinds(pid: number): Record<string, number> {
  const sums: Record<string, number> = {}
  const exe = readlinkSync(`/proc/${pid}/exe`)
  let kind = ''
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (head) {
      const size = (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1048576
      const [perms, path] = [head[3]!, head[4]!]
      kind = path === exe ? 'the binary' : path ? path.split('/').at(-1)! : perms.includes('x') ? 'anonymous, executable (JIT)' : size === 1024 ? "mimalloc's arena (a 1 GiB mapping)" : size > 1024 ? `anonymous, a ${Math.round(size / 1024)} GiB reservation` : 'anonymous, other'
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss) sums[kind] = (sums[kind] ?? 0) + Number(rss[1])
  }
  return Object.fromEntries(Object.entries(sums).filter(([, v]) => v >= 512).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, mb(v)]))
}

function sample() {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    try {
      if (readlinkSync(`/proc/${pid}/exe`) !== binary) continue
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      let s = seen.get(pid)
      if (!s) {
        const worker = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith('BROKERNET_WORKER='))
        seen.set(pid, (s = { name: worker ? `worker ${worker.split('=')[1]}` : 'primary', highest: {}, kinds: [] }))
      }
      const now = { Rss: kb(status, 'VmRSS'), RssAnon: kb(status, 'RssAnon'), RssFile: kb(status, 'RssFile'), RssShmem: kb(status, 'RssShmem'), Threads: kb(status, 'Threads') }
      if (now.Rss > (s.highest.Rss ?? 0)) {
        if (now.Rss - (s.highest.Rss ?? 0) >= 4096 || !s.kinds.length) s.kinds.push({ atMB: mb(now.Rss), kindsMB: kinds(pid) })
        s.highest = now
      }
    } catch {} // gone meanwhile, or not ours to read
  }
}

const timer = setInterval(sample, 100)
const finish = () => {
  clearInterval(timer)
  const result = [...seen].map(([pid, s]) => ({ pid, ...s }))
  writeFileSync(out, JSON.stringify(result, null, 1))
  for (const s of result) {
    const h = s.highest
    console.log(`${s.name} (${s.pid}): highest ${mb(h.Rss!)} MB = ${mb(h.RssAnon!)} anonymous + ${mb(h.RssFile!)} file + ${mb(h.RssShmem!)} shared`)
    console.log(`  mappings near it (at ${s.kinds.at(-1)?.atMB} MB): ${JSON.stringify(s.kinds.at(-1)?.kindsMB)}`)
  }
  process.exit(0)
}
process.on('SIGINT', finish)
process.on('SIGTERM', finish)
