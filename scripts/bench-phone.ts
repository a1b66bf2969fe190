// `bun run bench:phone`: the dashboard as a mid-range phone on 4G meets it (issue 32). The compiled binary with demo
// data; Chromium at 390×844, touch, DPR 2; through the DevTools protocol a 4× slower CPU and 150 ms latency,
// 1.6 Mbps down, 750 kbps up. Each page is loaded cold (a new browser context: empty cache) `--runs` times (3) and
// the median of each figure printed, beside the goals; then, in the same context, revisited warm (the browser's cache).
//
//   bun run bench:phone [--binary dist/brokernet] [--runs 3] [--pages /login,/dashboard] [--json file]
//   bun run bench:phone --compare /tmp/brokernet-before     (the same runs, alternating, and the ratios)
//   bun run bench:phone --photos      (issue 34: 25 listings of the first listings page get a 12 MP cover photo,
//                                      uploaded through the API; /dashboard/listings with them, and a listing's public
//                                      page /l/<token> with its photos, each against its own goals)
//
// Figures, per page:
//  - bytes transferred by kind (HTML, JS, CSS, other) as the network delivered them (compressed where it was);
//  - JS files and the chain depth: 1 for a script the HTML names (a module script or a modulepreload), n+1 for one
//    first named by an import of a loaded script of depth n (found only once that script arrived);
//  - largest contentful paint; interactive: every island hydrated (React has reached each island's last element);
//  - total blocking time: the part over 50 ms of every long task from navigation until the page is interactive and
//    has been quiet for a second (long tasks through PerformanceObserver).
//  - photos (images under /photos/ or /l/…/photos/): how many loaded, their bytes, the largest; layout shift (CLS).
// The machine may be busy: the load average is printed; compare runs of the same conditions, as ratios.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { BrowserContext, CDPSession, Page } from 'playwright-core'
import { SESSION_COOKIE } from '../src/platform/http/auth'
import { launchBrowser } from '../tests/support/browser'
import { startServer } from '../tests/support/server'
import { addPhotos } from './bench-phone-photos'
import { argValue as argOf, loadAverage, median } from './bench-stats'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const argValue = (name: string) => argOf(args, name)
const RUNS = Number(argValue('runs') ?? 3)
const PAGES = (argValue('pages') ?? (args.includes('--photos') ? '/dashboard/listings,/l/<token>' : '/login,/dashboard,/dashboard/listings,/dashboard/my-listings,/dashboard/matches')).split(',')
/** Pages seen signed out; every other one as the demo's broker. */
const SIGNED_OUT = new Set(['/login', '/register', '/forgot-password', '/'])

export const GOALS = { interactiveMs: 2500, lcpMs: 2000, tbtMs: 200, jsBytes: 100 * 1024, chain: 2, warmMs: 1000 }
/** Issue 34's: a thumbnail ≤ 20 KB, a large image ≤ 250 KB; the public page ≤ 30 KB of HTML compressed, no script, largest paint ≤ 1.5 s. */
export const PHOTO_GOALS = { thumbBytes: 20 * 1024, largeBytes: 250 * 1024, publicHtmlBytes: 30 * 1024, publicLcpMs: 1500, cls: 0.1 }
const PHOTOS = args.includes('--photos')
/** The public page's path in the page list: replaced by the listing's own /l/<token> on each target. */
const PUBLIC_PAGE = '/l/<token>'
export const PHONE = {
  /** A mid-range Android phone's Chrome, as it introduces itself. */
  userAgent: 'Mozilla/5.0 (Linux; Android 13; Pixel 7a) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36',
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
  /** The bodies of the scripts needed before interactive, as transferred (compressed), without response headers. */
  jsBody: number
  jsFiles: number
  chain: number
  lcp: number
  interactive: number
  tbt: number
  longTasks: number
  /** Scripts fetched after the page was interactive (a closed dialog's code, prefetched once idle). */
  jsLater: number
  /** Photos loaded (URLs under /photos/ or /l/…/photos/): how many, bytes transferred, the largest one. */
  photos: { count: number; bytes: number; max: number }
  /** Cumulative layout shift until the page was measured (shifts without recent input). */
  cls: number
  /** Each script: its path, bytes transferred and decoded, depth, and whether it came before interactive (--json only). */
  files: { url: string; bytes: number; raw: number; depth: number; needed: boolean }[]
}

