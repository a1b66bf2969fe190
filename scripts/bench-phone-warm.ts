// `bun run bench:phone:warm`: where a warm revisit's time goes on the emulated phone (issue 32's "warm revisits ≤ 1 s
// to interactive"; bench-phone.ts's phone and throttling). Each page is opened once (its service worker installs and
// fills its cache) and revisited once, then revisited `--runs` times (3) more in the same context, each measured and
// cut into phases (medians printed), from a DevTools trace and the page's own timings:
//  - the page's own request: its first and last byte (through the worker: navigation preload, then the stream);
//  - the scripts asked for before interactive: when, how many came from the worker's Cache Storage, how many were
//    compiled with a V8 code cache (trace: v8.compileModule's consumedCacheSize) and the compile time;
//  - the main thread until interactive: busy (its tasks), style/layout/paint (and how many layout objects were laid
//    out: the work itself, which a busy machine does not inflate), script, GC;
//  - each island's hydration end (React has reached its last element; the last one is "interactive", as bench:phone);
//  - what the page asked the server for after the HTML (fetch/XHR), before or after interactive.
//
//   bun run bench:phone:warm [--binary dist/brokernet] [--compare OTHER_BINARY] [--runs 3] [--pages /dashboard,…]
//                            [--trace DIR]   (each revisit's DevTools trace, for the Performance panel)
//
// With --compare the two builds' revisits alternate, page by page and run by run, and the ratios are printed: on a
// shared machine read those, and the objects laid out.
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { SESSION_COOKIE } from '../src/platform/http/auth'
import { launchBrowser } from '../tests/support/browser'
import { PHONE, measure, startTarget, throttled, type Target } from './bench-phone'
import { argValue as argOf, loadAverage, median } from './bench-stats'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const argValue = (name: string) => argOf(args, name)
const RUNS = Number(argValue('runs') ?? 3)
const PAGES = (argValue('pages') ?? '/dashboard,/dashboard/listings,/dashboard/my-listings,/dashboard/matches,/login').split(',')
const SIGNED_OUT = new Set(['/login', '/register', '/forgot-password', '/'])
const TRACE_DIR = argValue('trace')

// Each island's hydration end (polled every 10 ms, React's own marks as in bench-phone.ts's OBSERVE).
const ISLAND_TIMES = `(() => {
  const t = (window.__islands = {})
  const isReact = (el) => !!el && Object.keys(el).some((k) => k.startsWith('__reactFiber$') || k.startsWith('__reactContainer$'))
  const lastElement = (el) => { while (el.lastElementChild) el = el.lastElementChild; return el }
  const timer = setInterval(() => {
    const islands = document.querySelectorAll('[data-island]')
    if (document.readyState === 'loading' || islands.length === 0) return
    let all = true
    for (const el of islands) {
      const key = el.dataset.island + '#' + el.dataset.islandKey
      if (t[key]) continue
      if (isReact(el.firstElementChild ? lastElement(el) : el)) t[key] = performance.now()
      else all = false
    }
    if (all) clearInterval(timer)
  }, 10)
})()`

export type Phases = {
  responseStart: number
  responseEnd: number
  domInteractive: number
  scriptsFirst: number
  scriptsLast: number
  scripts: number
  scriptsViaWorker: number
  codeCached: number
  compiled: number
  compileMs: number
  /** From navigation to interactive, on the page's main thread: busy (its tasks), style/layout/paint, script, GC. */
  busyMs: number
  renderMs: number
  /** Layout objects laid out, summed over the layouts until interactive. */
  laidOut: number
  scriptMs: number
  gcMs: number
  islands: Record<string, number>
  interactive: number
  fetchesBefore: string[]
  fetchesAfter: string[]
}

type TraceEvent = { name: string; cat: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { data?: Record<string, unknown> } }

async function trace(cdp: CDPSession, run: () => Promise<unknown>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = []
  const onData = (e: { value: object[] }) => events.push(...(e.value as TraceEvent[]))
  cdp.on('Tracing.dataCollected', onData)
  await cdp.send('Tracing.start', {
    categories: ['devtools.timeline', 'v8', 'v8.execute', 'blink.user_timing', 'loading', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.compile'].join(','),
    transferMode: 'ReportEvents',
  })
  await run()
  const done = new Promise<void>((ok) => cdp.once('Tracing.tracingComplete', () => ok()))
  await cdp.send('Tracing.end')
  await done
  cdp.off('Tracing.dataCollected', onData)
  return events
}

/** Milliseconds covered by the events of `names` (nested ones counted once). */
function covered(events: TraceEvent[], names: string[]): number {
  const xs = events.filter((e) => e.ph === 'X' && names.includes(e.name)).sort((a, b) => a.ts - b.ts)
  let total = 0
  let end = 0
  for (const e of xs) {
    const to = e.ts + (e.dur ?? 0)
    if (to <= end) continue
    total += to - Math.max(e.ts, end)
    end = to
  }
  return total / 1000
}

const RENDER = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'HitTest']
const SCRIPT = ['FunctionCall', 'v8.evaluateModule', 'EvaluateScript', 'RunMicrotasks', 'TimerFire', 'FireIdleCallback', 'EventDispatch', 'v8.callFunction']

