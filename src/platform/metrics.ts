import type { Aggregator } from 'prom-client'
import type { StatementKind, StatementTimer } from '../../db/sql'
import { VERSION } from './version'

// The app's Prometheus metrics (docs/decisions/021-metrics.md). Requests and statements are counted here in plain
// numbers; prom-client (about 7 ms of module loading inside the binary, a start of a few tens of ms) is imported at the
// first scrape, to aggregate this process's numbers with its siblings' and write the text format.

/** One metric as prom-client's `getMetricsAsJSON()` gives it and `AggregatorRegistry.aggregate` takes it. */
export type MetricJson = {
  name: string
  help: string
  type: 'counter' | 'gauge' | 'histogram'
  /** How the values of several processes combine: counts add up; what every process reads alike must not. */
  aggregator: Aggregator
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[]
}

type Labels = Record<string, string>

/** A gauge read when a scrape is answered, by the answering process only (so never summed across processes). */
export type ScrapeGauge = {
  name: string
  help: string
  /** null: no sample this time (e.g. nothing to measure yet); numbers with labels: one sample each. */
  collect: () => Promise<number | null | { labels: Labels; value: number }[]> | number | null | { labels: Labels; value: number }[]
}

/** Seconds: an API answer takes 0.3-3 ms, a page or export up to seconds. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** Seconds: an indexed read takes tens of microseconds on SQLite, a transaction with a network round trip milliseconds. */
const STATEMENT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/** Methods beyond these are one label value: a client must not be able to make a new time series per request. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Counts by label values, each series kept with its labels. */
export class Counts {
  private readonly series = new Map<string, { labels: Labels; value: number }>()
  inc(key: string, labels: () => Labels, by = 1) {
    this.seriesOf(key, labels).value += by
  }
  /** The series of these label values (made at its first use), to count into directly. */
  seriesOf(key: string, labels: () => Labels): { value: number } {
    let s = this.series.get(key)
    if (!s) this.series.set(key, (s = { labels: labels(), value: 0 }))
    return s
  }
  json(name: string, help: string): MetricJson {
    return { name, help, type: 'counter', aggregator: 'sum', values: [...this.series.values()].map((s) => ({ value: s.value, labels: s.labels })) }
  }
}

type DistributionSeries = { labels: Labels; buckets: number[]; sum: number; count: number }

/** A histogram by label values: per series, how many observations fell in each bucket, their sum and count. */
export class Distribution {
  private readonly series = new Map<string, DistributionSeries>()
  constructor(private readonly bounds: number[]) {}
  observe(key: string, labels: () => Labels, value: number) {
    this.observeIn(this.seriesOf(key, labels), value)
  }
  /** The series of these label values (made at its first use), to observe into directly. */
  seriesOf(key: string, labels: () => Labels): DistributionSeries {
    let s = this.series.get(key)
    if (!s) this.series.set(key, (s = { labels: labels(), buckets: new Array(this.bounds.length).fill(0), sum: 0, count: 0 }))
    return s
  }
  observeIn(s: DistributionSeries, value: number) {
    // Only the bucket it falls in; they are summed up when written (`+Inf` is the count).
    for (let i = 0; i < this.bounds.length; i++)
      if (value <= this.bounds[i]!) {
        s.buckets[i]!++
        break
      }
    s.sum += value
    s.count++
  }
  /** As prom-client writes a histogram: cumulative `_bucket` values by `le`, `+Inf` being the count, then sum and count. */
  json(name: string, help: string): MetricJson {
    const values: MetricJson['values'] = []
    for (const s of this.series.values()) {
      let below = 0
      this.bounds.forEach((le, i) => values.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le }, value: (below += s.buckets[i]!) }))
      values.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count })
      values.push({ metricName: `${name}_sum`, labels: s.labels, value: s.sum })
      values.push({ metricName: `${name}_count`, labels: s.labels, value: s.count })
    }
    return { name, help, type: 'histogram', aggregator: 'sum', values }
  }
}

/**
 * What one app counts, and how a scrape is answered. Features add what they know: `addSource` for numbers of this
 * process (summed with the other processes' by each metric's aggregator), `registerGauge` for what is read once per
 * scrape from shared state (the database, the backup folder), which must not be summed.
 */
