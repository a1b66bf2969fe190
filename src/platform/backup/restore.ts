import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { migrationJournal } from '../../../db/migrations'
import { migrationJournal as pgJournal } from '../../../db/pg/migrations'
import { DOCUMENT_NAME } from '../documents'
import { PHOTO_NAME } from '../../shared/photo-url'
import { S3PhotoStore, type S3Settings } from '../photo-store'
import { BUCKET_REQUESTS, eachAtOnce, type DataConfig } from './backup'
import { DOCUMENTS_PREFIX, MANIFEST_NAME, PHOTOS_PREFIX, parseManifest, POSTGRES_ENTRY, SQLITE_ENTRY, type Manifest } from './manifest'
import { factsOfPostgres, markRestoredRunsPostgres, restorePostgres } from './postgres'
import { assertNotInUse, factsOfSqlite, integrityOf, RestoreRefused, type DatabaseFacts } from './sqlite'
import { MARK_RESTORED_RUNS } from './runs'
import { readTarGz } from './tar'

export { RestoreRefused }

export type RestoreResult = {
  manifest: Manifest
  /** Where what the restore replaced (with --force) was moved to; nothing is deleted. */
  setAside: string | null
}

/**
 * Restores an archive of createBackup (docs/decisions/022-backups.md). Everything is unpacked into a staging folder
 * inside DATA_DIR and checked before anything is replaced: each file's size and SHA-256, and for SQLite
 * `PRAGMA integrity_check` and the manifest's row counts (PostgreSQL: the counts once pg_restore's one transaction has
 * committed). DATA_DIR must hold no database and no documents, unless `force`: then they are moved aside, never
 * deleted. A database some process holds open is never replaced.
 */
