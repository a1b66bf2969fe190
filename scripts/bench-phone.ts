// `bun run bench:phone`: the dashboard as a mid-range phone on 4G meets it (issue 32). The compiled binary with demo
// data; Chromium at 390×844, touch, DPR 2; through the DevTools protocol a 4× slower CPU and 150 ms latency,
// 1.6 Mbps down, 750 kbps up. Each page is loaded cold (a new browser context: empty cache) `--runs` times (3) and
// the median of each figure printed, beside the goals; then, in the same context, revisited warm (the browser's cache).
//
//   bun run bench:phone [--binary dist/brokernet] [--runs 3] [--pages /login,/dashboard] [--json file]
//
// Figures, per page:
//  - bytes transferred by kind (HTML, JS, CSS, other) as the network delivered them (compressed where it was);
//  - JS files and the chain depth: 1 for a script the HTML names (a module script or a modulepreload), n+1 for one
//    first named by an import of a loaded script of depth n (found only once that script arrived);
//  - largest contentful paint; interactive: every island hydrated (islands/client.tsx marks <html data-islands>);
//  - total blocking time: the part over 50 ms of every long task from navigation until the page is interactive and
//    has been quiet for a second (long tasks through PerformanceObserver).
// The machine may be busy: the load average is printed; compare runs of the same conditions, as ratios.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { BrowserContext, CDPSession, Page } from 'playwright-core'
import { SESSION_COOKIE } from '../src/platform/http/auth'
import { launchBrowser } from '../tests/support/browser'
import { startServer } from '../tests/support/server'
import { argValue as argOf, loadAverage, median } from './bench-stats'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const argValue = (name: string) => argOf(args, name)
const RUNS = Number(argValue('runs') ?? 3)
const PAGES = (argValue('pages') ?? '/login,/dashboard,/dashboard/listings,/dashboard/my-listings,/dashboard/matches').split(',')
/** Pages seen signed out; every other one as the demo's broker. */
const SIGNED_OUT = new Set(['/login', '/register', '/forgot-password', '/'])

export const GOALS = { interactiveMs: 2500, lcpMs: 2000, tbtMs: 200, jsBytes: 100 * 1024, chain: 2, warmMs: 1000 }
export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  cpuSlowdown: 4,
  network: { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 },
}

type Kind = 'html' | 'js' | 'css' | 'other'
export type Load = {
  bytes: Record<Kind, number>
  htmlRaw: number
  /** The scripts' bodies as transferred (compressed), without their response headers. */
  jsBody: number
  jsFiles: number
  chain: number
  lcp: number
  interactive: number
  tbt: number
  longTasks: number
  /** Each script: its path, bytes transferred and decoded, and depth (in --json only). */
  files: { url: string; bytes: number; raw: number; depth: number }[]
}

// Runs in the page before any of its own scripts: largest paint, long tasks, and the moment <html data-islands> says
// every island is hydrated (a MutationObserver on the document, which has no <html> yet when this runs).
const OBSERVE = `(() => {
  const perf = (window.__phone = { lcp: 0, tasks: [], interactive: null })
  new PerformanceObserver((l) => { for (const e of l.getEntries()) perf.lcp = e.renderTime || e.loadTime || e.startTime })
    .observe({ type: 'largest-contentful-paint', buffered: true })
  new PerformanceObserver((l) => { for (const e of l.getEntries()) perf.tasks.push([e.startTime, e.duration]) })
    .observe({ type: 'longtask', buffered: true })
  const check = () => {
    if (perf.interactive === null && document.documentElement && document.documentElement.dataset.islands === 'hydrated')
      perf.interactive = performance.now()
  }
  new MutationObserver(check).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-islands'] })
})()`

