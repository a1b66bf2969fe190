import { t, type Static } from 'elysia'
import { Value } from '@sinclair/typebox/value'

/** The archive's first entry: what the backup holds and how to check it (docs/decisions/022-backups.md). */
export const MANIFEST_NAME = 'manifest.json'
export const SQLITE_ENTRY = 'database/brokernet.db'
export const POSTGRES_ENTRY = 'database/postgres.dump'
export const DOCUMENTS_PREFIX = 'documents/'
/** Listing photos' WebP files from DATA_DIR/photos or an S3 bucket (issue 34); in the database they are rows of the dump. */
export const PHOTOS_PREFIX = 'photos/'

export const Manifest = t.Object({
  format: t.Literal('brokernet-backup'),
  formatVersion: t.Literal(1),
  /** The Brokernet release that wrote it. */
  version: t.String(),
  createdAt: t.String(),
  backend: t.Union([t.Literal('sqlite'), t.Literal('postgres')]),
  /** The database's migration level: how many were applied, and the newest (its tag, and drizzle's `when`). */
  migrations: t.Object({ count: t.Integer(), last: t.Union([t.String(), t.Null()]), lastWhen: t.Union([t.Number(), t.Null()]) }),
  /** Rows per table at the moment of the snapshot; a restore must find exactly these. */
  counts: t.Record(t.String(), t.Integer({ minimum: 0 })),
  /**
   * Identity documents the database refers to. On SQLite they are files in the archive; on PostgreSQL rows of the
   * dump. `missing`: referred to, but already gone from DATA_DIR when the backup was taken.
   */
  documents: t.Object({ count: t.Integer({ minimum: 0 }), missing: t.Array(t.String()) }),
  /**
   * Where the installation kept its listing photos (issue 34; absent in archives from before): `files` (DATA_DIR/photos,
   * SQLite) and `s3` (an S3-compatible bucket) travel as `photos/<name>` entries; `database` (PostgreSQL's
   * `photo_files`) inside the dump. `count`: how many files.
   */
  photos: t.Optional(t.Object({ store: t.Union([t.Literal('files'), t.Literal('database'), t.Literal('s3')]), count: t.Integer({ minimum: 0 }) })),
  /** Every other entry of the archive, with its size and SHA-256. */
  files: t.Array(t.Object({ name: t.String(), bytes: t.Integer({ minimum: 0 }), sha256: t.String({ pattern: '^[0-9a-f]{64}$' }) })),
})
export type Manifest = Static<typeof Manifest>

export function parseManifest(text: string): Manifest {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new Error('its manifest is not JSON: it is not a Brokernet backup')
  }
  if (!Value.Check(Manifest, value)) throw new Error('its manifest is not one Brokernet writes: it is not a Brokernet backup, or a newer format')
  return value
}

/** SHA-256 of a file, read as a stream (a database may not fit in memory). */
export async function sha256File(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256')
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk)
  return hasher.digest('hex')
}