export class Metrics {
  private readonly requests = new Counts()
  private readonly requestSeconds = new Distribution(REQUEST_BUCKETS)
  private readonly statementSeconds = new Distribution(STATEMENT_BUCKETS)
  private readonly sources: (() => MetricJson[])[] = []
  private readonly gauges = new Map<string, ScrapeGauge>()
  /** The other server processes' numbers, once this one listens beside them (src/modules/metrics/siblings.ts). */
  private siblings: (() => Promise<MetricJson[][]>) | null = null

  /**
   * Each route's and method's series, found by the route template and the method as they are (the same strings each
   * request: no key is made per request, issue 36), and the count's by status.
   */
  private readonly requestSeries = new Map<string, Map<string, { seconds: DistributionSeries; byStatus: Map<number, { value: number }> }>>()

  /** One answered request, by route template (never a raw path: ids would make a series each). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const m = METHODS.has(method) ? method : 'OTHER'
    let byMethod = this.requestSeries.get(route)
    if (!byMethod) this.requestSeries.set(route, (byMethod = new Map()))
    let series = byMethod.get(m)
    if (!series) byMethod.set(m, (series = { seconds: this.requestSeconds.seriesOf(`${m} ${route}`, () => ({ method: m, route })), byStatus: new Map() }))
    let count = series.byStatus.get(status)
    if (!count) series.byStatus.set(status, (count = this.requests.seriesOf(`${m} ${route} ${status}`, () => ({ method: m, route, status: String(status) }))))
    count.value++
    this.requestSeconds.observeIn(series.seconds, seconds)
  }

  /** The data layer's timer (db/sql.ts): milliseconds in, seconds kept. */
  readonly timeStatement: StatementTimer = (kind: StatementKind, ms: number) => this.statementSeconds.observe(kind, () => ({ kind }), ms / 1000)

  /** Numbers of this process, read at each scrape (cache lookups, open streams). */
  addSource(source: () => MetricJson[]): void {
    this.sources.push(source)
  }

  /**
   * A gauge read at each scrape by the process that answers it, e.g. `brokernet_backup_age_seconds`. Its collect runs
   * once per scrape (a failure leaves its sample out and is logged); the name must be unique.
   */
  registerGauge(gauge: ScrapeGauge): void {
    if (this.gauges.has(gauge.name)) throw new Error(`metric ${gauge.name} is registered already`)
    this.gauges.set(gauge.name, gauge)
  }

  /** Where the numbers of the other server processes come from: each answers with its `snapshot()`. */
  shareWith(siblings: () => Promise<MetricJson[][]>): void {
    this.siblings = siblings
  }

  /** This process's numbers and those of every sibling that answered in time: one list per process, this one first. */
  async everyProcess(): Promise<MetricJson[][]> {
    const [own, others] = await Promise.all([this.snapshot(), this.siblings?.() ?? []])
    return [own, ...others]
  }

  /** This process's numbers (what a sibling answering a scrape asks for): the app's, then the process's own. */
  async snapshot(): Promise<MetricJson[]> {
    const own: MetricJson[] = [
      this.requests.json('brokernet_http_requests_total', 'HTTP requests answered, by method, route template and status.'),
      this.requestSeconds.json('brokernet_http_request_duration_seconds', 'Time from a request to its answer, by method and route template.'),
      this.statementSeconds.json(
        'brokernet_db_statement_duration_seconds',
        'Time in the data layer: reads and writes on their own, and whole transactions (kind = read, write, transaction).',
      ),
      {
        name: 'brokernet_build_info',
        help: 'The running version (always 1).',
        type: 'gauge',
        aggregator: 'first',
        values: [{ value: 1, labels: { version: VERSION, bun: Bun.version } }],
      },
      ...this.sources.flatMap((s) => s()),
    ]
    return [...own, ...(await processMetrics())]
  }

  /**
   * The Prometheus text of a scrape: every process's numbers merged (each metric by its aggregator: counts and
   * histograms add up), and the scrape-time gauges read once, here.
   */
  async render(): Promise<string> {
    const [{ AggregatorRegistry }, [own, ...others], gauges] = await Promise.all([
      import('prom-client'),
      this.everyProcess(),
      Promise.all([...this.gauges.values()].map(readGauge)),
    ])
    const processes: MetricJson = {
      name: 'brokernet_metrics_processes',
      help: 'Server processes whose numbers this scrape holds (WORKERS; fewer when one did not answer in time).',
      type: 'gauge',
      aggregator: 'first',
      values: [{ value: 1 + others.length, labels: {} }],
    }
    return AggregatorRegistry.aggregate([[...own!, processes, ...gauges], ...others] as never).metrics()
  }