type PagePerf = { lcp: number; tasks: [number, number][]; interactive: number | null; hasIslands: boolean; dcl: number }
const readPerf = (page: Page) =>
  page.evaluate(() => {
    const p = (window as unknown as { __phone: Omit<PagePerf, 'hasIslands' | 'dcl'> }).__phone
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
    return { ...p, hasIslands: !!document.querySelector('[data-island]'), dcl: nav?.domContentLoadedEventEnd ?? 0 }
  }) as Promise<PagePerf>

/** Watches the page's network through the DevTools protocol: bytes by kind, and the scripts loaded. */
function watchNetwork(cdp: CDPSession) {
  const requests = new Map<string, { url: string; kind: Kind; bytes: number; head: number; raw: number }>()
  const kindOf = (type: string, mime: string): Kind =>
    type === 'Document' ? 'html' : type === 'Script' || /javascript/.test(mime) ? 'js' : type === 'Stylesheet' ? 'css' : 'other'
  cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, { url: e.request.url, kind: 'other', bytes: 0, head: 0, raw: 0 }))
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId)
    if (r) (r.kind = kindOf(e.type, e.response.mimeType)), (r.head = e.response.encodedDataLength)
  })
  cdp.on('Network.dataReceived', (e) => {
    const r = requests.get(e.requestId)
    if (r) r.raw += e.dataLength
  })
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId)
    if (r) r.bytes = e.encodedDataLength
  })
  return {
    reset: () => requests.clear(),
    summary(depths: Map<string, number>) {
      const bytes: Record<Kind, number> = { html: 0, js: 0, css: 0, other: 0 }
      let htmlRaw = 0
      let jsBody = 0
      for (const r of requests.values()) {
        bytes[r.kind] += r.bytes
        if (r.kind === 'html') htmlRaw += r.raw
        if (r.kind === 'js') jsBody += r.bytes - r.head
      }
      const files = [...requests.values()]
        .filter((r) => r.kind === 'js')
        .map((r) => ({ url: new URL(r.url).pathname, bytes: r.bytes, raw: r.raw, depth: depths.get(r.url) ?? 0 }))
      return { bytes, htmlRaw, jsBody, jsFiles: files.length, chain: Math.max(0, ...files.map((f) => f.depth)), files }
    },
    scripts: () => [...requests.values()].filter((r) => r.kind === 'js').map((r) => r.url),
  }
}

const sources = new Map<string, string>()
/** The imports a script names, as absolute URLs: static (`from "…"`, `import "…"`) and dynamic (`import("…")`). */
async function importsOf(url: string): Promise<{ static: string[]; dynamic: string[] }> {
  let text = sources.get(url)
  if (text === undefined) sources.set(url, (text = await (await fetch(url)).text()))
  const find = (re: RegExp) => [...new Set([...text!.matchAll(re)].map((m) => new URL(m[1]!, url).href))]
  return { static: find(/(?:\bfrom\s*|\bimport\s*)["']([^"']+\.js)["']/g), dynamic: find(/\bimport\s*\(\s*["']([^"']+\.js)["']\s*\)/g) }
}

/**
 * The round trip in which the browser learns of each loaded script: 1 for one the HTML names (a module script or a
 * modulepreload); one more than its importer for a static import (found once the importer arrives); for a dynamic
 * import, one more than the deepest script of its importer's static graph (it runs only once all of them arrived), and
 * the same for the static graph of what it imports (Bun's runtime preloads that graph when the import starts).
 */
