// Benchmark of the streaming XLSX export (src/modules/listings/xlsx.ts).
//
//   bun scripts/bench-xlsx.ts [--rows 100000] [--level 1] [--out kept.xlsx]
//
// Each scenario runs in its own child process, so RSS figures do not mix:
//   fflate-file  100,000 listing-like rows × 14 columns (strings, numbers, dates), produced in
//                batches of 1,000, streamed to a temp file.
//   fflate-http  the same export served by Bun.serve on 127.0.0.1 and downloaded with fetch,
//                while a second client pings /ping back to back: the latency other requests see.
//   write-excel-file  the same rows through write-excel-file/node, only if it is installed
//                (it is not a dependency of this project; nothing here installs it).
// Figures: elapsed time, peak RSS (sampled every 10 ms, plus the kernel's VmHWM, which also
// catches peaks while the event loop is blocked), and event-loop delay (a 1 ms interval timer's
// lateness: p99 and max).

import { open, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync, strFromU8 } from 'fflate'
import { XLSX_CONTENT_TYPE, xlsxStream, type XlsxColumn } from '../src/modules/listings/xlsx'

type Listing = {
  id: number
  title: string
  type: string
  status: string
  address: string
  city: string
  state: string
  price: number
  bedrooms: number
  areaSqm: number
  broker: string
  email: string
  createdAt: Date
  updatedAt: Date
}

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback
}
const ROWS = Number(arg('rows', '100000'))
const LEVEL = Number(arg('level', '1')) as 1
const OUT = arg('out', '') // keep the fflate-file workbook here (for opening it elsewhere)
const BATCH = 1_000

// ---- data --------------------------------------------------------------------------------

function mulberry32(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const TYPES = ['apartment', 'house', 'condo', 'townhouse', 'land', 'office', 'retail unit', 'warehouse']
const STATUSES = ['active', 'pending', 'sold', 'withdrawn', 'draft']
const CITIES = [
  ['Springfield', 'Illinois'],
  ['São Paulo', 'São Paulo'],
  ['Zürich', 'Zürich'],
  ['Austin', 'Texas'],
  ['Lyon', 'Auvergne-Rhône-Alpes'],
  ['Kraków', 'Lesser Poland'],
  ['Osaka', 'Osaka'],
  ['Cape Town', 'Western Cape'],
]
const STREETS = ['Main St', 'Oak Avenue', 'Rua Augusta', 'Bahnhofstrasse', 'Elm & Pine Rd', 'Calle Mayor', '5th Ave']
const FIRST = ['Ana', 'João', 'Chloé', 'Mark', 'Priya', 'Zoë', 'Łukasz', 'Kenji', 'Fatima', "O'Neil"]
const LAST = ['Silva', 'Müller', 'Smith', 'Nowak', 'Tanaka', 'Dubois', 'Okafor', 'García']

function* listingBatches(total: number): Generator<Listing[]> {
  const rand = mulberry32(42)
  const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)]
  const base = Date.UTC(2024, 0, 1)
  for (let start = 0; start < total; start += BATCH) {
    const batch: Listing[] = []
    for (let id = start + 1; id <= Math.min(total, start + BATCH); id++) {
      const type = pick(TYPES)
      const [city, state] = pick(CITIES)
      const bedrooms = Math.floor(rand() * 6)
      const first = pick(FIRST)
      const last = pick(LAST)
      const created = base + Math.floor(rand() * 900) * 86_400_000
      batch.push({
        id,
        title: `${bedrooms}-bedroom ${type} in ${city} <#${id}>`,
        type,
        status: pick(STATUSES),
        address: `${1 + Math.floor(rand() * 2000)} ${pick(STREETS)}`,
        city,
        state,
        price: Math.round(50_000 + rand() * 2_000_000) + (rand() < 0.3 ? 0.5 : 0),
        bedrooms,
        areaSqm: Math.round(30 + rand() * 400),
        broker: `${first} ${last}`,
        email: `${first}.${last}@broker.example`.toLowerCase(),
        createdAt: new Date(created),
        updatedAt: new Date(created + Math.floor(rand() * 90) * 86_400_000 + 3_600_000),
      })
    }
    yield batch
  }
}

// A database driver hands pages over asynchronously: so does this.
async function* asyncBatches(total: number): AsyncGenerator<Listing[]> {
  for (const b of listingBatches(total)) yield b
}

const COLUMNS: XlsxColumn<Listing>[] = [
  { header: 'ID', type: 'number', width: 8, value: (r) => r.id },
  { header: 'Title', type: 'string', width: 40, value: (r) => r.title },
  { header: 'Type', type: 'string', value: (r) => r.type },
  { header: 'Status', type: 'string', value: (r) => r.status },
  { header: 'Address', type: 'string', width: 28, value: (r) => r.address },
  { header: 'City', type: 'string', value: (r) => r.city },
  { header: 'State', type: 'string', value: (r) => r.state },
  { header: 'Price', type: 'number', value: (r) => r.price },
  { header: 'Bedrooms', type: 'number', value: (r) => r.bedrooms },
  { header: 'Area (m²)', type: 'number', value: (r) => r.areaSqm },
  { header: 'Broker', type: 'string', value: (r) => r.broker },
  { header: 'Email', type: 'string', width: 32, value: (r) => r.email },
  { header: 'Created', type: 'date', value: (r) => r.createdAt },
  { header: 'Updated', type: 'date', value: (r) => r.updatedAt },
]

