// The files a listing create passes through, as it runs: `bun run architecture` starts this file in a process of its
// own with a plan (./trace-plan.ts) naming every function body of src/ and db/. A loader rewrites each of those files
// as Bun loads it so that every function notes, when called, that it ran (and each module that it was loaded); then a
// real app (tests/support/app.ts: in process, a SQLite file) is set up with the world a create reacts to, and one
// create is traced from the request to the last reaction:
//   - a broker (Asha) posts an availability with POST /api/listings;
//   - another broker of the city (Ravi) has a requirement it matches, an INSTANT saved search it passes, his live
//     event stream open (GET /api/events), and the listing pages cached (he read GET /api/listings before);
//   - a first create, not traced, loads and warms what any create needs; the traced one is the second;
//   - "down" is everything that runs from the request until its answer; "back" what runs after it until Ravi's
//     stream has told him of the new match and of the saved-search alert, and the match queue is empty.
// Nothing here is timed: the trace ends on those events, whatever the machine's load.
import type { TracePlan, TraceResult } from './trace-plan'

const [planFile, resultFile] = process.argv.slice(2)
if (!planFile || !resultFile) throw new Error('usage: bun scripts/architecture/trace.ts PLAN.json RESULT.json')
const plan = (await Bun.file(planFile).json()) as TracePlan

type Phase = 'down' | 'back'
let phase: Phase | null = null
const ran = { down: new Set<number>(), back: new Set<number>() }
// file index × 2^16 + function index + 1 (0: the module's own code, run when it is loaded).
;(globalThis as unknown as { __archTrace: (file: number, fn: number) => void }).__archTrace = (file, fn) => {
  if (phase) ran[phase].add(file * 65536 + fn + 1)
}

const byPath = new Map(plan.files.map((f, i) => [`${plan.root}/${f.file}`, i]))
Bun.plugin({
  name: 'architecture-trace',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async ({ path }) => {
      const i = byPath.get(path)
      const text = await Bun.file(path).text()
      if (i === undefined) return { contents: text, loader: path.endsWith('.tsx') ? 'tsx' : 'ts' }
      const f = plan.files[i]!
      if (text.length !== f.length) throw new Error(`${f.file} changed while it was being traced: run again`)
      return { contents: instrument(text, i, f.functions), loader: path.endsWith('.tsx') ? 'tsx' : 'ts' }
    })
  },
})

/** The file with a note at the start of each function body (an expression body becomes `(note, expression)`). */
function instrument(text: string, file: number, functions: TracePlan['files'][number]['functions']): string {
  const inserts: [number, string][] = [[0, `__archTrace(${file},-1);`]]
  functions.forEach((fn, j) => {
    if (fn.expression) inserts.push([fn.start, `(__archTrace(${file},${j}), `], [fn.end, ')'])
    else inserts.push([fn.start + 1, `__archTrace(${file},${j});`])
  })
  // From the end, so that each offset is still the original text's; at one offset an inner body's `)` comes first.
  inserts.sort((a, b) => b[0] - a[0])
  let out = text
  for (const [at, s] of inserts) out = out.slice(0, at) + s + out.slice(at)
  return out
}

const { createTestApp } = await import('../../tests/support/app')
const { signIn, withJson } = await import('../../tests/support/auth')
const { seedPlace } = await import('../../tests/support/fixtures')
const { eventStreamReader } = await import('../../tests/support/events')

const h = await createTestApp()
try {
  const city = (await seedPlace(h.ctx.db, ['Pune'])).cities[0]!.id
  const asha = await signIn(h.ctx.db, 'BROKER', { cityId: city, fullName: 'Asha Verma' })
  const ravi = await signIn(h.ctx.db, 'BROKER', { cityId: city, fullName: 'Ravi Kumar' })
  const post = async (as: typeof asha, body: Record<string, unknown>) => {
    const res = await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'RENT', contact_value: '9876543210', property_type: '2 BHK', ...body }))
    if (res.status !== 201) throw new Error(`POST /api/listings answered ${res.status}: ${await res.text()}`)
    return (await res.json()) as { id: number }
  }
  await post(ravi, { post_type: 'REQ', budget: 50_000, size: 600, locality: 'Baner', location: 'West' })
  const saved = await h.request('/api/saved-searches', withJson(ravi.browser, { name: 'Rentals', filters: { post_type: 'AVL' }, alert: 'INSTANT' }))
  if (saved.status !== 201) throw new Error(`POST /api/saved-searches answered ${saved.status}: ${await saved.text()}`)
  const abort = new AbortController()
  const stream = eventStreamReader(await h.request('/api/events', { headers: ravi.bearer, signal: abort.signal }))
  await stream.expect('matches', 60_000)
  // Two different offers (another locality and size: the second is no duplicate of the first), each fitting Ravi's need.
  const offer = (n: number) => ({ post_type: 'AVL', contact_value: `98765000${n}0`, budget: 48_000 - 4_000 * n, size: 600 + 100 * n, locality: ['Baner', 'Aundh'][n - 1], location: 'West', details: `Offer ${n}` })

  // The trace's own questions go to SQLite directly, past the data layer, so that they are not counted as the create's.
  const sqlite = h.db?.$client
  if (!sqlite) throw new Error('the trace runs on SQLite')
  const count = (sql: string, ...params: number[]) => (sqlite.query(sql).get(...params) as { n: number }).n

  /** Until Ravi has heard of the listing both ways (the alert, the match announced to him) and no announcement is left. */
  const settled = async (id: number) => {
    for (;;) {
      const alert = await stream.expect('saved_search', 60_000)
      if (alert.listing.id === id) break
    }
    for (;;) {
      const matches = (await stream.expect('matches', 60_000)) as { new: number[] }
      if (matches.new.some((entry) => count('select count(*) as n from listing_matches where id = ? and user_id = ? and ? in (listing_id, match_id)', entry, ravi.user.id, id) > 0)) break
    }
    const deadline = Date.now() + 60_000
    while (count('select count(*) as n from match_queue') > 0) {
      if (Date.now() > deadline) throw new Error('the match queue was not drained within a minute')
      await Bun.sleep(10)
    }
  }

  const readPages = async () => {
    const res = await h.request('/api/listings', { headers: ravi.bearer })
    if (res.status !== 200) throw new Error(`GET /api/listings answered ${res.status}`)
    await res.arrayBuffer()
  }

  // The first create loads and warms what every create needs; only the second is traced.
  await readPages()
  await settled((await post(asha, offer(1))).id)
  await readPages()
  const lastSeq = count('select coalesce(max(seq), 0) as n from change_feed')
  phase = 'down'
  const created = await post(asha, offer(2))
  phase = 'back'
  await settled(created.id)
  phase = null
  // What the create (and its reactions) appended to the change feed, by topic.
  const feed = sqlite.query('select topic, count(*) as n from change_feed where seq > ? group by topic order by topic').all(lastSeq) as { topic: string; n: number }[]
  abort.abort()
  await stream.cancel()

  const hits = (set: Set<number>) => [...set].map((k) => ({ file: Math.floor(k / 65536), fn: (k % 65536) - 1 }))
  const result: TraceResult = { down: hits(ran.down), back: hits(ran.back), feed: Object.fromEntries(feed.map((r) => [r.topic, r.n])) }
  await Bun.write(resultFile, JSON.stringify(result))
} finally {
  await h.close()
}
process.exit(0)
