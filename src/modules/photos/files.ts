import type { Queryable } from '../../../db/sql'
import type { Config } from '../../platform/config'
import { DiskPhotoStore, S3PhotoStore, type PhotoStore } from '../../platform/photo-store'
import { PHOTO_NAME } from '../../shared/photo-url'
import { deletePhotoFile, insertPhotoFile, photoFileBytes } from './store'

/**
 * Where the photos' WebP files are kept (issue 34, docs/decisions/036-images.md, 047-photo-storage.md): an S3-compatible
 * bucket when S3_BUCKET is set (any backend); otherwise files under DATA_DIR/photos on SQLite (one machine, like the
 * database) and rows of `photo_files` on PostgreSQL (instances behind a load balancer share no disk). A file is named by
 * its content, written once and never changed: the same picture on two listings is one file, and a name no photo
 * refers to any more is removed.
 */
export function photoFiles(db: Queryable, config: Pick<Config, 'photosDir' | 'photoS3'>, onProblem?: (message: string) => void): PhotoStore {
  if (config.photoS3) return new S3PhotoStore(config.photoS3, onProblem)
  return db.dialect === 'postgres' ? new TablePhotoFiles(db) : new DiskPhotoStore(config.photosDir)
}

/** The `photo_files` table (PostgreSQL; its SQL in ./store.ts): one statement writes a file whole; the same name twice is kept once. */
export class TablePhotoFiles implements PhotoStore {
  readonly kind = 'database'
  constructor(private readonly db: Queryable) {}

  async save(name: string, bytes: Uint8Array): Promise<void> {
    await insertPhotoFile(this.db, name, bytes, Date.now())
  }

  async read(name: string): Promise<Blob | null> {
    if (!PHOTO_NAME.test(name)) return null
    const bytes = await photoFileBytes(this.db, name)
    return bytes ? new Blob([bytes], { type: 'image/webp' }) : null
  }

  async remove(name: string): Promise<void> {
    await deletePhotoFile(this.db, name)
  }
}