/**
 * The page says it is interactive on its console. Waiting for it with `page.waitForFunction` made Playwright
 * evaluate its own injected script (hundreds of KB) in the page once it had loaded, in the middle of hydration:
 * 57 ms of the main thread at 4× CPU inside what was measured (a warm revisit's trace, docs/decisions/057-warm-revisit.md).
 */
const READY = '__bench-phone:interactive'

// Runs in the page before any of its own scripts: largest paint, long tasks, and the moment every island is hydrated.
export const OBSERVE = `(() => {
  const READY = '${READY}'
  const perf = (window.__phone = { lcp: 0, tasks: [], interactive: null, scripts: [], cls: 0 })
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) perf.cls += e.value })
    .observe({ type: 'layout-shift', buffered: true })
  new PerformanceObserver((l) => { for (const e of l.getEntries()) perf.lcp = e.renderTime || e.loadTime || e.startTime })
    .observe({ type: 'largest-contentful-paint', buffered: true })
  new PerformanceObserver((l) => { for (const e of l.getEntries()) perf.tasks.push([e.startTime, e.duration]) })
    .observe({ type: 'longtask', buffered: true })
  // Interactive: every island hydrated. Read from React's own marks, the same for any build: an island is hydrated once
  // its last element carries React's fiber (hydration reached it), or, empty, once its root is React's. Checked every
  // 20 ms; <html data-islands="hydrated"> (islands/client.tsx) is set after that on a build of issue 32 or later.
  const isReact = (el) => !!el && Object.keys(el).some((k) => k.startsWith('__reactFiber$') || k.startsWith('__reactContainer$'))
  const lastElement = (el) => { while (el.lastElementChild) el = el.lastElementChild; return el }
  const timer = setInterval(() => {
    const islands = document.querySelectorAll('[data-island]')
    // A page without islands is ready once loaded (its "interactive" is then DOMContentLoaded, read by the bench).
    if (islands.length === 0 && document.readyState === 'complete') return clearInterval(timer), console.debug(READY)
    if (document.readyState === 'loading' || islands.length === 0) return
    for (const el of islands) if (!isReact(el.firstElementChild ? lastElement(el) : el)) return
    perf.interactive = performance.now()
    // The scripts the page needed: those asked for until then (a dialog's code fetched once idle comes later).
    perf.scripts = performance.getEntriesByType('resource').filter((e) => /[.]js([?]|$)/.test(e.name)).map((e) => e.name)
    clearInterval(timer)
    console.debug(READY)
  }, 20)
})()`

