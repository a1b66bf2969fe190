import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Queryable } from '../../../db/sql'
import { PHOTO_NAME } from '../../shared/photo-url'
import { deletePhotoFile, insertPhotoFile, photoFileBytes } from './store'

/**
 * Where the photos' WebP files are kept (issue 34, docs/decisions/036-images.md): files under DATA_DIR/photos on SQLite
 * (one machine, like the database), rows of `photo_files` on PostgreSQL (instances behind a load balancer share no
 * disk). A file is named by its content, written once and never changed: the same picture on two listings is one
 * file, and a name no photo refers to any more is removed.
 */
export interface PhotoFiles {
  /** Stores the bytes under their name (nothing happens when that name is there already). */
  save(name: string, bytes: Uint8Array): Promise<void>
  /** The bytes, or null when there is no such file (or the name is not one of ours). */
  read(name: string): Promise<Blob | null>
  remove(name: string): Promise<void>
}

export const photoFiles = (db: Queryable, dir: string): PhotoFiles => (db.dialect === 'postgres' ? new TablePhotoFiles(db) : new DiskPhotoFiles(dir))

/** DATA_DIR/photos/<name>: written under a temporary name and renamed, so a reader never sees half a photo. */
export class DiskPhotoFiles implements PhotoFiles {
  private made = false
  constructor(readonly dir: string) {}

  async save(name: string, bytes: Uint8Array): Promise<void> {
    if (!PHOTO_NAME.test(name)) throw new Error(`not a photo name: ${name}`)
    if (!this.made) mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    this.made = true
    const path = join(this.dir, name)
    if (await Bun.file(path).exists()) return
    const temp = `${path}.${crypto.randomUUID()}.part`
    await Bun.write(temp, bytes, { mode: 0o600 })
    const { rename } = await import('node:fs/promises')
    await rename(temp, path)
  }

  async read(name: string): Promise<Blob | null> {
    if (!PHOTO_NAME.test(name)) return null
    const file = Bun.file(join(this.dir, name))
    return (await file.exists()) ? file : null
  }

  async remove(name: string): Promise<void> {
    if (!PHOTO_NAME.test(name)) return
    const { rm } = await import('node:fs/promises')
    await rm(join(this.dir, name), { force: true })
  }
}

/** The `photo_files` table (PostgreSQL; its SQL in ./store.ts): one statement writes a file whole; the same name twice is kept once. */
export class TablePhotoFiles implements PhotoFiles {
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