export async function restoreBackup(config: DataConfig, archive: string, { force = false } = {}): Promise<RestoreResult> {
  const file = resolve(archive)
  if (!existsSync(file)) throw new RestoreRefused(`${file} does not exist`)
  const present = config.databaseUrl ? [] : presentData(config)
  if (present.length > 0 && !force)
    throw new RestoreRefused(
      `DATA_DIR (${config.dataDir}) already holds ${present.join(' and ')}: restore into an empty DATA_DIR, or add --force to replace them (they are moved aside, not deleted)`,
    )
  if (!config.databaseUrl) assertNotInUse(config.databasePath)

  mkdirSync(config.dataDir, { recursive: true })
  const staging = mkdtempSync(join(config.dataDir, '.restore-'))
  try {
    // The manifest's backend and level are checked as soon as it is read, before the rest is unpacked.
    const manifest = await unpack(file, staging, (m) => (checkBackend(m, config), checkPhotoStore(m, config)))
    // Into the bucket before any database is replaced: the objects are named by their content, so writing them is
    // harmless if the restore stops later (nothing refers to them), and a bucket that does not answer stops it here.
    if (config.photoS3) await fillBucket(config.photoS3, join(staging, 'photos'))
    if (config.databaseUrl) {
      await restorePostgres(config.databaseUrl, join(staging, POSTGRES_ENTRY), force)
      expectCounts(manifest, await factsOfPostgres(config.databaseUrl), 'the restored database')
      await markRestoredRunsPostgres(config.databaseUrl)
      return { manifest, setAside: null }
    }
    const db = join(staging, SQLITE_ENTRY)
    const integrity = integrityOf(db)
    if (integrity !== 'ok') throw new Error(`the database in the backup fails its integrity check: ${integrity}`)
    expectCounts(manifest, factsOfSqlite(db), 'the database in the backup')
    markRestoredRuns(db)

    // Checked: now the swap. A second look at the lock, as the checks may have taken a while.
    assertNotInUse(config.databasePath)
    const setAside = present.length > 0 ? moveAside(config) : null
    renameSync(db, config.databasePath)
    rmSync(config.documentsDir, { recursive: true, force: true }) // an empty folder at most: anything in it was set aside
    const documents = join(staging, 'documents')
    if (existsSync(documents)) renameSync(documents, config.documentsDir)
    else mkdirSync(config.documentsDir, { recursive: true, mode: 0o700 })
    rmSync(config.photosDir, { recursive: true, force: true }) // likewise
    if (!config.photoS3) renameSync(join(staging, 'photos'), config.photosDir)
    return { manifest, setAside }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

function markRestoredRuns(path: string) {
  const db = new Database(path)
  try {
    // A backup older than the table has none to mark.
    if (db.query("select 1 from sqlite_master where name = 'backup_runs'").get()) db.exec(MARK_RESTORED_RUNS)
  } finally {
    db.close()
  }
}

const SQLITE_FILES = (path: string) => [path, `${path}-wal`, `${path}-shm`]

/** What of Brokernet's DATA_DIR holds: a restore only ever replaces these (a backups folder inside it stays). */
function presentData(config: DataConfig): string[] {
  const found: string[] = []
  if (SQLITE_FILES(config.databasePath).some((p) => existsSync(p))) found.push('a database')
  if (existsSync(config.documentsDir) && readdirSync(config.documentsDir).length > 0) found.push('identity documents')
  if (existsSync(config.photosDir) && readdirSync(config.photosDir).length > 0) found.push('listing photos')
  return found
}

function moveAside(config: DataConfig): string {
  const aside = join(config.dataDir, `replaced-${new Date().toISOString().replaceAll(':', '-')}`)
  mkdirSync(aside, { recursive: true })
  for (const path of SQLITE_FILES(config.databasePath)) if (existsSync(path)) renameSync(path, join(aside, path.split('/').at(-1)!))
  if (existsSync(config.documentsDir)) renameSync(config.documentsDir, join(aside, 'documents'))
  if (existsSync(config.photosDir)) renameSync(config.photosDir, join(aside, 'photos'))
  return aside
}

/** Unpacks the archive into `staging`, checking every entry against the manifest, which must come first. */
async function unpack(file: string, staging: string, accept: (m: Manifest) => void): Promise<Manifest> {
  let manifest: Manifest | null = null
  let manifestText = ''
  const seen = new Map<string, { bytes: number; sha256: string }>()
  mkdirSync(join(staging, 'database'))
  mkdirSync(join(staging, 'documents'), { mode: 0o700 })
  mkdirSync(join(staging, 'photos'), { mode: 0o700 })
  try {
    await readTarGz(file, (name, bytes) => {
      if (!manifest && name !== MANIFEST_NAME) throw new Error('it does not start with a manifest: it is not a Brokernet backup')
      if (name === MANIFEST_NAME) {
        if (manifest || bytes > 16 * 1024 * 1024) throw new Error('it holds a second or oversized manifest: it is not a Brokernet backup')
        const decoder = new TextDecoder()
        return {
          write: (chunk) => void (manifestText += decoder.decode(chunk, { stream: true })),
          end: () => {
            manifest = parseManifest(manifestText + decoder.decode())
            accept(manifest)
          },
        }
      }
      // Only names Brokernet writes reach the disk: nothing can climb out of the staging folder.
      const allowed =
        name === SQLITE_ENTRY ||
        name === POSTGRES_ENTRY ||
        (name.startsWith(DOCUMENTS_PREFIX) && DOCUMENT_NAME.test(name.slice(DOCUMENTS_PREFIX.length))) ||
        (name.startsWith(PHOTOS_PREFIX) && PHOTO_NAME.test(name.slice(PHOTOS_PREFIX.length)))
      const listed = manifest!.files.find((f) => f.name === name)
      if (!allowed || !listed || seen.has(name)) throw new Error(`it holds ${JSON.stringify(name)}, which its manifest does not list`)
      if (listed.bytes !== bytes) throw new Error(`${name} has ${bytes} bytes, its manifest says ${listed.bytes}`)
      const writer = Bun.file(join(staging, name)).writer()
      const hasher = new Bun.CryptoHasher('sha256')
      return {
        write: (chunk) => {
          hasher.update(chunk)
          writer.write(chunk)
        },
        end: async () => {
          await writer.end()
          seen.set(name, { bytes, sha256: hasher.digest('hex') })
        },
      }
    })
  } catch (e) {
    if (e instanceof RestoreRefused) throw e
    throw new Error(`${file} cannot be restored: ${(e as Error).message}`)
  }
  if (!manifest) throw new Error(`${file} cannot be restored: it holds no manifest`)
  const m: Manifest = manifest
  for (const f of m.files) {
    const got = seen.get(f.name)
    if (!got) throw new Error(`${file} cannot be restored: ${f.name} is missing from it (the archive is incomplete)`)
    if (got.sha256 !== f.sha256) throw new Error(`${file} cannot be restored: ${f.name} is damaged (its SHA-256 differs from the manifest's)`)
  }
  return m
}

/** The backend of the backup must be the configured one, at a migration level this program knows. */
function checkBackend(manifest: Manifest, config: DataConfig) {
  const want = config.databaseUrl ? 'postgres' : 'sqlite'
  if (manifest.backend !== want)
    throw new RestoreRefused(
      manifest.backend === 'sqlite'
        ? 'this is a backup of a SQLite database: unset DATABASE_URL to restore it into DATA_DIR'
        : 'this is a backup of a PostgreSQL database: set DATABASE_URL to the (empty) database to restore it into',
    )
  const journal = want === 'sqlite' ? migrationJournal : pgJournal
  const newest = Math.max(...journal.entries.map((e) => e.when))
  if (manifest.migrations.lastWhen !== null && manifest.migrations.lastWhen > newest)
    throw new RestoreRefused(`this backup was written by Brokernet ${manifest.version}, whose database is newer than this version knows: restore it with that version or a later one`)
}

function expectCounts(manifest: Manifest, facts: DatabaseFacts, what: string) {
  const differences = Object.entries(manifest.counts)
    .filter(([table, n]) => facts.counts[table] !== n)
    .map(([table, n]) => `${table}: ${facts.counts[table] ?? 'missing'} rows, the manifest says ${n}`)
  if (differences.length > 0) throw new Error(`${what} does not match its manifest (${differences.slice(0, 5).join('; ')})`)
}

/**
 * The photos must land where this installation reads them (docs/decisions/047-photo-storage.md): an archive's
 * `photos/` entries go to DATA_DIR/photos (SQLite) or the bucket (S3_BUCKET set); photos inside a PostgreSQL dump
 * (`photo_files`) stay in the database. The two ways that would leave them unread are refused before anything changes.
 */
function checkPhotoStore(manifest: Manifest, config: DataConfig) {
  const entries = manifest.files.filter((f) => f.name.startsWith(PHOTOS_PREFIX)).length
  if (config.databaseUrl && !config.photoS3 && entries > 0)
    throw new RestoreRefused(
      `this backup holds ${entries} listing photo files from an S3 bucket: set S3_BUCKET and the other S3_* settings to the bucket to restore them into (a PostgreSQL installation without a bucket keeps photos in the database)`,
    )
  const inDump = manifest.backend === 'postgres' && manifest.photos?.store !== 's3' ? (manifest.counts.photo_files ?? 0) : 0
  if (config.photoS3 && inDump > 0)
    throw new RestoreRefused(
      `this backup keeps its ${inDump} listing photo files inside the database: restore it with S3_BUCKET unset (moving photos from the database into a bucket is not built)`,
    )
}

/** Writes every photo of the archive (already checked against the manifest) into the bucket. */
async function fillBucket(settings: S3Settings, folder: string) {
  if (!existsSync(folder)) return
  let problem = ''
  const bucket = new S3PhotoStore(settings, (message) => void (problem = message))
  const names = readdirSync(folder).filter((n) => PHOTO_NAME.test(n))
  try {
    await eachAtOnce(names, BUCKET_REQUESTS, async (name) => bucket.save(name, await Bun.file(join(folder, name)).bytes()))
  } catch (e) {
    throw new Error(`the photos could not be written to the S3 bucket ${settings.bucket} (${problem || (e as Error).message}); nothing was restored`)
  }
}