  static readonly contentType = 'text/plain; version=0.0.4; charset=utf-8'
}

async function readGauge(gauge: ScrapeGauge): Promise<MetricJson> {
  const metric: MetricJson = { name: gauge.name, help: gauge.help, type: 'gauge', aggregator: 'first', values: [] }
  try {
    const read = await gauge.collect()
    if (typeof read === 'number') metric.values.push({ value: read, labels: {} })
    else if (read) metric.values.push(...read.map(({ labels, value }) => ({ labels, value })))
  } catch (e) {
    console.error(`[metrics] could not read ${gauge.name}:`, e)
  }
  return metric
}

/**
 * The process's own metrics, from prom-client's defaults: one registry per process (tests run many apps in one), made
 * at the first scrape or by `startProcessMetrics`. Some defaults say nothing true under Bun and are left out:
 * - `nodejs_heap_space_*`: Bun reports one "old" space holding the whole heap, and zeros for the others;
 * - `nodejs_heap_size_total_bytes`: Bun's `heapTotal` is below `heapUsed` (used, JavaScriptCore's heap size, is kept);
 * - `nodejs_active_handles*`, `nodejs_active_requests*`, `nodejs_active_resources*`: always 0, Bun's
 *   `process.getActiveResourcesInfo()` returns nothing;
 * - `nodejs_gc_duration_seconds`: Bun's `perf_hooks` reports no garbage collections, so it stays empty;
 * - `process_heap_bytes`: Linux's VmData, which under JavaScriptCore is mostly reserved address space (6 GB for a
 *   70 MB process);
 * - `nodejs_version_info`: the Node.js version Bun imitates; `brokernet_build_info` names Bun's own.
 * Checked under `bun src/server.ts` and in dist/brokernet (Bun 1.4.5).
 */
const BROKEN_UNDER_BUN = [
  'nodejs_heap_space_size_total_bytes',
  'nodejs_heap_space_size_used_bytes',
  'nodejs_heap_space_size_available_bytes',
  'nodejs_heap_size_total_bytes',
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_requests',
  'nodejs_active_requests_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
  'nodejs_gc_duration_seconds',
  'process_heap_bytes',
  'nodejs_version_info',
]

let processRegistry: Promise<{ registry: import('prom-client').Registry; beforeRead: () => unknown }> | undefined

/**
 * Starts the process's metrics now: the event loop's delay is measured from then on (the first scrape would otherwise
 * find no samples). The server calls it a moment after it listens, once the start is over.
 */
export function startProcessMetrics() {
  processRegistry ??= import('prom-client').then(({ Registry, collectDefaultMetrics }) => {
    const cpu = process.cpuUsage()
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    // prom-client counts CPU time from its own start: the time spent before it was loaded is added once.
    const add = (name: string, micros: number) => (registry.getSingleMetric(name) as import('prom-client').Counter | undefined)?.inc(micros / 1e6)
    add('process_cpu_user_seconds_total', cpu.user)
    add('process_cpu_system_seconds_total', cpu.system)
    add('process_cpu_seconds_total', cpu.user + cpu.system)
    // The metric left out sets the heap used and external memory gauges kept: its reading is called on its own.
    const heap = registry.getSingleMetric('nodejs_heap_size_total_bytes') as { collect?: () => unknown } | undefined
    for (const name of BROKEN_UNDER_BUN) registry.removeSingleMetric(name)
    // How several processes' values combine, where prom-client's choice does not fit: it omits the start time (the
    // earliest start is the instance's) and would add up the file descriptor limit (each process has the same one).
    const combine = (name: string, aggregator: Aggregator) => {
      const metric = registry.getSingleMetric(name) as unknown as { aggregator: Aggregator } | undefined
      if (metric) metric.aggregator = aggregator
    }
    combine('process_start_time_seconds', 'min')
    combine('process_max_fds', 'first')
    return { registry, beforeRead: () => heap?.collect?.call(heap) }
  })
  return processRegistry
}

async function processMetrics(): Promise<MetricJson[]> {
  const { registry, beforeRead } = await startProcessMetrics()
  beforeRead()
  return (await registry.getMetricsAsJSON()) as unknown as MetricJson[]
}
