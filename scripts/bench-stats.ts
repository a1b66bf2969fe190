// What both benchmarks (bench.ts, in process; bench-http.ts, over HTTP) compute and print the same way.
import { loadavg } from 'node:os'

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
/** Nearest-rank percentile: of 200 samples, p99 is the 198th smallest. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!
}
export const fmt = (ms: number) => `${ms.toFixed(ms < 1 ? 3 : 1)} ms`
export const loadAverage = () => loadavg().map((x) => x.toFixed(1)).join(' / ')
/** `--name value` from the command line. */
export const argValue = (args: string[], name: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