type PagePerf = { lcp: number; tasks: [number, number][]; interactive: number | null; scripts: string[]; cls: number; hasIslands: boolean; dcl: number }
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
    /** `needed`: the scripts asked for before the page was interactive; the rest were fetched later. */
    summary(depths: Map<string, number>, needed: Set<string>) {
      const bytes: Record<Kind, number> = { html: 0, js: 0, css: 0, other: 0 }
      let htmlRaw = 0
      let jsBody = 0
      for (const r of requests.values()) {
        bytes[r.kind] += r.bytes
        if (r.kind === 'html') htmlRaw += r.raw
        if (r.kind === 'js' && needed.has(r.url)) jsBody += r.bytes - r.head
      }
      const files = [...requests.values()]
        .filter((r) => r.kind === 'js')
        .map((r) => ({ url: new URL(r.url).pathname, bytes: r.bytes, raw: r.raw, depth: depths.get(r.url) ?? 0, needed: needed.has(r.url) }))
      const first = files.filter((f) => f.needed)
      const photoSizes = [...requests.values()].filter((r) => /\/photos\//.test(new URL(r.url).pathname) && r.bytes > 0).map((r) => r.bytes)
      const photos = { count: photoSizes.length, bytes: photoSizes.reduce((n, b) => n + b, 0), max: Math.max(0, ...photoSizes) }
      return { bytes, htmlRaw, jsBody, jsFiles: first.length, jsLater: files.length - first.length, chain: Math.max(0, ...first.map((f) => f.depth)), photos, files }
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
export async function measure(page: Page, url: string): Promise<Omit<Load, 'bytes' | 'htmlRaw' | 'jsBody' | 'jsFiles' | 'jsLater' | 'chain' | 'files' | 'photos'> & { html: string; scripts: string[] }> {
  const ready = page.waitForEvent('console', { predicate: (m) => m.text() === READY, timeout: 120_000 })
  const response = await page.goto(url, { waitUntil: 'load', timeout: 120_000 })
  await ready
  const html = (await response?.text()) ?? ''
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
    scripts: p.scripts ?? [],
    lcp: p.lcp,
    interactive,
    tbt: p.tasks.reduce((n, [, d]) => n + Math.max(0, d - 50), 0),
    longTasks: p.tasks.length,
    cls: p.cls ?? 0,
  }
}

export async function throttled(context: BrowserContext) {
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', PHONE.network)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown })
  await page.addInitScript(OBSERVE)
  return { page, cdp }
}

export type Target = { binary: string; url: string; token: string; stop: () => Promise<number>; publicPath?: string }

/** Starts a binary on demo data and signs its demo broker in. */
export async function startTarget(binary: string): Promise<Target> {
  const server = await startServer({ command: [binary], env: { DEMO_DATA: '1', ADMIN_PASSWORD: 'Bench@12345' }, timeoutMs: 120_000 })
  const broker = /e\.g\. (\S+) \(broker\)/.exec(server.output())?.[1]
  if (!broker) throw new Error(`no demo broker in the banner:\n${server.output()}`)
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: broker, password: 'Demo@12345' }),
  })
  if (!login.ok) throw new Error(`demo broker sign-in: ${login.status} ${await login.text()}`)
  const target: Target = { binary, url: server.url, token: ((await login.json()) as { token: string }).token, stop: server.stop }
  if (PHOTOS)
    try {
      const phoneHeaders = { 'user-agent': PHONE.userAgent, 'sec-ch-ua-mobile': '?1' }
      target.publicPath = await addPhotos(server.url, server.output(), (token) => `${SESSION_COOKIE}=${token}`, phoneHeaders, (s) => console.log(s))
    } catch (err) {
      await server.stop()
      throw err
    }
  return target
}

export type PageResults = Record<string, { cold: Load[]; warm: number[] }>

/**
 * Every page, `runs` times, for each binary. With several binaries (`--compare`), their runs alternate (page by page,
 * run by run), so that a busy machine weighs on each alike.
 */
