import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { VERSION } from '../version'
import { DOCUMENT_NAME } from '../documents'
import { PHOTO_NAME } from '../../shared/photo-url'
import { DOCUMENTS_PREFIX, MANIFEST_NAME, PHOTOS_PREFIX, POSTGRES_ENTRY, SQLITE_ENTRY, sha256File, type Manifest } from './manifest'
import { dumpPostgres } from './postgres'
import { factsOfSqlite, integrityOf, snapshotSqlite, type DatabaseFacts } from './sqlite'
import { writeTarGz, type TarSource } from './tar'

/** What a backup or a restore needs to know of the configuration (src/platform/config.ts). */
export type DataConfig = { dataDir: string; databasePath: string; databaseUrl?: string; documentsDir: string; photosDir: string }

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
    if (!config.databaseUrl && existsSync(config.photosDir))
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
      files,
    }
    await Bun.write(manifestFile, JSON.stringify(manifest, null, 2) + '\n')
    const manifestSource = { name: MANIFEST_NAME, path: manifestFile, bytes: statSync(manifestFile).size }
    await writeTarGz(partial('archive'), [manifestSource, ...sources], at)
    renameSync(partial('archive'), file)
    return { file, bytes: statSync(file).size, manifest }
  } finally {
    for (const suffix of ['db', 'dump', 'manifest', 'archive']) rmSync(partial(suffix), { force: true })
  }
}
