// The binary's commands besides serving: `brokernet backup [FILE|FOLDER]` and `brokernet restore FILE [--force]`
// (also `bun run backup` and `bun run restore`), and `brokernet reset-second-factor EMAIL` (issue 29). They read the same environment as the server (DATA_DIR, DATABASE_URL,
// BACKUP_DIR) and never start it. Exit codes: 0 done, 1 failed or refused, 2 a usage mistake. Not in the usage text:
// `brokernet push-check ENDPOINT P256DH AUTH` (issue 33), one push notification sent now, for tests and operators.
import type { Config } from './platform/config'
import { formatBytes } from './shared/bytes'

// Three more, not in the help: `push-check` (src/platform/push/), `image-check FILE` runs one photo through the image
// pipeline, and `image-worker` is the image process the server starts for itself (src/platform/images/).
export const COMMANDS = ['backup', 'restore', 'reset-second-factor', 'push-check', 'image-check', 'image-worker', 'help', '--help', '-h'] as const

const USAGE = `Usage:
  brokernet                         serve (see README: PORT, DATA_DIR, DATABASE_URL, ...)
  brokernet backup [FILE|FOLDER]    write a backup archive, also while the server runs (default: into BACKUP_DIR)
  brokernet restore FILE [--force]  restore an archive into an empty DATA_DIR (or the empty database of DATABASE_URL);
                                    --force replaces what is there (moved aside, not deleted); never while a server runs
  brokernet reset-second-factor EMAIL
                                    remove that user's two-factor sign-in and end their sessions (a lone master admin who
                                    lost their phone and recovery codes); also while the server runs`

/** Runs one command and answers the process's exit code. `--json` prints the result as one JSON line. */
export async function runCommand(args: string[], config: Config, out = console.log, err = console.error): Promise<number> {
  const [command, ...rest] = args
  if (command === 'image-check') return (await import('./platform/images/command')).imageCheck(rest, config, out, err)
  if (command === 'image-worker') return (await import('./platform/images/worker')).runImageWorker()
  const flags = new Set(rest.filter((a) => a.startsWith('--')))
  const positional = rest.filter((a) => !a.startsWith('--'))
  const json = flags.has('--json')
  const unknown = [...flags].filter((f) => !['--json', '--force', '--no-record'].includes(f))
  if (command === 'help' || command === '--help' || command === '-h') {
    out(USAGE)
    return 0
  }
  if (command === 'push-check') {
    if (unknown.length > 0 || positional.length !== 3) {
      err('Usage: brokernet push-check ENDPOINT P256DH AUTH [--json]')
      return 2
    }
    const { pushCheck } = await import('./platform/push/command')
    const done = await pushCheck(config, positional[0]!, positional[1]!, positional[2]!)
    if (json) out(JSON.stringify(done))
    else if (done.ok) out(`Sent: the push service answered ${done.status}.`)
    else err(`Not sent: ${done.error}`)
    return done.ok ? 0 : 1
  }
  if (unknown.length > 0 || positional.length > 1 || (['restore', 'reset-second-factor'].includes(command!) && positional.length !== 1)) {
    err(USAGE)
    return 2
  }
  if (command === 'reset-second-factor') {
    const { resetByCommand } = await import('./modules/second-factor/command')
    const done = await resetByCommand(config, positional[0]!)
    if (json) out(JSON.stringify(done))
    else if (done.ok) out(`Two-factor sign-in of ${done.email} reset: their next sign-in sets it up again.`)
    else err(`Reset refused: ${done.error}`)
    return done.ok ? 0 : 1
  }
  const { createBackup } = await import('./platform/backup/backup')
  const PHOTOS_FROM = { files: 'from DATA_DIR/photos', database: 'inside the database dump', s3: 'copied from the S3 bucket' } as const
  const { recordCommandRun } = await import('./platform/backup/runs')
  try {
    if (command === 'backup') {
      const target = positional[0] ?? config.backupDir
      // The run is recorded in the database for the system screen, unless the server started this command (it records
      // its own runs).
      const done = await recordCommandRun(config, !flags.has('--no-record'), () => createBackup(config, target))
      const m = done.manifest
      if (json) out(JSON.stringify({ ok: true, file: done.file, bytes: done.bytes, manifest: m }))
      else
        out(
          `Backup written: ${done.file} (${formatBytes(done.bytes)}; ${m.backend}, ${rows(m.counts)} rows in ${Object.keys(m.counts).length} tables, ` +
            `${m.documents.count} identity documents${m.documents.missing.length ? `, ${m.documents.missing.length} already removed` : ''})` +
            `${m.photos ? `; listing photos: ${m.photos.count} files ${PHOTOS_FROM[m.photos.store]}` : ''}`,
        )
      return 0
    }
    const { restoreBackup, RestoreRefused } = await import('./platform/backup/restore')
    try {
      const done = await restoreBackup(config, positional[0]!, { force: flags.has('--force') })
      const m = done.manifest
      if (json) out(JSON.stringify({ ok: true, setAside: done.setAside, manifest: m }))
      else {
        out(`Restored the backup of ${m.createdAt} (Brokernet ${m.version}, ${m.backend}): ${rows(m.counts)} rows and ${m.documents.count} identity documents, checked.`)
        if (done.setAside) out(`What was there before is in ${done.setAside}`)
        out('Start Brokernet as usual: it applies any newer migrations at start.')
      }
      return 0
    } catch (e) {
      if (e instanceof RestoreRefused) {
        fail(`Restore refused: ${e.message}`, e.message)
        return 1
      }
      throw e
    }
  } catch (e) {
    fail(`${command === 'backup' ? 'Backup' : 'Restore'} failed: ${(e as Error).message}`, (e as Error).message)
    return 1
  }

  function fail(message: string, reason: string) {
    if (json) out(JSON.stringify({ ok: false, error: reason }))
    err(message)
  }
}

const rows = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)
