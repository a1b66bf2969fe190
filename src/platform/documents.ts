import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Queryable } from '../../db/sql'
import { Turns } from './turns'

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

// Names are random and carry no user data; only these characters ever reach the file system or the documents table.
export const DOCUMENT_NAME = /^[a-f0-9]{32}\.(jpg|png|pdf)$/
const TEMP_SUFFIX = '.part'
/** Documents no user points at are removed once they are this old: long past any registration still under way. */
const ORPHAN_AGE_MS = 60_000

const randomName = (type: DocumentType) => `${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')}.${type.ext}`

/** A stored document as the download route serves it. */
export interface DocumentFile {
  /** Its bytes, typed as stored (a file on disk is sent straight from the disk), or null when it is gone. */
  read(): Promise<Blob | null>
}

/**
 * Where identity documents are kept: files under DATA_DIR/documents on SQLite (one machine, like the database), a
 * `documents` table on PostgreSQL, where every instance behind the load balancer serves what any other stored. Either
 * way a document has a random opaque name (`users.id_card_document`); it is saved before the user's transaction and
 * removed again when that fails, and `sweepOrphans` at start removes what a crash left between the two.
 */
export interface DocumentStore {
  /** Stores the bytes under a new random name, and answers it. */
  save(bytes: Uint8Array, type: DocumentType): Promise<string>
  /** The stored document of that name, or null when there is none or the name is not one of ours. */
  file(name: string | null | undefined): DocumentFile | null
  remove(name: string): Promise<void>
  /** Removes documents no user points at that are older than a minute; answers how many. */
  sweepOrphans(db: Queryable): Promise<number>
}

/** The store for the data layer's backend (docs/decisions/013-postgres.md): the table on PostgreSQL, files on SQLite. */
export function documentStore(db: Queryable, dir: string): DocumentStore {
  return db.dialect === 'postgres' ? new TableDocumentStore(db) : new FileDocumentStore(dir)
}

/**
 * Identity documents as files under DATA_DIR/documents (SQLite). A file is written under a temporary name and renamed,
 * so a reader never sees half a document.
 */
export class FileDocumentStore implements DocumentStore {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  }

  async save(bytes: Uint8Array, type: DocumentType): Promise<string> {
    const name = randomName(type)
    const temp = join(this.dir, name + TEMP_SUFFIX)
    await Bun.write(temp, bytes, { mode: 0o600 })
    // node:fs/promises is imported when a document is stored or removed, not at start (docs/decisions/004-lazy-start.md).
    const { rename } = await import('node:fs/promises')
    await rename(temp, join(this.dir, name))
    return name
  }

  file(name: string | null | undefined): DocumentFile | null {
    if (!name || !DOCUMENT_NAME.test(name)) return null
    const file = Bun.file(join(this.dir, name))
    return { read: async () => ((await file.exists()) ? file : null) }
  }

  async remove(name: string): Promise<void> {
    if (!DOCUMENT_NAME.test(name)) return
    const { rm } = await import('node:fs/promises')
    await rm(join(this.dir, name), { force: true })
  }

  /**
   * Also removes unfinished writes (`.part`) of that age. An empty folder asks nothing of the database (the users'
   * documents are one full read of `users`); a full one is walked in turns (./turns.ts), a stat per file, as the server
   * runs it after it has started answering.
   */
  async sweepOrphans(db: Queryable): Promise<number> {
    const entries = readdirSync(this.dir)
    if (entries.length === 0) return 0
    const rows = await db.all<{ doc: string }>('select id_card_document as doc from users where id_card_document is not null')
    const referenced = new Set(rows.map((r) => r.doc))
    const cutoff = Date.now() - ORPHAN_AGE_MS
    const turns = new Turns()
    let removed = 0
    for (const entry of entries) {
      await turns.pass()
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

/**
 * Identity documents in the `documents` table (PostgreSQL, issue 16): nothing on an instance's disk, so a document
 * uploaded through one instance downloads from any other. The bytes travel as a bytea parameter and come back as a
 * Buffer. One statement writes a document whole, so a reader never sees half of one either.
 */
export class TableDocumentStore implements DocumentStore {
  constructor(private readonly db: Queryable) {}

  async save(bytes: Uint8Array, type: DocumentType): Promise<string> {
    const name = randomName(type)
    await this.db.run('insert into documents (name, mime, bytes, created_at) values (?, ?, ?, ?)', [name, type.mime, bytes, Date.now()])
    return name
  }

  file(name: string | null | undefined): DocumentFile | null {
    if (!name || !DOCUMENT_NAME.test(name)) return null
    return {
      read: async () => {
        const row = await this.db.get<{ mime: string; bytes: Uint8Array<ArrayBuffer> }>('select mime, bytes from documents where name = ?', [name])
        return row ? new Blob([row.bytes], { type: row.mime }) : null
      },
    }
  }

  async remove(name: string): Promise<void> {
    if (!DOCUMENT_NAME.test(name)) return
    await this.db.run('delete from documents where name = ?', [name])
  }

  async sweepOrphans(db: Queryable): Promise<number> {
    const sql = 'delete from documents d where d.created_at < ? and not exists (select 1 from users u where u.id_card_document = d.name)'
    return (await db.run(sql, [Date.now() - ORPHAN_AGE_MS])).changes
  }
}
