// Temporary: CPU profile of a warm revisit (4x CPU), self time by script and by function.
import { launchBrowser } from '../tests/support/browser'
import { PHONE } from './bench-phone'
const [base, path, token] = [process.argv[2]!, process.argv[3]!, process.argv[4]!]
const browser = await launchBrowser()
const context = await browser.newContext({ userAgent: PHONE.userAgent, viewport: PHONE.viewport, deviceScaleFactor: 2, isMobile: true, hasTouch: true, ...(process.env.NO_SW ? { serviceWorkers: 'block' as const } : {}) })
await context.addCookies([{ name: 'brokernet_session', value: token, url: base }])
const page = await context.newPage()
const cdp = await context.newCDPSession(page)
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
await cdp.send('Network.enable'); await cdp.send('Network.emulateNetworkConditions', PHONE.network)
await page.goto(base + path, { waitUntil: 'load' })
await page.waitForFunction(() => document.documentElement.dataset.islands === 'hydrated', undefined, { timeout: 120000 })
await page.waitForTimeout(8000)
const reqs: string[] = []
page.on('request', (r) => reqs.push(r.url()))
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start')
const t0 = Date.now()
await page.goto(base + path, { waitUntil: 'load' })
await page.waitForFunction(() => document.documentElement.dataset.islands === 'hydrated', undefined, { timeout: 120000, polling: 20 })
const wall = Date.now() - t0
const { profile } = await cdp.send('Profiler.stop') as any
const nav = await page.evaluate(() => { const n = performance.getEntriesByType('navigation')[0] as any; return { responseStart: n.responseStart, responseEnd: n.responseEnd, dcl: n.domContentLoadedEventEnd, workerStart: n.workerStart } })
const res = await page.evaluate(() => performance.getEntriesByType('resource').map((e: any) => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.responseEnd), e.transferSize, e.workerStart > 0]))
const self = new Map<string, number>(); const byUrl = new Map<string, number>()
const dt = new Map<number, number>(); profile.samples.forEach((id: number, i: number) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
for (const n of profile.nodes) { const t = (dt.get(n.id) ?? 0) / 1000; const u = n.callFrame.url.replace(/^.*\//, '') || '(' + n.callFrame.functionName + ')'; byUrl.set(u, (byUrl.get(u) ?? 0) + t); const k = `${n.callFrame.functionName || '(anon)'} ${u}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`; self.set(k, (self.get(k) ?? 0) + t) }
console.log('wall to hydrated', wall, 'ms', JSON.stringify(nav))
console.log([...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`).join('\n'))
console.log('--'); console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`).join('\n'))
console.log('-- requests', reqs.length, reqs.filter((r) => !r.includes('/assets/')).map((r) => r.replace(base, '')).join(' '))
if (process.env.RES) console.log(res.map((r) => r.join(' ')).join('\n'))
await browser.close()