// ---- measuring ---------------------------------------------------------------------------

const MB = 1024 * 1024

function vmHwmBytes(): number | null {
  try {
    const status = require('node:fs').readFileSync('/proc/self/status', 'utf8') as string
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(status)
    return m ? Number(m[1]) * 1024 : null
  } catch {
    return null
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

function startMonitor() {
  let peakRss = process.memoryUsage.rss()
  const rssTimer = setInterval(() => {
    const rss = process.memoryUsage.rss()
    if (rss > peakRss) peakRss = rss
  }, 10)
  const lateness: number[] = []
  let last = performance.now()
  const lagTimer = setInterval(() => {
    const now = performance.now()
    lateness.push(Math.max(0, now - last - 1))
    last = now
  }, 1)
  return () => {
    clearInterval(rssTimer)
    clearInterval(lagTimer)
    const rss = process.memoryUsage.rss()
    if (rss > peakRss) peakRss = rss
    const sorted = lateness.sort((a, b) => a - b)
    return {
      peakRssMB: peakRss / MB,
      lagP99Ms: percentile(sorted, 99),
      lagMaxMs: sorted.length ? sorted[sorted.length - 1] : 0,
      lagSamples: sorted.length,
    }
  }
}

type Result = {
  scenario: string
  elapsedMs: number
  bytes: number
  peakRssMB: number
  vmHwmMB: number | null
  baselineRssMB: number
  lagP99Ms: number
  lagMaxMs: number
  lagSamples: number
  pingP99Ms?: number
  pingMaxMs?: number
  pings?: number
  check?: string
}

async function verify(path: string): Promise<string> {
  const files = unzipSync(new Uint8Array(await readFile(path)))
  const sheet = strFromU8(files['xl/worksheets/sheet1.xml'])
  const lastRef = `N${ROWS + 1}`
  const ok =
    ['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml'].every(
      (f) => f in files,
    ) &&
    sheet.endsWith(`<autoFilter ref="A1:${lastRef}"/></worksheet>`) &&
    sheet.includes(`<row r="${ROWS + 1}">`)
  return `${ok ? 'ok' : 'FAILED'}: unzipped, sheet XML ${(sheet.length / MB).toFixed(1)} MB, last row ${ROWS + 1}`
}

async function runFflateFile(): Promise<Result> {
  const path = OUT || join(tmpdir(), `bench-xlsx-${process.pid}.xlsx`)
  Bun.gc(true)
  const baselineRssMB = process.memoryUsage.rss() / MB
  const stop = startMonitor()
  const t0 = performance.now()
  const fh = await open(path, 'w')
  let bytes = 0
  try {
    for await (const chunk of xlsxStream(asyncBatches(ROWS), COLUMNS, { sheetName: 'Listings', level: LEVEL })) {
      bytes += chunk.length
      await fh.write(chunk)
    }
  } finally {
    await fh.close()
  }
  const elapsedMs = performance.now() - t0
  const m = stop()
  const vm = vmHwmBytes()
  const check = await verify(path)
  if (!OUT) await rm(path, { force: true })
  return { scenario: `fflate → file (level ${LEVEL})`, elapsedMs, bytes, baselineRssMB, vmHwmMB: vm && vm / MB, check, ...m }
}

async function runFflateHttp(): Promise<Result> {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const url = new URL(req.url)
      if (url.pathname === '/ping') return new Response('pong')
      if (url.pathname === '/export')
        return new Response(xlsxStream(asyncBatches(ROWS), COLUMNS, { sheetName: 'Listings', level: LEVEL }), {
          headers: { 'content-type': XLSX_CONTENT_TYPE },
        })
      return new Response('not found', { status: 404 })
    },
  })
  const base = `http://127.0.0.1:${server.port}`
  try {
    await (await fetch(`${base}/ping`)).text() // warm up
    Bun.gc(true)
    const baselineRssMB = process.memoryUsage.rss() / MB
    const stop = startMonitor()
    const t0 = performance.now()
    let done = false
    const pings: number[] = []
    const pinger = (async () => {
      // Back to back, bounded: stops when the export ends or after 60 s / 100,000 requests.
      while (!done && pings.length < 100_000 && performance.now() - t0 < 60_000) {
        const s = performance.now()
        await (await fetch(`${base}/ping`)).text()
        pings.push(performance.now() - s)
        await Bun.sleep(5)
      }
    })()
    const res = await fetch(`${base}/export`)
    let bytes = 0
    const reader = res.body!.getReader()
    for (;;) {
      const { done: end, value } = await reader.read()
      if (end) break
      bytes += value.length
    }
    const elapsedMs = performance.now() - t0
    done = true
    await pinger
    const m = stop()
    const vm = vmHwmBytes()
    const sorted = pings.sort((a, b) => a - b)
    return {
      scenario: `fflate → HTTP download (level ${LEVEL})`,
      elapsedMs,
      bytes,
      baselineRssMB,
      vmHwmMB: vm && vm / MB,
      pingP99Ms: percentile(sorted, 99),
      pingMaxMs: sorted[sorted.length - 1] ?? 0,
      pings: sorted.length,
      ...m,
    }
  } finally {
    server.stop(true)
  }
}

