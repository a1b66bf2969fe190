import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { VERSION } from '../version'
import { S3PhotoStore, type S3Settings } from '../photo-store'
import { DOCUMENT_NAME } from '../documents'
import { PHOTO_NAME } from '../../shared/photo-url'
import { DOCUMENTS_PREFIX, MANIFEST_NAME, PHOTOS_PREFIX, POSTGRES_ENTRY, SQLITE_ENTRY, sha256File, type Manifest } from './manifest'
import { dumpPostgres } from './postgres'
import { factsOfSqlite, integrityOf, snapshotSqlite, type DatabaseFacts } from './sqlite'
import { writeTarGz, type TarSource } from './tar'

/** What a backup or a restore needs to know of the configuration (src/platform/config.ts). */
export type DataConfig = {
  dataDir: string
  databasePath: string
  databaseUrl?: string
  documentsDir: string
  photosDir: string
  /** The photos' S3 bucket (S3_BUCKET…), when they live there instead of DATA_DIR or the database. */
  photoS3?: S3Settings | null
}

export type BackupResult = { file: string; bytes: number; manifest: Manifest }

import { BACKUP_FILE, backupFileName } from './file-name'

export { BACKUP_FILE, backupFileName }

/**
 * Writes one archive (docs/decisions/022-backups.md): the manifest, the database (SQLite: an online `VACUUM INTO`
 * snapshot; PostgreSQL: pg_dump of one snapshot), and on SQLite the identity documents the snapshot refers to.
 * `target` is a file to create, or a folder to name one in. Nothing is left behind when it fails, and an existing
 * file is never overwritten.
 */
export async function createBackup(config: DataConfig, target: string, at = new Date()): Promise<BackupResult> {
  let file = resolve(target)
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, backupFileName(at))
  if (existsSync(file)) throw new Error(`${file} exists already: name a new file`)
  mkdirSync(dirname(file), { recursive: true })

  // Partial files sit beside the archive (same disk, so the last step is a rename), named so nothing mistakes them.
  const partial = (suffix: string) => `${file}.partial-${suffix}`
  const dbCopy = partial(config.databaseUrl ? 'dump' : 'db')
  const manifestFile = partial('manifest')
  try {
    let facts: DatabaseFacts
    if (config.databaseUrl) facts = await dumpPostgres(config.databaseUrl, dbCopy)
    else {
      snapshotSqlite(config.databasePath, dbCopy)
      // Never write a backup of a damaged database as if it were good.
      const integrity = integrityOf(dbCopy)
      if (integrity !== 'ok') throw new Error(`the database fails its integrity check (${integrity}); no backup written`)
      facts = factsOfSqlite(dbCopy)
    }

    const sources: TarSource[] = [{ name: config.databaseUrl ? POSTGRES_ENTRY : SQLITE_ENTRY, path: dbCopy, bytes: statSync(dbCopy).size }]
    // Documents are written once under random names and never changed: the files the snapshot refers to are the ones.
    // One removed since the snapshot (its user deleted) is named in the manifest as missing instead.
    const missing: string[] = []
    for (const name of facts.documents) {
      if (!DOCUMENT_NAME.test(name)) continue
      const path = join(config.documentsDir, name)
      if (existsSync(path)) sources.push({ name: DOCUMENTS_PREFIX + name, path, bytes: statSync(path).size })
      else missing.push(name)
    }
    // Listing photos (issue 34) on SQLite: files named by their content, written once and never changed, so every one
    // there once the snapshot is taken is whole. Those the snapshot refers to are among them unless a photo was removed
    // in between (its listing's photo then answers 404 after a restore); one added since is swept as unreferenced.
    if (config.photoS3) sources.push(...(await copyBucket(config.photoS3, partial('photos'))))
    else if (!config.databaseUrl && existsSync(config.photosDir))
      for (const name of readdirSync(config.photosDir).sort()) {
        if (!PHOTO_NAME.test(name)) continue
        const path = join(config.photosDir, name)
        sources.push({ name: PHOTOS_PREFIX + name, path, bytes: statSync(path).size })
      }
    const files = []
    for (const s of sources) files.push({ name: s.name, bytes: s.bytes, sha256: await sha256File(s.path) })

    const manifest: Manifest = {
      format: 'brokernet-backup',
      formatVersion: 1,
      version: VERSION,
      createdAt: at.toISOString(),
      backend: config.databaseUrl ? 'postgres' : 'sqlite',
      migrations: facts.migrations,
      counts: facts.counts,
      documents: { count: config.databaseUrl ? (facts.counts.documents ?? 0) : sources.filter((s) => s.name.startsWith(DOCUMENTS_PREFIX)).length, missing },
      photos: photosInArchive(config, facts, sources),
      files,
    }
    await Bun.write(manifestFile, JSON.stringify(manifest, null, 2) + '\n')
    const manifestSource = { name: MANIFEST_NAME, path: manifestFile, bytes: statSync(manifestFile).size }
    await writeTarGz(partial('archive'), [manifestSource, ...sources], at)
    renameSync(partial('archive'), file)
    return { file, bytes: statSync(file).size, manifest }
  } finally {
    for (const suffix of ['db', 'dump', 'manifest', 'archive', 'photos']) rmSync(partial(suffix), { force: true, recursive: true })
  }
}

function photosInArchive(config: DataConfig, facts: DatabaseFacts, sources: TarSource[]): Manifest['photos'] {
  const inArchive = sources.filter((s) => s.name.startsWith(PHOTOS_PREFIX)).length
  if (config.photoS3) return { store: 's3', count: inArchive }
  return config.databaseUrl ? { store: 'database', count: facts.counts.photo_files ?? 0 } : { store: 'files', count: inArchive }
}

/**
 * The bucket's photos, copied into `folder` for the archive (issue 34; docs/decisions/047-photo-storage.md). Listed
 * after the database's snapshot, as DATA_DIR/photos is on SQLite: objects are named by their content and never
 * changed, so every one the snapshot refers to is there unless it was removed in between. A bucket that does not
 * answer fails the backup (with the reason): an archive silently without its photos would be found out at the restore.
 */
async function copyBucket(settings: S3Settings, folder: string): Promise<TarSource[]> {
  let problem = ''
  const bucket = new S3PhotoStore(settings, (message) => void (problem = message))
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  try {
    const copied = await eachAtOnce(await bucket.names(), BUCKET_REQUESTS, async (name): Promise<TarSource | null> => {
      const blob = await bucket.read(name)
      if (!blob) return null // removed since it was listed: no photo refers to it any more
      const path = join(folder, name)
      await Bun.write(path, blob, { mode: 0o600 })
      return { name: PHOTOS_PREFIX + name, path, bytes: blob.size }
    })
    return copied.filter((s) => s !== null)
  } catch (e) {
    throw new Error(`the photos' S3 bucket ${settings.bucket} could not be read (${problem || (e as Error).message}); no backup written`)
  }
}

/** Requests to the bucket in flight at once in a backup or restore: a round trip each, so not one after another. */
export const BUCKET_REQUESTS = 8

/** `work` over every item, at most `width` at a time; the answers in the items' order. The first failure stops it. */
export async function eachAtOnce<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await work(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane))
  return out
}