/** The page's main thread (CrRendererMain of the renderer that ran the navigation's scripts), and its figures. */
function fromTrace(events: TraceEvent[], url: string, interactiveMs: number) {
  // Navigation start: the mark of the document loader of this URL (other marks belong to frames it made).
  const navStart = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === url).at(-1)
  const main = events.find((e) => e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain' && e.pid === navStart?.pid)
  if (!navStart || !main) return { compiled: 0, codeCached: 0, compileMs: 0, busyMs: 0, renderMs: 0, scriptMs: 0, gcMs: 0, scriptsViaWorker: 0, laidOut: 0 }
  const end = navStart.ts + interactiveMs * 1000
  const within = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ts >= navStart.ts && e.ts <= end)
  const compiles = within.filter((e) => (e.name === 'v8.compileModule' || e.name === 'v8.compile') && e.ph === 'X')
  const cached = compiles.filter((e) => Number(e.args?.data?.consumedCacheSize ?? 0) > 0 && !e.args?.data?.cacheRejected)
  const urls = new Map(events.filter((e) => e.name === 'ResourceSendRequest').map((e) => [e.args?.data?.requestId, String(e.args?.data?.url ?? '')]))
  const responses = events.filter((e) => e.name === 'ResourceReceiveResponse' && e.ts >= navStart.ts && e.ts <= end && /[.]js([?]|$)/.test(urls.get(e.args?.data?.requestId) ?? ''))
  return {
    compiled: compiles.length,
    // Scripts under ~1 KB get no code cache (V8 does not keep one for them); their compile takes no time anyway.
    codeCached: cached.length,
    compileMs: covered(within, ['v8.compileModule', 'v8.compile']),
    busyMs: covered(within, ['RunTask']),
    renderMs: covered(within, RENDER),
    scriptMs: covered(within, SCRIPT),
    gcMs: covered(within, ['MajorGC', 'MinorGC']),
    scriptsViaWorker: responses.filter((e) => e.args?.data?.fromServiceWorker).length,
    // What was laid out (objects, summed over layouts): the work itself, which a busy machine does not inflate.
    laidOut: within.filter((e) => e.name === 'Layout' && e.ph === 'X').reduce((n, e) => n + Number((e.args as { beginData?: { dirtyObjects?: number } } | undefined)?.beginData?.dirtyObjects ?? 0), 0),
  }
}

async function revisit(page: Page, cdp: CDPSession, url: string, tracePath?: string): Promise<Phases> {
  let interactive = 0
  const events = await trace(cdp, async () => {
    interactive = (await measure(page, url)).interactive
  })
  if (tracePath) await Bun.write(tracePath, JSON.stringify({ traceEvents: events }))
  const p = await page.evaluate((interactive) => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
    const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
    // The scripts the page announced (its module script and preloads): what hydration waits for. A script asked for
    // later but before the poll saw "interactive" (the app worker's chunk, imported once every island is hydrated) is
    // not one of them: counted, it made the last script look like it arrived a second after the others.
    const named = new Set([...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel=modulepreload], script[type=module][src]')].map((e) => ('href' in e ? e.href : e.src)))
    const scripts = res.filter((r) => /[.]js([?]|$)/.test(r.name) && r.startTime < interactive && named.has(r.name))
    const fetches = res.filter((r) => r.initiatorType === 'fetch' || r.initiatorType === 'xmlhttprequest')
    return {
      responseStart: nav.responseStart,
      responseEnd: nav.responseEnd,
      domInteractive: nav.domInteractive,
      scriptsFirst: Math.min(...scripts.map((s) => s.startTime)),
      scriptsLast: Math.max(...scripts.map((s) => s.responseEnd)),
      scripts: scripts.length,
      islands: (window as unknown as { __islands: Record<string, number> }).__islands,
      fetches: fetches.map((f) => ({ at: f.startTime, url: new URL(f.name).pathname + new URL(f.name).search })),
      timeOrigin: performance.timeOrigin,
    }
  }, interactive)
  const { fetches, timeOrigin: _, ...rest } = p
  return {
    ...rest,
    scripts: rest.scripts,
    ...fromTrace(events, url, interactive),
    interactive,
    fetchesBefore: fetches.filter((f) => f.at < interactive).map((f) => f.url),
    fetchesAfter: fetches.filter((f) => f.at >= interactive).map((f) => f.url),
  }
}

