import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Queryable } from '../../../db/sql'

/** A document type the app accepts, known by the file's first bytes (its name and declared type are not trusted). */
export type DocumentType = { mime: 'image/jpeg' | 'image/png' | 'application/pdf'; ext: 'jpg' | 'png' | 'pdf' }

const SIGNATURES: { bytes: number[]; type: DocumentType }[] = [
  { bytes: [0xff, 0xd8, 0xff], type: { mime: 'image/jpeg', ext: 'jpg' } },
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: { mime: 'image/png', ext: 'png' } },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], type: { mime: 'application/pdf', ext: 'pdf' } }, // %PDF-
]

export function detectDocumentType(head: Uint8Array): DocumentType | null {
  return SIGNATURES.find((s) => s.bytes.every((b, i) => head[i] === b))?.type ?? null
}

export const extensionOf = (mime: string | null | undefined) => SIGNATURES.find((s) => s.type.mime === mime)?.type.ext ?? 'bin'

// Names are random and carry no user data; only these characters ever reach the file system.
const NAME = /^[a-f0-9]{32}\.(jpg|png|pdf)$/
const TEMP_SUFFIX = '.part'

/**
 * Stores identity documents under DATA_DIR/documents. A file is written under a temporary name and renamed, so a
 * reader never sees half a document; a registration that fails afterwards removes it again, and `sweepOrphans`
 * at start removes anything a crash left between the two.
 */
export class DocumentStore {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  }

  async save(bytes: Uint8Array, type: DocumentType): Promise<string> {
    const name = `${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')}.${type.ext}`
    const temp = join(this.dir, name + TEMP_SUFFIX)
    await Bun.write(temp, bytes, { mode: 0o600 })
    // node:fs/promises is imported when a document is stored or removed, not at start (docs/decisions/004-lazy-start.md).
    const { rename } = await import('node:fs/promises')
    await rename(temp, join(this.dir, name))
    return name
  }

  /** The stored file, or null when the name is not one of ours or the file is gone. */
  file(name: string | null | undefined) {
    if (!name || !NAME.test(name)) return null
    const file = Bun.file(join(this.dir, name))
    return file
  }

  async remove(name: string): Promise<void> {
    if (!NAME.test(name)) return
    const { rm } = await import('node:fs/promises')
    await rm(join(this.dir, name), { force: true })
  }

  /** Removes files no user points at (and unfinished writes) older than a minute: left by a crash mid-registration. */
  async sweepOrphans(db: Queryable): Promise<number> {
    const rows = await db.all<{ doc: string }>('select id_card_document as doc from users where id_card_document is not null')
    const referenced = new Set(rows.map((r) => r.doc))
    const cutoff = Date.now() - 60_000
    let removed = 0
    for (const entry of readdirSync(this.dir)) {
      if (referenced.has(entry)) continue
      const path = join(this.dir, entry)
      try {
        if (statSync(path).mtimeMs > cutoff) continue
        rmSync(path, { force: true })
        removed++
      } catch {
        // Gone already, or not ours to judge: leave it.
      }
    }
    return removed
  }
}
