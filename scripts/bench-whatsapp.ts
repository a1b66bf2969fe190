// `bun run bench -- --whatsapp-only` (also part of `bun run bench`): reading a 50-message WhatsApp paste (issue 18).
//  - the parser alone, in process, against the labelled set's Mumbai localities plus 2,000 more (a big city);
//  - POST /api/listings/parse through app.handle on a real SQLite file whose city has those 2,002 localities, while a
//    writer posts a listing every few milliseconds (reads are measured with writes going on), beside GET /api/health
//    in the same run (the floor);
//  - the cold read of a city's localities (once a minute per city), on the same database.
import { LocalityIndex, parsePaste } from '../src/modules/intake/parse'
import { localitiesOf } from '../src/modules/intake/localities'
import { PASTE_BUDGET } from '../src/shared/constants'
import { createTestApp } from '../tests/support/app'
import { signIn, withJson } from '../tests/support/auth'
import { insertRow } from '../tests/support/fixtures'
import { KNOWN_LOCALITIES, LABELLED } from '../tests/fixtures/whatsapp-labelled'
import { fmt, median, percentile } from './bench-stats'

const MESSAGES = 50
const SAMPLES = 300
const TARGET_MS = 50

/** The labelled set's pastes in order until they hold 50 messages (a non-listing paste counts as one). */
export function fiftyMessagePaste(): { text: string; messages: number } {
  const parts: string[] = []
  let messages = 0
  for (const p of LABELLED) {
    if (messages >= MESSAGES) break
    parts.push(p.text)
    messages += Math.max(1, p.expected.length)
  }
  return { text: parts.join('\n\n'), messages }
}

/** 2,000 made-up localities (two words each, a zone most of the time), deterministic. */
function bigCity(): { name: string; zone: (typeof KNOWN_LOCALITIES)[number]['zone'] }[] {
  const first = ['Shanti', 'Gokul', 'Ram', 'Sai', 'Laxmi', 'Ganesh', 'Hari', 'Shiv', 'Om', 'Krishna', 'Jai', 'Anand', 'Vijay', 'Sunder', 'Prem', 'Raj', 'Nav', 'Dev', 'Surya', 'Chandra']
  const second = ['Nagar', 'Park', 'Vihar', 'Colony', 'Enclave', 'Puram', 'Wadi', 'Pada', 'Gaon', 'Chowk']
  const zones = ['North', 'East', 'West', 'South', 'Central', 'Outskirts', null] as const
  const out: { name: string; zone: (typeof zones)[number] }[] = []
  for (let i = 0; out.length < 2000; i++) out.push({ name: `${first[i % 20]} ${second[Math.floor(i / 20) % 10]} ${Math.floor(i / 200) + 1}`, zone: zones[i % 7]! })
  return out
}

/**
 * Pastes made to be hard for a parser of regular expressions: a unit of one or two pieces (digits, separators, units,
 * cue words, headers, letters that change length in lower case…) repeated to 20,000 characters. A pattern that is
 * quadratic on a long run shows here (a paste of commas took a second before the patterns were bounded). Each is
 * timed at 5,000 and 20,000 characters: linear work costs 4 times as much.
 */