async function chainDepths(html: string, base: string, loaded: string[]): Promise<Map<string, number>> {
  const announced = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\brel="modulepreload"[^>]*\bhref)="([^"]+)"/g)].map((m) => new URL(m[1]!, base).href)
  const wanted = new Set(loaded)
  const graph = new Map<string, { static: string[]; dynamic: string[] }>()
  for (const u of loaded) graph.set(u, await importsOf(u))
  const depth = new Map<string, number>(announced.filter((u) => wanted.has(u)).map((u) => [u, 1]))
  const lower = (u: string, d: number) => {
    if (!wanted.has(u) || (depth.get(u) ?? Infinity) <= d) return false
    depth.set(u, d)
    return true
  }
  const staticGraph = (u: string, seen = new Set<string>()) => {
    if (seen.has(u) || !wanted.has(u)) return seen
    seen.add(u)
    for (const i of graph.get(u)!.static) staticGraph(i, seen)
    return seen
  }
  for (let changed = true; changed; ) {
    changed = false
    for (const [u, d] of [...depth]) {
      for (const i of graph.get(u)!.static) changed = lower(i, d + 1) || changed
      const graphOf = [...staticGraph(u)]
      if (graphOf.some((g) => !depth.has(g))) continue
      const runs = Math.max(...graphOf.map((g) => depth.get(g)!))
      for (const i of graph.get(u)!.dynamic) for (const g of staticGraph(i)) changed = lower(g, runs + 1) || changed
    }
  }
  return depth
}

/** Loads `url` in `page` and waits until it is interactive and has had a quiet second (no long task). */
async function measure(page: Page, url: string): Promise<Omit<Load, 'bytes' | 'htmlRaw' | 'jsBody' | 'jsFiles' | 'chain' | 'files'> & { html: string }> {
  const response = await page.goto(url, { waitUntil: 'load', timeout: 120_000 })
  const html = (await response?.text()) ?? ''
  await page.waitForFunction(
    () => {
      const p = (window as unknown as { __phone?: { interactive: number | null } }).__phone
      return !document.querySelector('[data-island]') || (p && p.interactive !== null)
    },
    undefined,
    { timeout: 120_000, polling: 50 },
  )
  // Quiet: a second without a new long task (hydration effects and first fetches may follow the mark).
  for (let seen = -1; ; ) {
    const n = (await readPerf(page)).tasks.length
    if (n === seen) break
    seen = n
    await page.waitForTimeout(1000)
  }
  const p = await readPerf(page)
  const interactive = p.hasIslands ? p.interactive! : p.dcl
  return {
    html,
    lcp: p.lcp,
    interactive,
    tbt: p.tasks.reduce((n, [, d]) => n + Math.max(0, d - 50), 0),
    longTasks: p.tasks.length,
  }
}

async function throttled(context: BrowserContext) {
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', PHONE.network)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown })
  await page.addInitScript(OBSERVE)
  return { page, cdp }
}

export async function benchPhone(binary: string, pages = PAGES, runs = RUNS, log = (s: string) => console.log(s)) {
  const server = await startServer({ command: [binary], env: { DEMO_DATA: '1', ADMIN_PASSWORD: 'Bench@12345' }, timeoutMs: 120_000 })
  const browser = await launchBrowser()
  try {
    const broker = /e\.g\. (\S+) \(broker\)/.exec(server.output())?.[1]
    if (!broker) throw new Error(`no demo broker in the banner:\n${server.output()}`)
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: broker, password: 'Demo@12345' }),
    })
    if (!login.ok) throw new Error(`demo broker sign-in: ${login.status} ${await login.text()}`)
    const token = ((await login.json()) as { token: string }).token

    const results: Record<string, { cold: Load[]; warm: number[] }> = {}
    for (const path of pages) {
      results[path] = { cold: [], warm: [] }
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({
          viewport: PHONE.viewport,
          deviceScaleFactor: PHONE.deviceScaleFactor,
          isMobile: PHONE.isMobile,
          hasTouch: PHONE.hasTouch,
        })
        if (!SIGNED_OUT.has(path)) await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }])
        const { page, cdp } = await throttled(context)
        const net = watchNetwork(cdp)
        const { html, ...cold } = await measure(page, server.url + path)
        results[path].cold.push({ ...cold, ...net.summary(await chainDepths(html, server.url + path, net.scripts())) })
        // The same page again, from the browser's cache (the HTML is fetched again: it is no-cache).
        net.reset()
        results[path].warm.push((await measure(page, server.url + path)).interactive)
        await context.close()
        log(`  ${path} run ${i + 1}: interactive ${Math.round(cold.interactive)} ms, warm ${Math.round(results[path].warm.at(-1)!)} ms`)
      }
    }
    return results
  } finally {
    await browser.close()
    await server.stop()
  }
}

