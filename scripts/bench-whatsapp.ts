// `bun run bench -- --whatsapp-only` (also part of `bun run bench`): reading a 50-message WhatsApp paste (issue 18).
//  - the parser alone, in process, against the labelled set's Mumbai localities plus 2,000 more (a big city);
//  - POST /api/listings/parse through app.handle on a real SQLite file whose city has those 2,002 localities, while a
//    writer posts a listing every few milliseconds (reads are measured with writes going on), beside GET /api/health
//    in the same run (the floor);
//  - the cold read of a city's localities (once a minute per city), on the same database.
import { LocalityIndex, parsePaste } from '../src/modules/intake/parse'
import { localitiesOf } from '../src/modules/intake/localities'
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

  const h = await createTestApp()
  try {
    const now = Date.now()
    const country = await insertRow(h.ctx.db, 'countries', { name: 'India', code: 'IN', createdAt: now, updatedAt: now })
    const state = await insertRow(h.ctx.db, 'states', { name: 'Maharashtra', code: 'MH', countryId: country.id, createdAt: now, updatedAt: now })
    const city = await insertRow(h.ctx.db, 'cities', { name: 'Mumbai', stateId: state.id, createdAt: now, updatedAt: now })
    const broker = await signIn(h.ctx.db, 'BROKER', { cityId: city.id, fullName: 'Bench Paste' })
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
    const body = withJson(broker.bearer, { text: paste.text })
    const health: number[] = []
    const route: number[] = []
    for (let i = 0; i < 10; i++) await (await h.request('/api/listings/parse', body)).arrayBuffer()
    for (let i = 0; i < SAMPLES; i++) {
      // Let the writer's request in between: app.handle resolves without leaving the microtask queue.
      await new Promise((r) => setImmediate(r))
      let t0 = performance.now()
      await (await h.request('/api/health')).arrayBuffer()
      health.push(performance.now() - t0)
      t0 = performance.now()
      const res = await h.request('/api/listings/parse', body)
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