function adversarial(index: LocalityIndex) {
  const pieces = ['1', '9', ' ', 'k', ',', '.', '-', '/', 'L', 'Cr', 'lac', 'bhk', 'sq ft', 'Req', 'Avl', 'rent', '\n', '\n\n', '+91', '98200', '(', ')', ':', 'a', 'W ', '@', '📍', '₹', '1)', '*', 'x', 'http://', '.com', 'in ', 'to ', 'se ', 'İ', '😀', '?', '9 ', '45k ', '2BHK ', '30x40 ', 'e city ', 'Andheri West ', '[12/03/24, 10:15:32 AM] ', '12/03/2024, 10:15 am - ', 'Name: ']
  const best = (text: string) => {
    let ms = Infinity
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now()
      parsePaste(text, index)
      ms = Math.min(ms, performance.now() - t0)
    }
    return ms
  }
  const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)
  // Every piece alone and after each of a few others, timed once; the slowest twenty timed again, best of three.
  const units = pieces.flatMap((a) => ['', ' ', '\n', ',', 'k', 'W ', 'İ', '📍', 'se '].map((b) => a + b))
  const once = units.map((unit) => {
    const t0 = performance.now()
    parsePaste(fill(unit, 20_000), index)
    return { unit, ms: performance.now() - t0 }
  })
  const slowest = once.sort((x, y) => y.ms - x.ms).slice(0, 20)
  const timed = slowest.map(({ unit }) => ({ unit, ms: best(fill(unit, 20_000)), ratio: best(fill(unit, 20_000)) / Math.max(best(fill(unit, 5_000)), 0.05) }))
  const worst = timed.reduce((w, x) => (x.ms > w.ms ? x : w))
  const real = LABELLED.map((p) => p.text).join('\n\n').repeat(4).slice(0, 20_000)
  return { unit: worst.unit, ms: worst.ms, ratio: Math.max(...timed.map((x) => x.ratio)), cases: units.length, real: best(real) }
}

