import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Queryable } from '../../../db/sql'
import type { Config } from '../config'
import type { Logger } from '../http/request-log'
import type { BackupResult } from './backup'
import { BACKUP_FILE, backupFileName } from './file-name'
import { finishRun, lastGoodRun, recentRuns, startRun, type BackupRun, type BackupTrigger } from './runs'

/** Writes one backup archive at `file`: in this process, or in a child process of the binary (src/server.ts). */
export type BackupRunner = (file: string) => Promise<Pick<BackupResult, 'file' | 'bytes'>>

/** In this process: what tests composing an app use. The server runs backups in a child process instead. */
export const inProcessRunner = (config: Config): BackupRunner => async (file) => (await import('./backup')).createBackup(config, file)

/**
 * The server's backups (docs/decisions/022-backups.md): Backup now from the system screen, and BACKUP_EVERY's schedule
 * in the primary process. Each run is a row of `backup_runs`, claimed before it starts, so two instances on one
 * PostgreSQL database write one scheduled backup per period, and a second Backup now waits for the first. A failure is
 * logged and recorded (the system screen shows it); it never stops the server.
 */
export class Backups {
  private timer: ReturnType<typeof setTimeout> | null = null
  private closed = false
  /**
   * This process's runs from the moment their claim is sent until they end: what close() waits for. A claim still on
   * its way counts too, or a server stopping at that moment would start the backup's child process after close() had
   * returned, and exit leaving it with the database open (a `restore --force` right after would be refused).
   */
  private readonly inFlight = new Set<Promise<unknown>>()

  constructor(
    private readonly db: Queryable,
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly runner: BackupRunner = inProcessRunner(config),
  ) {}

  /**
   * Starts a run now and answers its id once it is claimed (the backup goes on in the background), or the run that
   * is already under way.
   */
  async start(trigger: BackupTrigger, userId: number | null = null): Promise<{ id: number } | { busy: BackupRun }> {
    const claim = startRun(this.db, trigger, { userId, unlessRunning: true })
    this.track(claim.then((id) => (id === null ? undefined : this.run(id))))
    const id = await claim
    if (id === null) {
      const running = (await recentRuns(this.db, 20)).find((r) => r.status === 'RUNNING')
      if (running) return { busy: running }
      // It finished between the two statements: try once more.
      return this.start(trigger, userId)
    }
    return { id }
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work)
    const forget = () => void this.inFlight.delete(work)
    work.then(forget, forget)
  }

  /** Runs a claimed backup, unless the server began to stop meanwhile: then the run is recorded as not done. */
  private run(id: number): Promise<void> {
    if (this.closed) return finishRun(this.db, id, { error: 'the server stopped before this backup began' }).catch(() => {})
    return this.execute(id)
  }

  /** Runs `id`'s backup and records how it went; never throws. */
  private async execute(id: number): Promise<void> {
    const file = join(this.config.backupDir, backupFileName())
    try {
      const done = await this.runner(file)
      await finishRun(this.db, id, { file: done.file, bytes: done.bytes })
      this.logger.info({ backup: { id, file: done.file, bytes: done.bytes } }, 'backup written')
      this.prune()
    } catch (e) {
      const error = (e as Error).message
      this.logger.error({ backup: { id, error } }, 'backup failed')
      await finishRun(this.db, id, { error }).catch(() => {})
    }
  }

  /** Keeps the newest BACKUP_KEEP archives Brokernet named itself in BACKUP_DIR; nothing else there is touched. */
  prune(): string[] {
    let names: string[]
    try {
      names = readdirSync(this.config.backupDir).filter((n) => BACKUP_FILE.test(n))
    } catch {
      return []
    }
    // Their names are ISO times: newest last when sorted.
    const old = names.sort().slice(0, Math.max(0, names.length - this.config.backupKeep))
    for (const name of old) rmSync(join(this.config.backupDir, name), { force: true })
    return old
  }

  /**
   * BACKUP_EVERY's schedule: the next run is due one period after the last scheduled one that did not fail (kept in
   * the database, so restarts neither skip nor repeat a period), and at the latest a few seconds after start when
   * there has never been one.
   */
  schedule(): void {
    const every = this.config.backupEveryMs
    if (every === null || this.closed) return
    void this.nextDue(every).then((due) => {
      if (this.closed) return
      this.timer = setTimeout(() => this.track(this.tick(every)), Math.max(0, due - Date.now()))
      this.timer.unref?.()
    })
  }

  private async nextDue(every: number): Promise<number> {
    const row = await this.db
      .get<{ at: number | null }>("select max(started_at) as at from backup_runs where trigger = 'SCHEDULE' and status <> 'FAILED'")
      .catch(() => undefined)
    const last = row?.at === null || row?.at === undefined ? null : Number(row.at)
    return last === null ? Date.now() + 5_000 : Math.max(Date.now() + 1_000, last + every)
  }

  private async tick(every: number): Promise<void> {
    try {
      // A tenth of the period's slack: two instances whose clocks differ a little still claim one run per period.
      const id = await startRun(this.db, 'SCHEDULE', { unlessSince: Date.now() - every * 0.9, unlessRunning: true })
      if (id !== null) await this.run(id)
    } catch (e) {
      this.logger.error({ backup: { error: (e as Error).message } }, 'backup schedule failed')
    }
    this.schedule()
  }

  /** The newest runs for the system screen. */
  recent(limit = 10): Promise<BackupRun[]> {
    return recentRuns(this.db, limit)
  }

  /** The newest backup written, for the system screen and `/metrics`' backup age. */
  lastGood(): Promise<BackupRun | null> {
    return lastGoodRun(this.db)
  }

  /**
   * Stops the schedule and waits for the runs in flight (so a shutdown leaves no half-written archive, and no child
   * process with the database open); none starts after this.
   */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
  }
}

/**
 * The server's runner: `brokernet backup FILE --json --no-record` as a child process of this same program, so the
 * snapshot, checks and compression take no time from the process that serves requests.
 */
export function childProcessRunner(command: string[], env: Record<string, string | undefined>): BackupRunner {
  return async (file) => {
    const proc = Bun.spawn([...command, 'backup', file, '--json', '--no-record'], { env: { ...env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    const line = out.trim().split('\n').filter((l) => l.startsWith('{')).at(-1)
    let result: { ok: boolean; file?: string; bytes?: number; error?: string } | null = null
    try {
      result = line ? JSON.parse(line) : null
    } catch {
      result = null
    }
    if (code === 0 && result?.ok && result.file) return { file: result.file, bytes: result.bytes ?? 0 }
    throw new Error(result?.error ?? (err.trim().split('\n').at(-1) || `the backup command exited with code ${code}`))
  }
}