export function medians(r: { cold: Load[]; warm: number[] }) {
  const m = (f: (l: Load) => number) => median(r.cold.map(f))
  return {
    html: m((l) => l.bytes.html),
    htmlRaw: m((l) => l.htmlRaw),
    js: m((l) => l.bytes.js),
    jsBody: m((l) => l.jsBody),
    css: m((l) => l.bytes.css),
    other: m((l) => l.bytes.other),
    total: m((l) => l.bytes.html + l.bytes.js + l.bytes.css + l.bytes.other),
    jsFiles: m((l) => l.jsFiles),
    chain: m((l) => l.chain),
    lcp: m((l) => l.lcp),
    interactive: m((l) => l.interactive),
    tbt: m((l) => l.tbt),
    warm: median(r.warm),
  }
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const ok = (pass: boolean) => (pass ? '✓' : '✗')

if (import.meta.main) {
  const binary = resolve(argValue('binary') ?? join(root, 'dist/brokernet'))
  if (!existsSync(binary)) {
    console.log(`building ${binary}...`)
    const b = Bun.spawnSync([process.execPath, 'run', 'build'], { cwd: root, stdout: 'inherit', stderr: 'inherit' })
    if (b.exitCode !== 0) process.exit(1)
  }
  const loadBefore = loadAverage()
  console.log(`bench:phone: ${binary}, ${RUNS} cold runs per page, load average ${loadBefore}`)
  const results = await benchPhone(binary)
  const loadAfter = loadAverage()
  const lines = [
    `Phone: ${PHONE.viewport.width}×${PHONE.viewport.height}, DPR ${PHONE.deviceScaleFactor}, touch; CPU ${PHONE.cpuSlowdown}× slower; ` +
      `${PHONE.network.latency} ms latency, 1.6 Mbps down, 750 kbps up; cold cache, median of ${RUNS}. Load average ${loadBefore} before, ${loadAfter} after (2 cores).`,
    '',
    '| page | transferred | HTML (raw) | JS: bodies (with headers) | CSS | other | JS files | chain | largest paint | interactive | blocking time | warm revisit |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| goal | | compressed | ≤ ${kb(GOALS.jsBytes)} compressed | | | | ≤ ${GOALS.chain} | ≤ ${s(GOALS.lcpMs)} | ≤ ${s(GOALS.interactiveMs)} | ≤ ${GOALS.tbtMs} ms | ≤ ${s(GOALS.warmMs)} |`,
  ]
  const json: Record<string, ReturnType<typeof medians>> = {}
  for (const [path, r] of Object.entries(results)) {
    const m = (json[path] = medians(r))
    const compressed = m.htmlRaw > m.html * 1.5
    lines.push(
      `| \`${path}\` | ${kb(m.total)} | ${kb(m.html)} (${kb(m.htmlRaw)}) ${ok(compressed)} | ${kb(m.jsBody)} (${kb(m.js)}) ${ok(m.jsBody <= GOALS.jsBytes)} | ${kb(m.css)} | ${kb(m.other)} | ${m.jsFiles} | ${m.chain} ${ok(m.chain <= GOALS.chain)} | ` +
        `${s(m.lcp)} ${ok(m.lcp <= GOALS.lcpMs)} | ${s(m.interactive)} ${ok(m.interactive <= GOALS.interactiveMs)} | ${Math.round(m.tbt)} ms ${ok(m.tbt <= GOALS.tbtMs)} | ${s(m.warm)} ${ok(m.warm <= GOALS.warmMs)} |`,
    )
  }
  console.log(lines.join('\n'))
  const out = argValue('json')
  if (out) await Bun.write(out, JSON.stringify({ binary, loadBefore, loadAfter, runs: RUNS, pages: json, raw: results }, null, 2))
}
