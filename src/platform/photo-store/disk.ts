import { mkdirSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PHOTO_NAME } from '../../shared/photo-url'
import type { PhotoStore } from './types'

/** DATA_DIR/photos/<name> (one machine, like SQLite): written under a temporary name and renamed, so no reader sees half a photo. */
export class DiskPhotoStore implements PhotoStore {
  readonly kind = 'files'
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
    await rename(temp, path)
  }

  async read(name: string): Promise<Blob | null> {
    if (!PHOTO_NAME.test(name)) return null
    const file = Bun.file(join(this.dir, name))
    return (await file.exists()) ? file : null
  }

  async remove(name: string): Promise<void> {
    if (!PHOTO_NAME.test(name)) return
    await rm(join(this.dir, name), { force: true })
  }
}