export async function benchPhone(binaries: string[], pages = PAGES, runs = RUNS, log = (s: string) => console.log(s)): Promise<PageResults[]> {
  const targets: Target[] = []
  const browser = await launchBrowser()
  try {
    for (const binary of binaries) targets.push(await startTarget(binary))
    const results: PageResults[] = targets.map(() => ({}))
    for (const path of pages)
      for (let i = 0; i < runs; i++)
        for (const [t, target] of targets.entries()) {
          const r = (results[t]![path] ??= { cold: [], warm: [] })
          const context = await browser.newContext({
            userAgent: PHONE.userAgent,
            viewport: PHONE.viewport,
            deviceScaleFactor: PHONE.deviceScaleFactor,
            isMobile: PHONE.isMobile,
            hasTouch: PHONE.hasTouch,
          })
          // The public page (--photos) is the target's own link, seen signed out like a client.
          const at = path === PUBLIC_PAGE ? target.publicPath : path
          if (!at) throw new Error(`${PUBLIC_PAGE} needs --photos`)
          if (!SIGNED_OUT.has(path) && path !== PUBLIC_PAGE) await context.addCookies([{ name: SESSION_COOKIE, value: target.token, url: target.url }])
          const { page, cdp } = await throttled(context)
          const net = watchNetwork(cdp)
          const { html, scripts, ...cold } = await measure(page, target.url + at)
          r.cold.push({ ...cold, ...net.summary(await chainDepths(html, target.url + at, scripts), new Set(scripts)) })
          // The same page again, from the browser's cache (the HTML is fetched again: it is no-cache). A revisit comes
          // later in a phone's life: by then the service worker the first visit registered (issue 33) has installed
          // (its install downloads every script, which would otherwise share the link with the revisit) and is in charge.
          await page
            .evaluate(() => Promise.race([navigator.serviceWorker?.getRegistration().then((r) => r && navigator.serviceWorker.ready), new Promise((done) => setTimeout(done, 60_000))]))
            .catch(() => {})
          net.reset()
          r.warm.push((await measure(page, target.url + at)).interactive)
          await context.close()
          log(`  ${binaries.length > 1 ? `[${t + 1}] ` : ''}${path} run ${i + 1}: interactive ${Math.round(cold.interactive)} ms, warm ${Math.round(r.warm.at(-1)!)} ms`)
        }
    return results
  } finally {
    await browser.close()
    for (const target of targets) await target.stop()
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
    jsLater: m((l) => l.jsLater ?? 0),
    chain: m((l) => l.chain),
    lcp: m((l) => l.lcp),
    interactive: m((l) => l.interactive),
    tbt: m((l) => l.tbt),
    warm: median(r.warm),
    photos: m((l) => l.photos?.count ?? 0),
    photoBytes: m((l) => l.photos?.bytes ?? 0),
    photoMax: m((l) => l.photos?.max ?? 0),
    cls: m((l) => l.cls ?? 0),
  }
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const ok = (pass: boolean) => (pass ? '✓' : '✗')

function table(results: PageResults): string[] {
  const lines = [
    '| page | transferred | HTML (raw) | JS needed: bodies (all JS, with headers) | CSS | other | JS files | chain | largest paint | interactive | blocking time | warm revisit |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| goal | | compressed | ≤ ${kb(GOALS.jsBytes)} compressed | | | | ≤ ${GOALS.chain} | ≤ ${s(GOALS.lcpMs)} | ≤ ${s(GOALS.interactiveMs)} | ≤ ${GOALS.tbtMs} ms | ≤ ${s(GOALS.warmMs)} |`,
  ]
  for (const [path, r] of Object.entries(results)) {
    const m = medians(r)
    const compressed = m.htmlRaw > m.html * 1.5
    lines.push(
      `| \`${path}\` | ${kb(m.total)} | ${kb(m.html)} (${kb(m.htmlRaw)}) ${ok(compressed)} | ${kb(m.jsBody)} (${kb(m.js)}) ${ok(m.jsBody <= GOALS.jsBytes)} | ${kb(m.css)} | ${kb(m.other)} | ${m.jsFiles}${m.jsLater ? ` (+${m.jsLater} later)` : ''} | ${m.chain} ${ok(m.chain <= GOALS.chain)} | ` +
        `${s(m.lcp)} ${ok(m.lcp <= GOALS.lcpMs)} | ${s(m.interactive)} ${ok(m.interactive <= GOALS.interactiveMs)} | ${Math.round(m.tbt)} ms ${ok(m.tbt <= GOALS.tbtMs)} | ${s(m.warm)} ${ok(m.warm <= GOALS.warmMs)} |`,
    )
  }
  return lines
}

/** --photos: the photos each page loaded and issue 34's goals (a listings page loads thumbnails; the public page large images). */
function photoTable(results: PageResults): string[] {
  const lines = [
    '| page (with photos) | photos loaded | their bytes | largest | goal | layout shift | HTML compressed | scripts | largest paint |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const [path, r] of Object.entries(results)) {
    const m = medians(r)
    const pub = path === PUBLIC_PAGE
    const each = pub ? PHOTO_GOALS.largeBytes : PHOTO_GOALS.thumbBytes
    lines.push(
      `| \`${path}\` | ${m.photos} | ${kb(m.photoBytes)} | ${kb(m.photoMax)} ${ok(m.photoMax <= each)} | ${pub ? 'large' : 'thumbnail'} ≤ ${kb(each)} | ${m.cls.toFixed(3)} ${ok(m.cls <= PHOTO_GOALS.cls)} | ` +
        (pub
          ? `${kb(m.html)} ${ok(m.html <= PHOTO_GOALS.publicHtmlBytes)} (≤ ${kb(PHOTO_GOALS.publicHtmlBytes)}) | ${m.jsFiles + m.jsLater} ${ok(m.jsFiles + m.jsLater === 0)} (none) | ${s(m.lcp)} ${ok(m.lcp <= PHOTO_GOALS.publicLcpMs)} (≤ ${s(PHOTO_GOALS.publicLcpMs)}) |`
          : `${kb(m.html)} | ${kb(m.jsBody)} ${ok(m.jsBody <= GOALS.jsBytes)} | ${s(m.lcp)} ${ok(m.lcp <= GOALS.lcpMs)} |`),
    )
  }
  return lines
}

/** After ÷ before, page by page: the figures a busy machine distorts least. */
function ratios(before: PageResults, after: PageResults): string[] {
  const lines = ['| page | transferred | HTML | JS needed | JS files | largest paint | interactive | blocking time | warm revisit |', '|---|---|---|---|---|---|---|---|---|']
  const x = (a: number, b: number) => (b === 0 ? (a === 0 ? '—' : '∞') : `×${(a / b).toFixed(2)}`)
  for (const path of Object.keys(after)) {
    const [b, a] = [medians(before[path]!), medians(after[path]!)]
    lines.push(
      `| \`${path}\` | ${x(a.total, b.total)} | ${x(a.html, b.html)} | ${x(a.jsBody, b.jsBody)} | ${a.jsFiles} / ${b.jsFiles} | ${x(a.lcp, b.lcp)} | ${x(a.interactive, b.interactive)} | ${x(a.tbt, b.tbt)} | ${x(a.warm, b.warm)} |`,
    )
  }
  return lines
}

if (import.meta.main) {
  const binary = resolve(argValue('binary') ?? join(root, 'dist/brokernet'))
  if (!existsSync(binary)) {
    console.log(`building ${binary}...`)
    const b = Bun.spawnSync([process.execPath, 'run', 'build'], { cwd: root, stdout: 'inherit', stderr: 'inherit' })
    if (b.exitCode !== 0) process.exit(1)
  }
  // --compare OTHER: the same runs, alternating, against another build (say, the one before a change).
  const other = argValue('compare')
  const binaries = other ? [resolve(other), binary] : [binary]
  const loadBefore = loadAverage()
  console.log(`bench:phone: ${binaries.join(' vs ')}, ${RUNS} cold runs per page, load average ${loadBefore}`)
  const results = await benchPhone(binaries)
  const loadAfter = loadAverage()
  const lines = [
    `Phone: ${PHONE.viewport.width}×${PHONE.viewport.height}, DPR ${PHONE.deviceScaleFactor}, touch, Android Chrome's user agent; CPU ${PHONE.cpuSlowdown}× slower; ` +
      `${PHONE.network.latency} ms latency, 1.6 Mbps down, 750 kbps up; cold cache, median of ${RUNS}. Load average ${loadBefore} before, ${loadAfter} after (2 cores).`,
  ]
  binaries.forEach((b, i) => lines.push('', `${b}:`, '', ...table(results[i]!), ...(PHOTOS ? ['', ...photoTable(results[i]!)] : [])))
  if (binaries.length === 2) lines.push('', `${binaries[1]} against ${binaries[0]}:`, '', ...ratios(results[0]!, results[1]!))
  console.log(lines.join('\n'))
  const out = argValue('json')
  if (out) await Bun.write(out, JSON.stringify({ binaries, loadBefore, loadAfter, runs: RUNS, results }, null, 2))
}
