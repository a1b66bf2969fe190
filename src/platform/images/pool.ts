// The server's side: photos are processed in separate processes (one or two), never in the server's own. Requests
// never wait on a decoder, a decoder's crash on a hostile file ends that process and not the server, a stuck job is
// ended by killing its process, and the 150–250 MB libvips takes for a 12 MP photo is given back when the process
// exits after a minute idle. Processes start on the first photo, not with the server (decision record 036-images).
import { fileURLToPath } from 'node:url'
import { IDLE_EXIT_MS, JOB_TIMEOUT_MS, JOBS_PER_PROCESS, MAX_QUEUED_PER_PROCESS } from './limits'
import { ImageRefused, ImagesUnavailable } from './refusal'
import { sniffImage } from './sniff'
import type { ProcessedPhoto } from './types'
import { NATIVE_DIR_ENV, type WorkerMessage, type WorkerRequest } from './protocol'

export type ImagePoolOptions = {
  /** Where the binary writes sharp's native parts once: DATA_DIR/.native (sharp-loader.ts). */
  nativeDir?: string
  /** 1 or 2 image processes (default 1: the server keeps a core on a 2-core machine). */
  processes?: number
  jobTimeoutMs?: number
  idleExitMs?: number
  jobsPerProcess?: number
  maxQueuedPerProcess?: number
  /** How to start one; by default this program's own (`brokernet image-worker`, or bun on worker-entry.ts). */
  command?: string[]
  /** Told when a process fails to start, crashes or is killed: the server's log. */
  onProblem?: (message: string) => void
}

type Job = { bytes: Uint8Array; card?: true; resolve: (p: ProcessedPhoto) => void; resolveCard?: (b: Uint8Array) => void; reject: (e: Error) => void; started?: number }

/** The command that runs the image process: the binary itself, or bun on worker-entry.ts from source. */
export function imageProcessCommand(): string[] {
  return Bun.isStandaloneExecutable ? [process.execPath, 'image-worker'] : [process.execPath, fileURLToPath(new URL('./worker-entry.ts', import.meta.url))]
}

export class ImagePool {
  private readonly slots: (ImageProcess | null)[]
  private readonly queue: Job[] = []
  private closed = false
  /** CPU time the image processes reported for each photo they finished, for the benchmark. */
  lastCpuMs = 0

  constructor(private readonly options: ImagePoolOptions = {}) {
    const n = options.processes ?? 1
    if (!(n === 1 || n === 2)) throw new Error('ImagePool: 1 or 2 processes')
    this.slots = new Array(n).fill(null)
  }

  /**
   * The photo's two WebP sizes, its hashes, and what it was; or an ImageRefused (the file's fault: 413, 415 or 422)
   * or ImagesUnavailable (busy or the image library cannot start: 503). The header check runs here first, so an
   * unknown type or a bomb is refused without bothering an image process.
   */
  async process(bytes: Uint8Array): Promise<ProcessedPhoto> {
    sniffImage(bytes)
    if (this.closed) throw new ImagesUnavailable('Photos cannot be processed while the server stops.')
    return new Promise((resolve, reject) => {
      const job = { bytes, resolve, reject }
      this.queue.push(job)
      this.pump()
      // Still waiting, behind more than its share of other photos: refused now rather than answered in minutes.
      if (this.queue.length > this.slots.length * (this.options.maxQueuedPerProcess ?? MAX_QUEUED_PER_PROCESS)) {
        this.queue.splice(this.queue.indexOf(job), 1)
        reject(new ImagesUnavailable('Too many photos are being processed right now: try again in a minute.'))
      }
    })
  }

  /**
   * A 1200 × 630 JPEG preview card of one of our own stored WebP images (issue 34: a public listing page's Open Graph
   * image), made in the image process like a photo.
   */
  async card(webp: Uint8Array): Promise<Uint8Array> {
    if (this.closed) throw new ImagesUnavailable('Photos cannot be processed while the server stops.')
    return new Promise((resolveCard, reject) => {
      this.queue.push({ bytes: webp, card: true, resolve: () => reject(new Error('not a card')), resolveCard, reject })
      this.pump()
    })
  }

  /** Ends every image process; jobs still waiting are refused as unavailable. */
  async close(): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(new ImagesUnavailable('Photos cannot be processed while the server stops.'))
    await Promise.all(this.slots.map((w) => w?.stop()))
  }

  /** The image processes running now (tests; the system screen later). */
  get pids(): number[] {
    return this.slots.flatMap((w) => (w && !w.gone ? [w.pid] : []))
  }

  private pump() {
    for (let i = 0; i < this.slots.length && this.queue.length > 0; i++) {
      let worker = this.slots[i]
      if (worker?.gone) worker = this.slots[i] = null
      if (worker?.busy) continue
      if (!worker) worker = this.slots[i] = new ImageProcess(this.options, () => this.pump(), (cpu) => (this.lastCpuMs = cpu))
      worker.run(this.queue.shift()!)
    }
  }
}

/** One image process and the job it works on. */
class ImageProcess {
  busy: Job | null = null
  gone = false
  private readonly proc: ReturnType<typeof Bun.spawn>
  private readonly ready: Promise<void>
  private markReady!: () => void
  private failStart!: (e: Error) => void
  private isReady = false
  private jobs = 0
  private nextId = 1
  private timer: ReturnType<typeof setTimeout> | null = null
  private idle: ReturnType<typeof setTimeout> | null = null
  /** The end of what the process wrote to stderr (libvips' warnings, a crash's last words), for the log. */
  private stderrTail = ''