export async function benchWarm(binaries: string[], pages = PAGES, runs = RUNS, log = (s: string) => console.log(s)) {
  const browser = await launchBrowser()
  const targets: Target[] = []
  try {
    for (const b of binaries) targets.push(await startTarget(b))
    const results: Record<string, Phases[]>[] = targets.map(() => ({}))
    for (const path of pages) {
      // One context per build and page: the first visit installs the worker and fills the caches.
      const opened = []
      for (const target of targets) {
        const context = await browser.newContext({ userAgent: PHONE.userAgent, viewport: PHONE.viewport, deviceScaleFactor: PHONE.deviceScaleFactor, isMobile: PHONE.isMobile, hasTouch: PHONE.hasTouch })
        if (!SIGNED_OUT.has(path)) await context.addCookies([{ name: SESSION_COOKIE, value: target.token, url: target.url }])
        await context.addInitScript(ISLAND_TIMES)
        const { page, cdp } = await throttled(context)
        await measure(page, target.url + path)
        await page
          .evaluate(() => Promise.race([navigator.serviceWorker?.getRegistration().then((r) => r && navigator.serviceWorker.ready), new Promise((done) => setTimeout(done, 60_000))]))
          .catch(() => {})
        // A first revisit: the HTTP cache's scripts get their code cache on their second use (V8's heuristics).
        await measure(page, target.url + path)
        opened.push({ context, page, cdp })
      }
      for (let i = 0; i < runs; i++)
        for (const [t, target] of targets.entries()) {
          const { page, cdp } = opened[t]!
          const tracePath = TRACE_DIR ? join(TRACE_DIR, `${t}${path.replaceAll('/', '_')}-${i + 1}.json`) : undefined
          const r = await revisit(page, cdp, target.url + path, tracePath)
          ;(results[t]![path] ??= []).push(r)
          log(`  ${binaries.length > 1 ? `[${t + 1}] ` : ''}${path} warm ${i + 1}: interactive ${Math.round(r.interactive)} ms (HTML ${Math.round(r.responseEnd)} ms, scripts ${Math.round(r.scriptsLast)} ms, busy ${Math.round(r.busyMs)} ms: render ${Math.round(r.renderMs)} (${r.laidOut} laid out), script ${Math.round(r.scriptMs)})`)
        }
      for (const o of opened) await o.context.close()
    }
    return results
  } finally {
    await browser.close()
    for (const t of targets) await t.stop()
  }
}

const ms = (n: number) => `${Math.round(n)}`

export function phaseTable(results: Record<string, Phases[]>): string[] {
  const lines = [
    '| page | HTML first byte | HTML last byte | DOM read | scripts asked → arrived (from the worker / all) | compiled (with code cache) / compile ms | main thread busy | style, layout, paint (objects laid out) | script | GC | islands hydrated (each, ms) | interactive | asked after the HTML (before / after interactive) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ]
  for (const [path, rs] of Object.entries(results)) {
    const m = (f: (p: Phases) => number) => median(rs.map(f))
    const islands = Object.keys(rs[0]!.islands ?? {})
      .map((k) => `${k.split('#')[0]} ${ms(m((p) => p.islands?.[k] ?? 0))}`)
      .join(', ')
    const last = rs.at(-1)!
    lines.push(
      `| \`${path}\` | ${ms(m((p) => p.responseStart))} | ${ms(m((p) => p.responseEnd))} | ${ms(m((p) => p.domInteractive))} | ` +
        `${ms(m((p) => p.scriptsFirst))} → ${ms(m((p) => p.scriptsLast))} (${m((p) => p.scriptsViaWorker)}/${m((p) => p.scripts)}) | ${m((p) => p.compiled)} (${m((p) => p.codeCached)}) / ${ms(m((p) => p.compileMs))} | ` +
        `${ms(m((p) => p.busyMs))} | ${ms(m((p) => p.renderMs))} (${m((p) => p.laidOut)}) | ${ms(m((p) => p.scriptMs))} | ${ms(m((p) => p.gcMs))} | ${islands} | **${ms(m((p) => p.interactive))}** | ` +
        `${last.fetchesBefore.join(' ') || '—'} / ${last.fetchesAfter.join(' ') || '—'} |`,
    )
  }
  return lines
}

if (import.meta.main) {
  const binary = resolve(argValue('binary') ?? join(root, 'dist/brokernet'))
  const other = argValue('compare')
  const binaries = other ? [resolve(other), binary] : [binary]
  if (TRACE_DIR) mkdirSync(TRACE_DIR, { recursive: true })
  const loadBefore = loadAverage()
  console.log(`bench:phone:warm: ${binaries.join(' vs ')}, ${RUNS} warm revisits per page, load average ${loadBefore}`)
  const results = await benchWarm(binaries)
  const lines = [`Warm revisits (times in ms from navigation start), median of ${RUNS}; load average ${loadBefore} before, ${loadAverage()} after (2 cores).`]
  binaries.forEach((b, i) => lines.push('', `${b}:`, '', ...phaseTable(results[i]!)))
  if (binaries.length === 2) {
    lines.push('', `${binaries[1]} against ${binaries[0]} (warm interactive):`, '')
    for (const path of Object.keys(results[1]!)) {
      const [a, b] = [median(results[0]![path]!.map((p) => p.interactive)), median(results[1]![path]!.map((p) => p.interactive))]
      lines.push(`- \`${path}\`: ${ms(a)} → ${ms(b)} ms (×${(b / a).toFixed(2)})`)
    }
  }
  console.log(lines.join('\n'))
}
