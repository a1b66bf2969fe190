// Where listing photos' files are kept (issue 34; docs/decisions/047-photo-storage.md). The platform defines the one
// interface and the two stores that need no table (a folder, an S3-compatible bucket); the photos feature owns the
// third (rows of its `photo_files` table on PostgreSQL) and picks among them. Files are named by their content (the
// first 128 bits of their SHA-256, `<32 hex>.webp`), written once and never changed.

/** A store of photo files by name. Every method refuses a name that is not a photo's. */
export interface PhotoStore {
  /** What it is, for the start banner and the backup's manifest: a folder, the database, or an S3 bucket. */
  readonly kind: 'files' | 'database' | 's3'
  /** Stores the bytes under their name (a name there already is the same content: kept as it is). */
  save(name: string, bytes: Uint8Array): Promise<void>
  /** The bytes, or null when there is no such file. Unavailable (503) when the store does not answer. */
  read(name: string): Promise<Blob | null>
  remove(name: string): Promise<void>
}

/** S3_* settings (src/platform/config.ts): the names Bun's own S3 client reads. */
export type S3Settings = {
  bucket: string
  /** S3_ENDPOINT: the service's URL (MinIO, R2, Spaces…); unset: AWS, from the region. */
  endpoint?: string
  region?: string
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
  /** S3_VIRTUAL_HOSTED_STYLE=1: the bucket is part of the endpoint's host name. */
  virtualHostedStyle: boolean
  /** S3_PREFIX: the photos' keys are `<prefix><name>` (default `photos/`), so a bucket may hold other things too. */
  prefix: string
  /** S3_TIMEOUT_MS: one request's longest wait before the store is taken as away (default 5,000). */
  timeoutMs: number
}