// Untested here: write-excel-file is not installed in this project. Written against its
// documented `writeXlsxFile(data, { filePath })` (array of rows of { type, value } cells).
async function runWriteExcelFile(): Promise<Result> {
  const mod: any = await import('write-excel-file/node' as string)
  const writeXlsxFile = mod.default ?? mod.writeXlsxFile
  const path = join(tmpdir(), `bench-wef-${process.pid}.xlsx`)
  Bun.gc(true)
  const baselineRssMB = process.memoryUsage.rss() / MB
  const stop = startMonitor()
  const t0 = performance.now()
  const data: unknown[][] = [COLUMNS.map((c) => ({ value: c.header, fontWeight: 'bold' }))]
  for (const batch of listingBatches(ROWS)) {
    for (const r of batch) {
      data.push(
        COLUMNS.map((c) => {
          const value = c.value(r)
          if (c.type === 'date') return { type: Date, value, format: 'yyyy-mm-dd' }
          return { type: c.type === 'number' ? Number : String, value }
        }),
      )
    }
  }
  await writeXlsxFile(data, { filePath: path })
  const elapsedMs = performance.now() - t0
  const m = stop()
  const vm = vmHwmBytes()
  const bytes = Bun.file(path).size
  await rm(path, { force: true })
  return { scenario: 'write-excel-file/node → file', elapsedMs, bytes, baselineRssMB, vmHwmMB: vm && vm / MB, ...m }
}

// ---- driver ------------------------------------------------------------------------------

function isInstalled(specifier: string): boolean {
  try {
    Bun.resolveSync(specifier, import.meta.dir)
    return true
  } catch {
    return false
  }
}

async function child(scenario: string) {
  const run = { 'fflate-file': runFflateFile, 'fflate-http': runFflateHttp, 'write-excel-file': runWriteExcelFile }[
    scenario
  ]
  if (!run) throw new Error(`unknown scenario ${scenario}`)
  const result = await run()
  console.log('RESULT ' + JSON.stringify(result))
}

async function parent() {
  const scenarios = ['fflate-file', 'fflate-http']
  const wef = isInstalled('write-excel-file/node')
  if (wef) scenarios.push('write-excel-file')
  console.log(`XLSX export benchmark: ${ROWS.toLocaleString('en')} rows × ${COLUMNS.length} columns, batches of ${BATCH}`)
  console.log(`Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores\n`)
  const results: Result[] = []
  for (const s of scenarios) {
    const proc = Bun.spawn([process.execPath, import.meta.path, '--child', s, '--rows', String(ROWS), '--level', String(LEVEL), ...(OUT ? ['--out', OUT] : [])], {
      stdout: 'pipe',
      stderr: 'inherit',
    })
    const out = await new Response(proc.stdout).text()
    const code = await proc.exited
    const line = out.split('\n').find((l) => l.startsWith('RESULT '))
    if (code !== 0 || !line) {
      console.log(`${s}: failed (exit ${code})\n${out}`)
      continue
    }
    results.push(JSON.parse(line.slice(7)))
  }
  const f = (n: number | null | undefined, d = 1) => (n == null ? '-' : n.toFixed(d))
  for (const r of results) {
    console.log(`== ${r.scenario}`)
    console.log(`  elapsed            ${f(r.elapsedMs / 1000, 2)} s  (${f(ROWS / (r.elapsedMs / 1000), 0)} rows/s)`)
    console.log(`  output             ${f(r.bytes / MB, 2)} MB`)
    console.log(`  RSS                baseline ${f(r.baselineRssMB)} MB, peak sampled ${f(r.peakRssMB)} MB, VmHWM ${f(r.vmHwmMB)} MB`)
    console.log(`  event-loop delay   p99 ${f(r.lagP99Ms, 2)} ms, max ${f(r.lagMaxMs, 2)} ms  (${r.lagSamples} samples of a 1 ms timer)`)
    if (r.pings !== undefined)
      console.log(`  /ping during export p99 ${f(r.pingP99Ms, 2)} ms, max ${f(r.pingMaxMs, 2)} ms  (${r.pings} requests)`)
    if (r.check) console.log(`  check              ${r.check}`)
  }
  if (!wef) console.log('\nwrite-excel-file is not installed: comparison skipped (not added on purpose).')
}

const childIndex = args.indexOf('--child')
if (childIndex >= 0) await child(args[childIndex + 1])
else await parent()