export async function whatsappRows(): Promise<{ lines: string[]; rows: { what: string; figure: string; target: string; met: boolean | null }[] }> {
  const lines: string[] = []
  const paste = fiftyMessagePaste()
  const localities = [...KNOWN_LOCALITIES, ...bigCity()]
  const index = new LocalityIndex(localities)
  for (let i = 0; i < 20; i++) parsePaste(paste.text, index)
  const alone: number[] = []
  let drafts = 0
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now()
    drafts = parsePaste(paste.text, index).length
    alone.push(performance.now() - t0)
  }
  lines.push(`whatsapp: a paste of ${paste.messages} messages (${paste.text.length.toLocaleString('en')} characters, ${drafts} drafts), ${localities.length.toLocaleString('en')} known localities`)
  lines.push(`  parser alone: ${fmt(median(alone))} / p99 ${fmt(percentile(alone, 99))}`)
  const worst = adversarial(index)
  lines.push(`  ${worst.cases} pastes of 20,000 characters made to be hard (a unit repeated): worst ${fmt(worst.ms)} (${JSON.stringify(worst.unit)}), 4 times longer costs ${worst.ratio.toFixed(1)} times as much at worst (linear: 4); a 20,000-character paste of real messages ${fmt(worst.real)}`)

  const h = await createTestApp()
  try {
    const now = Date.now()
    const country = await insertRow(h.ctx.db, 'countries', { name: 'India', code: 'IN', createdAt: now, updatedAt: now })
    const state = await insertRow(h.ctx.db, 'states', { name: 'Maharashtra', code: 'MH', countryId: country.id, createdAt: now, updatedAt: now })
    const city = await insertRow(h.ctx.db, 'cities', { name: 'Mumbai', stateId: state.id, createdAt: now, updatedAt: now })
    const broker = await signIn(h.ctx.db, 'BROKER', { cityId: city.id, fullName: 'Bench Paste' })
    // Many brokers paste, each within the characters a user may have read a minute (PASTE_BUDGET).
    const readers = await Promise.all(
      Array.from({ length: Math.ceil(((SAMPLES + 10) * paste.text.length) / (PASTE_BUDGET.chars * 0.8)) }, (_, i) => signIn(h.ctx.db, 'BROKER', { cityId: city.id, fullName: `Bench Reader ${i}` })),
    )
    await h.ctx.db.tx(async (tx) => {
      let n = 0
      for (const l of localities)
        await tx.run(
          `insert into listings (entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, budget, location, locality, status, date, owner_user_id, city_id, created_at, updated_at)
           values (?, 'AVL', 'RENT', '2 BHK', '98200 12345', 'Bench', 45000, ?, ?, 'ACTIVE', '2026-11-01', ?, ?, ?, ?)`,
          [`AVL-BEN-${String(++n).padStart(6, '0')}`, l.zone, l.name, broker.user.id, city.id, now, now],
        )
    })
    const cold: number[] = []
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now()
      await localitiesOf(h.ctx.db, city.id, now + (i + 1) * 3_600_000)
      cold.push(performance.now() - t0)
    }
    lines.push(`  the city's localities read cold (once a minute per city): ${fmt(median(cold))} / p99 ${fmt(percentile(cold, 99))}`)

    // A writer posting listings all along, as brokers do.
    let writing = true
    let written = 0
    let writeError = ""
    const writer = (async () => {
      while (writing) {
        const res = await h.request('/api/listings', withJson(broker.bearer, { post_type: 'REQ', sale_or_rent: 'RENT', contact_value: `98200 ${String(10000 + written).slice(-5)}`, property_type: '1 BHK', budget: 20_000 + written, locality: 'Shanti Nagar 1', confirm_duplicate: true }))
        if (res.status === 201) written++
        else if (!writeError) writeError = `${res.status} ${await res.text()}`
        await new Promise((r) => setImmediate(r))
      }
    })()
    let turn = 0
    const body = () => withJson(readers[turn++ % readers.length]!.bearer, { text: paste.text })
    const health: number[] = []
    const route: number[] = []
    for (let i = 0; i < 10; i++) await (await h.request('/api/listings/parse', body())).arrayBuffer()
    for (let i = 0; i < SAMPLES; i++) {
      // Let the writer's request in between: app.handle resolves without leaving the microtask queue.
      await new Promise((r) => setImmediate(r))
      let t0 = performance.now()
      await (await h.request('/api/health')).arrayBuffer()
      health.push(performance.now() - t0)
      t0 = performance.now()
      const res = await h.request('/api/listings/parse', body())
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`parse answered ${res.status}`)
      route.push(performance.now() - t0)
    }
    writing = false
    await writer
    if (writeError) lines.push(`  (a write failed: ${writeError.slice(0, 200)})`)
    lines.push(`  POST /api/listings/parse with ${written} listings posted meanwhile: ${fmt(median(route))} / p99 ${fmt(percentile(route, 99))}; GET /api/health (the floor) ${fmt(median(health))} / p99 ${fmt(percentile(health, 99))}; ratio of medians ${(median(route) / median(health)).toFixed(1)}`)
    return {
      lines,
      rows: [
        { what: `Parse a ${paste.messages}-message WhatsApp paste (parser alone, ${localities.length} localities)`, figure: `${fmt(median(alone))} / ${fmt(percentile(alone, 99))}`, target: `≤ ${TARGET_MS} ms`, met: percentile(alone, 99) <= TARGET_MS },
        { what: `POST /api/listings/parse, ${paste.messages} messages, writes going on`, figure: `${fmt(median(route))} / ${fmt(percentile(route, 99))}`, target: `≤ ${TARGET_MS} ms`, met: percentile(route, 99) <= TARGET_MS },
        { what: 'A city’s localities read cold (once a minute)', figure: `${fmt(median(cold))} / ${fmt(percentile(cold, 99))}`, target: '', met: null },
        { what: `The hardest of ${worst.cases} made-up 20,000-character pastes (parser alone; real messages: ${fmt(worst.real)})`, figure: fmt(worst.ms), target: '', met: null },
      ],
    }
  } finally {
    await h.close()
  }
}

if (import.meta.main) {
  const { lines, rows } = await whatsappRows()
  for (const l of lines) console.log(l)
  console.log('\n| What | Median / p99 | Target | Met |\n|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.what} | ${r.figure} | ${r.target} | ${r.met === null ? 'n/a' : r.met ? 'yes' : '**MISSED**'} |`)
}
