// `bun scripts/bench-pg-writes.ts [--writes 40] [--spin 4]`: how many turns of a busy event loop a listing write waits
// on PostgreSQL (issue 36, docs/decisions/053-one-round-trip.md). In process, on a throwaway PostgreSQL cluster
// (tests/support/postgres.ts): a broker's POSTs (near-copies, confirmed, as bench:http's writer sends them) and PATCHes
// (budget, details), one at a time, first with the event loop idle, then with every turn of it kept busy for --spin ms
// (as 64 connections keep it under bench:http's load). Each round trip to the database waits for a turn, so
// (busy − idle) ÷ spin is about the turns one write waits: on a shared machine far steadier than a latency under wrk.
// To compare two builds, run this file from each tree in turn.
import { parseArgs } from 'node:util'

process.env.BROKERNET_TEST_DATABASE = 'postgres'
const { values } = parseArgs({ options: { writes: { type: 'string', default: '40' }, spin: { type: 'string', default: '4' } } })
const WRITES = Number(values.writes)
const SPIN = Number(values.spin)

const { createTestApp } = await import('../tests/support/app')
const { signIn, withJson } = await import('../tests/support/auth')
const { seedPlace } = await import('../tests/support/fixtures')

const h = await createTestApp()
const place = await seedPlace(h.ctx.db, ['Pune'])
const broker = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })

let n = 0
const post = () =>
  h.request(
    '/api/listings/',
    withJson(broker.bearer, {
      post_type: n % 2 ? 'AVL' : 'REQ',
      sale_or_rent: 'SALE',
      contact_value: '9876500000',
      property_type: '2 BHK Apartment',
      locality: 'Baner',
      size: 900,
      budget: 5_000_000 + (n++ % 5) * 10_000,
      details: 'Bench write, near-copies of each other',
      confirm_duplicate: true,
    }),
  )
const ids: number[] = []
const patch = (i: number) => h.request(`/api/listings/${ids[i % ids.length]}`, withJson(broker.bearer, i % 2 ? { budget: 1_000_000 + i } : { details: `Edited ${i}` }, 'PATCH'))

async function timed(send: () => Promise<Response>, ok: number): Promise<number> {
  const at = performance.now()
  const res = await send()
  const ms = performance.now() - at
  if (res.status !== ok) throw new Error(`answered ${res.status}: ${await res.text()}`)
  const body = (await res.json()) as { id: number }
  if (ok === 201) ids.push(body.id)
  return ms
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function round(label: string): Promise<{ post: number; patch: number }> {
  const posts: number[] = []
  const patches: number[] = []
  // Spaced as bench:http's writer spaces them: a post's matches are announced after its answer (a drain that locks the
  // listings it pairs, docs/decisions/026-shared-work-on-postgres.md), and an edit of one of them right then waits for it.
  for (let i = 0; i < WRITES; i++) {
    posts.push(await timed(post, 201))
    await Bun.sleep(100)
    patches.push(await timed(() => patch(i), 200))
    await Bun.sleep(100)
  }
  const r = { post: median(posts), patch: median(patches) }
  console.log(`${label}: POST median ${r.post.toFixed(1)} ms, PATCH median ${r.patch.toFixed(1)} ms`)
  return r
}

// Warm-up (prepared statements, JIT), then idle and busy rounds.
await round('warm-up')
const idle = await round('idle loop')
let spinning = true
const spin = () => {
  if (!spinning) return
  const at = performance.now()
  while (performance.now() - at < SPIN);
  setImmediate(spin)
}
setImmediate(spin)
const busy = await round(`busy loop (${SPIN} ms a turn)`)
spinning = false
console.log(
  `turns a write waits ≈ (busy − idle) ÷ ${SPIN} ms: POST ${((busy.post - idle.post) / SPIN).toFixed(1)}, PATCH ${((busy.patch - idle.patch) / SPIN).toFixed(1)}`,
)
await h.close()
process.exit(0)
