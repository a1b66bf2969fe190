import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDataSource, type DataSource } from '../../db/open'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/platform/config'
import { createContext, type AppContext } from '../../src/platform/context'
import { FileDocumentStore, TableDocumentStore } from '../../src/platform/documents'
import { ON_POSTGRES, createTestApp } from '../support/app'
import { signIn } from '../support/auth'
import { FILE_BYTES, insertUser, seedPlace } from '../support/fixtures'
import { clusterOfTests } from '../support/pg-cluster'

// Identity documents (src/platform/documents.ts): files under DATA_DIR/documents on SQLite, the `documents` table on
// PostgreSQL, where several instances of the binary share one database and no disk (issue 16).

const h = await createTestApp()
afterAll(() => h.close())
const png = { mime: 'image/png', ext: 'png' } as const

/** Makes a stored document look older than the sweep's minute: the file's time on SQLite, the row's on PostgreSQL. */
async function age(name: string, ms: number) {
  const then = Date.now() - ms
  if (h.ctx.db.dialect === 'postgres') await h.ctx.db.run('update documents set created_at = ? where name = ?', [then, name])
  else utimesSync(join(h.config.documentsDir, name), then / 1000, then / 1000)
}

describe('the document store of the backend', () => {
  test('files under DATA_DIR/documents on SQLite, the documents table on PostgreSQL', async () => {
    expect(h.ctx.documents).toBeInstanceOf(ON_POSTGRES ? TableDocumentStore : FileDocumentStore)
    const name = await h.ctx.documents.save(FILE_BYTES.pdf(), { mime: 'application/pdf', ext: 'pdf' })
    expect(name).toMatch(/^[a-f0-9]{32}\.pdf$/)
    const body = (await h.ctx.documents.file(name)!.read())!
    expect(new Uint8Array(await body.arrayBuffer())).toEqual(FILE_BYTES.pdf())
    expect(body.size).toBe(FILE_BYTES.pdf().length)
    // On PostgreSQL nothing is written to this instance's disk.
    expect(existsSync(join(h.config.documentsDir, name))).toBe(!ON_POSTGRES)
    await h.ctx.documents.remove(name)
    expect(await h.ctx.documents.file(name)!.read()).toBeNull()
  })

  test('a name that is not one of ours is no document', async () => {
    for (const name of [null, undefined, '', '../users.db', 'ABC.png', `${'a'.repeat(32)}.exe`]) expect(h.ctx.documents.file(name)).toBeNull()
    await h.ctx.documents.remove('../../etc/passwd') // ignored, not an error
  })

  test('sweepOrphans removes documents no user refers to once a minute old, and keeps the rest', async () => {
    const owned = await h.ctx.documents.save(FILE_BYTES.png(), png)
    await insertUser(h.ctx.db, { email: 'doc-owner@example.com', passwordHash: 'x', fullName: 'Doc Owner', role: 'BROKER', idCardDocument: owned, idCardDocumentType: png.mime })
    const orphan = await h.ctx.documents.save(FILE_BYTES.png(), png)
    const fresh = await h.ctx.documents.save(FILE_BYTES.png(), png)
    await age(owned, 120_000)
    await age(orphan, 120_000)
    expect(await h.ctx.documents.sweepOrphans(h.ctx.db)).toBe(1)
    expect(await h.ctx.documents.file(orphan)!.read()).toBeNull()
    expect(await h.ctx.documents.file(owned)!.read()).not.toBeNull()
    expect(await h.ctx.documents.file(fresh)!.read()).not.toBeNull()
  })
})

// Two instances on one PostgreSQL database of their own, whichever backend this run tests: on SQLite one process (and
// its workers) serves one file on one machine, and documents are files beside it; a second instance on the same data
// is a PostgreSQL deployment (docs/decisions/013-postgres.md).
describe('two instances on one PostgreSQL database (SQLite keeps documents as files on its one machine)', () => {
  type Instance = { source: DataSource; ctx: AppContext; app: ReturnType<typeof createApp>; dataDir: string }
  /** Instance A and B: each its own DATA_DIR (so its own empty disk), the same DATABASE_URL, its own pool and caches. */
  let one: Instance
  let other: Instance
  const cluster = clusterOfTests()

  async function instance(databaseUrl: string): Promise<Instance> {
    const dataDir = mkdtempSync(join(tmpdir(), 'brokernet-test-pg-'))
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl })
    const source = await openDataSource(config)
    const ctx = createContext(source, config)
    return { source, ctx, app: createApp(ctx), dataDir }
  }

  beforeAll(async () => {
    const databaseUrl = await (await cluster.get()).createDatabase()
    one = await instance(databaseUrl)
    other = await instance(databaseUrl)
  })
  afterAll(async () => {
    for (const i of [one, other]) {
      if (!i) continue
      await i.ctx.features.stop()
      await i.ctx.mail.close()
      await i.source.close()
      rmSync(i.dataDir, { recursive: true, force: true })
    }
    await cluster.release()
  })

  test('a document saved through one context is read through another, and removed through it for both', async () => {
    expect(one.ctx.documents).toBeInstanceOf(TableDocumentStore)
    const name = await one.ctx.documents.save(FILE_BYTES.jpeg(), { mime: 'image/jpeg', ext: 'jpg' })
    const body = (await other.ctx.documents.file(name)!.read())!
    expect(body.type).toBe('image/jpeg')
    expect(new Uint8Array(await body.arrayBuffer())).toEqual(FILE_BYTES.jpeg())
    await other.ctx.documents.remove(name)
    expect(await one.ctx.documents.file(name)!.read()).toBeNull()
  })

  test('a document uploaded at registration through instance A downloads from instance B, same headers and bytes', async () => {
    const place = await seedPlace(one.ctx.db, ['Doc City'])
    const fd = new FormData()
    const fields = { email: 'two-instances@example.com', password: 'Strong@123', full_name: 'Asha Rao', city_id: String(place.cities[0]!.id) }
    for (const [k, v] of Object.entries(fields)) fd.set(k, v)
    fd.set('id_card_file', new File([FILE_BYTES.png()], 'card.png', { type: 'image/png' }))
    const reg = await one.app.handle(new Request('http://localhost/api/auth/register', { method: 'POST', body: fd }))
    expect(reg.status).toBe(201)
    const { id } = (await reg.json()) as { id: number }

    const master = await signIn(one.ctx.db, 'MASTER_ADMIN', { cityId: null })
    // Over HTTP, so the answer's length is the one a browser gets.
    const server = Bun.serve({ port: 0, fetch: (request) => other.app.handle(request) })
    const res = await fetch(`http://127.0.0.1:${server.port}/api/users/${id}/id-card`, { headers: master.bearer }).finally(() => server.stop())
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('content-length')).toBe(String(FILE_BYTES.png().length))
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Asha_Rao_id_card.png"')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(bytes).toEqual(FILE_BYTES.png())
    // Neither instance wrote it to a disk.
    expect(existsSync(other.ctx.config.documentsDir) ? readdirSync(other.ctx.config.documentsDir) : []).toEqual([])
    expect(existsSync(one.ctx.config.documentsDir) ? readdirSync(one.ctx.config.documentsDir) : []).toEqual([])
  })
})