  constructor(
    private readonly options: ImagePoolOptions,
    private readonly freed: () => void,
    private readonly cpuReport: (ms: number) => void,
  ) {
    this.ready = new Promise((resolve, reject) => {
      this.markReady = resolve
      this.failStart = reject
    })
    this.ready.catch(() => {})
    this.proc = Bun.spawn(options.command ?? imageProcessCommand(), {
      env: { ...process.env, ...(options.nativeDir ? { [NATIVE_DIR_ENV]: options.nativeDir } : {}) },
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'pipe',
      serialization: 'advanced',
      ipc: (message: WorkerMessage) => this.onMessage(message),
    })
    void this.drainStderr()
    void this.proc.exited.then((code) => this.onExit(code, this.proc.signalCode === null ? null : String(this.proc.signalCode)))
  }

  get pid() {
    return this.proc.pid
  }

  run(job: Job) {
    this.busy = job
    if (this.idle) clearTimeout(this.idle)
    this.idle = null
    job.started = performance.now()
    this.timer = setTimeout(() => {
      this.options.onProblem?.(`image process ${this.proc.pid}: a photo took over ${this.timeout / 1000} s, process ended`)
      this.finish((j) => j.reject(new ImagesUnavailable('The photo took too long to process: try again later.')))
      this.kill()
    }, this.timeout)
    this.ready.then(
      () => {
        if (this.busy === job) this.proc.send({ id: this.nextId, bytes: job.bytes, ...(job.card ? { card: true as const } : {}) } satisfies WorkerRequest)
      },
      (e: Error) => this.finish((j) => j.reject(new ImagesUnavailable('Photos cannot be processed right now: the image library did not start.', e.message))),
    )
  }

  async stop() {
    this.gone = true
    this.kill()
    await this.proc.exited
  }

  private get timeout() {
    return this.options.jobTimeoutMs ?? JOB_TIMEOUT_MS
  }

  private onMessage(m: WorkerMessage) {
    if ('ready' in m) {
      if (m.ready) {
        this.isReady = true
        this.markReady()
      } else {
        this.options.onProblem?.(`image process did not start: ${m.error}`)
        this.failStart(new Error(m.error))
      }
      return
    }
    if (m.id !== this.nextId || !this.busy) return // a late answer to a job already given up
    this.nextId++
    this.jobs++
    if (m.ok && 'card' in m) {
      const card = m.card.constructor === Uint8Array ? m.card : new Uint8Array(m.card)
      this.finish((j) => j.resolveCard?.(card))
    } else if (m.ok) {
      this.cpuReport(m.cpuMs)
      this.finish((j) => j.resolve({ ...m.photo, large: bytesOf(m.photo.large), thumb: bytesOf(m.photo.thumb) }))
    } else if (m.refused) {
      const refused = m.refused
      this.finish((j) => j.reject(new ImageRefused(refused.code, refused.detail)))
    } else {
      this.options.onProblem?.(`image process failed on a photo: ${m.error}`)
      const refused = new ImageRefused('undecodable', 'The image could not be decoded: it is damaged or of a kind not accepted.')
      refused.cause = m.error
      this.finish((j) => j.reject(refused))
    }
    if (this.jobs >= (this.options.jobsPerProcess ?? JOBS_PER_PROCESS)) this.retire()
    else this.idle = setTimeout(() => this.retire(), this.options.idleExitMs ?? IDLE_EXIT_MS).unref()
    this.freed()
  }

  private onExit(code: number | null, signal: string | null) {
    const wasGone = this.gone
    this.gone = true
    if (this.idle) clearTimeout(this.idle)
    if (!this.isReady) this.failStart(new Error(`the image process exited at start (${signal ?? `code ${code}`}): ${this.stderrTail.trim().slice(-500) || 'no message'}`))
    else if (this.busy) {
      // Ready, then gone in the middle of a photo: the decoder crashed (or was killed) on this file.
      this.options.onProblem?.(`image process ${this.proc.pid} ended on a photo (${signal ?? `code ${code}`}): ${JSON.stringify(this.stderrTail.slice(-300))}`)
      const refused = new ImageRefused('undecodable', 'The image could not be decoded: it is damaged or of a kind not accepted.')
      this.finish((j) => j.reject(refused))
    }
    if (!wasGone) this.freed()
  }

  /** Ends the current job one way, once. */
  private finish(settle: (job: Job) => void) {
    const job = this.busy
    if (!job) return
    this.busy = null
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    settle(job)
  }

  /** Leaves the slot: the next photo starts a fresh process. */
  private retire() {
    if (this.busy) return
    this.gone = true
    this.kill()
    this.freed()
  }

  private kill() {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL')
  }

  private async drainStderr() {
    const decoder = new TextDecoder()
    for await (const chunk of this.proc.stderr as ReadableStream<Uint8Array>) this.stderrTail = (this.stderrTail + decoder.decode(chunk)).slice(-4096)
  }
}

/** Bytes that crossed the channel as a Buffer come back as a plain Uint8Array. */
const bytesOf = <T extends { bytes: Uint8Array }>(v: T): T => (v.bytes.constructor === Uint8Array ? v : { ...v, bytes: new Uint8Array(v.bytes) })
