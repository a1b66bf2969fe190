// Listing photos in an S3-compatible bucket (issue 34; docs/decisions/047-photo-storage.md), against the stand-in S3
// service on loopback (tests/support/s3-service.ts), which checks every request's Signature Version 4 as S3 does. In
// process, against the binary (BROKERNET_BINARY) and on PostgreSQL (BROKERNET_TEST_DATABASE=postgres).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/client'
import { openDataSource, sqliteSource } from '../../db/open'
import { createApp } from '../../src/app'
import { createBackup } from '../../src/platform/backup/backup'
import { readTarGz } from '../../src/platform/backup/tar'
import { restoreBackup } from '../../src/platform/backup/restore'
import { loadConfig, type Config } from '../../src/platform/config'
import { createContext } from '../../src/platform/context'
import { S3_AWAY } from '../../src/platform/photo-store'
import { BINARY, createTestApp, ON_POSTGRES, type TestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventually } from '../support/eventually'
import { seedPlace } from '../support/fixtures'
import { sharedCluster } from '../support/postgres'
import { startS3Service, type S3Service } from '../support/s3-service'
import { startServer } from '../support/server'
import { seededPng } from '../support/small-png'

const BUCKET = 'brokernet-photos'
let s3: S3Service
let h: TestApp
let asha: SignedIn // broker, Mumbai: owns the listings
let ravi: SignedIn // another broker

beforeAll(async () => {
  // Three keys a list page: a backup's listing of the bucket follows continuation tokens.
  s3 = startS3Service({ listPageSize: 3 })
  h = await createTestApp(s3.env(BUCKET))
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Asha Verma' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[1]!.id, fullName: 'Ravi Kumar' })
}, 120_000)

afterAll(async () => {
  await h?.close()
  await s3?.close()
})

let seed = 1000
const png = () => new File([seededPng(++seed) as Uint8Array<ArrayBuffer>], `p${seed}.png`, { type: 'image/png' })
let listingCount = 0
async function newListing(app: TestApp = h, as: SignedIn = asha): Promise<number> {
  const body = { post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2BHK', contact_value: '9876543210', locality: `Bandra ${++listingCount}`, budget: 45_000, size: 850 }
  const res = await app.request('/api/listings', withJson(as.browser, body))
  expect(res.status).toBe(201)
  return (await res.json()).id
}
function upload(listingId: number, files: File[], app: TestApp = h, as: SignedIn = asha) {
  const fd = new FormData()
  for (const f of files) fd.append('photos', f)
  return app.request(`/api/listings/${listingId}/photos`, { method: 'POST', headers: as.browser, body: fd })
}
type Photo = { id: number; url: string; thumb_url: string }
async function added(listingId: number, files: File[]): Promise<Photo[]> {
  const res = await upload(listingId, files)
  const body = await res.json()
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(body)}`)
  return body.photos
}
/** A command of the binary, waited for without blocking this process (the stand-in S3 service answers from it). */
async function run(command: string[], env: Record<string, string | undefined>) {
  const proc = Bun.spawn(command, { env, stdout: 'pipe', stderr: 'pipe' })
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  return { code, stdout, stderr }
}
const nameOf = (url: string) => url.split('/').at(-1)!
const keyOf = (url: string) => `photos/${nameOf(url)}`
async function image(url: string, as: SignedIn = asha, app: TestApp = h) {
  const res = await app.request(url, { headers: as.bearer })
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}
const countPhotoFiles = async () => (ON_POSTGRES ? Number((await h.ctx.db.get<{ n: number }>('select count(*) as n from photo_files'))!.n) : 0)
const diskPhotos = (dataDir: string) => (existsSync(join(dataDir, 'photos')) ? readdirSync(join(dataDir, 'photos')) : [])

describe('photos in the bucket', () => {
  test('upload, serve, scope, removal and a listing’s deletion: objects under photos/, nothing on disk or in the database', async () => {
    const id = await newListing()
    const photos = await added(id, [png(), png()])
    const objects = s3.objects(BUCKET)
    for (const p of photos)
      for (const url of [p.url, p.thumb_url]) {
        const stored = objects.get(keyOf(url))
        expect(stored).toBeDefined()
        // The key is the content's hash, as the address is.
        expect(nameOf(url)).toBe(`${new Bun.CryptoHasher('sha256').update(stored!).digest('hex').slice(0, 32)}.webp`)
        const { res, bytes } = await image(url)
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toBe('image/webp')
        expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable')
        expect(bytes).toEqual(stored!)
      }
    expect(diskPhotos(h.dataDir)).toEqual([])
    expect(await countPhotoFiles()).toBe(0)

    // Served by our server after the scope check, never by the bucket to whoever asks: signed out 401; a SUSPENDED
    // listing's photo 404 for another broker while the object is still there.
    expect((await h.request(photos[0]!.url)).status).toBe(401)
    expect((await image(photos[0]!.url, ravi)).res.status).toBe(200)
    expect((await h.request(`/api/listings/${id}`, withJson(asha.browser, { status: 'SUSPENDED' }, 'PATCH'))).status).toBe(200)
    expect((await image(photos[0]!.url, ravi)).res.status).toBe(404)
    expect(s3.objects(BUCKET).has(keyOf(photos[0]!.url))).toBe(true)
    expect((await image(photos[0]!.url, asha)).res.status).toBe(200)

    // One removed: its two objects go; the other photo's stay.
    expect((await h.request(`/api/listings/${id}/photos/${photos[1]!.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
    expect(s3.objects(BUCKET).has(keyOf(photos[1]!.url))).toBe(false)
    expect(s3.objects(BUCKET).has(keyOf(photos[1]!.thumb_url))).toBe(false)
    expect(s3.objects(BUCKET).has(keyOf(photos[0]!.url))).toBe(true)

    // The listing deleted: its photos' objects go once the deletion has committed.
    expect((await h.request(`/api/listings/${id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
    await eventually('the deleted listing’s objects removed', () => !s3.objects(BUCKET).has(keyOf(photos[0]!.url)) && !s3.objects(BUCKET).has(keyOf(photos[0]!.thumb_url)), 20_000)
  }, 120_000)

  test('two instances on the same database and bucket serve the same photo (neither has it on its own disk)', async () => {
    const id = await newListing()
    const [p] = await added(id, [png()])
    const expected = s3.objects(BUCKET).get(keyOf(p!.url))!
    // A second instance with a DATA_DIR of its own: only the database and the bucket are shared.
    const otherDir = mkdtempSync(join(tmpdir(), 'brokernet-second-'))
    const config = { ...h.config, dataDir: otherDir, documentsDir: join(otherDir, 'documents'), photosDir: join(otherDir, 'photos'), backupDir: join(otherDir, 'backups') }
    const source = config.databaseUrl ? await openDataSource(config) : sqliteSource(openDatabase(config.databasePath))
    const ctx = createContext(source, config)
    try {
      const res = await createApp(ctx).handle(new Request(`http://localhost${p!.url}`, { headers: asha.bearer }))
      expect(res.status).toBe(200)
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(expected)
      expect(diskPhotos(otherDir)).toEqual([])
    } finally {
      await ctx.features.stop()
      await ctx.mail.close()
      await source.close()
      rmSync(otherDir, { recursive: true, force: true })
    }
    // Against the binary on PostgreSQL: a second binary, as a load balancer's second instance.
    if (BINARY && h.config.databaseUrl) {
      const second = await startServer({ command: [BINARY], env: { DATABASE_URL: h.config.databaseUrl, LOG_LEVEL: 'silent', ...s3.env(BUCKET) } })
      try {
        const res = await fetch(second.url + p!.url, { headers: asha.bearer })
        expect(res.status).toBe(200)
        expect(new Uint8Array(await res.arrayBuffer())).toEqual(expected)
        expect(diskPhotos(second.dataDir)).toEqual([])
        // Its banner says where photos live, never the bucket's secret.
        expect(second.output()).toContain(`Photos: S3 bucket ${BUCKET} at ${s3.url}, keys photos/…`)
        expect(second.output()).not.toContain(s3.secretAccessKey)
      } finally {
        await second.stop()
      }
    }
  }, 120_000)
})

describe('a public link (no sign-in) reads the bucket too', () => {
  test('the page’s photo and its preview card come from the bucket; with the bucket away they answer 503, the page still 200', async () => {
    const id = await newListing()
    const [p] = await added(id, [png()])
    const made = await h.request(`/api/listings/${id}/share-link`, { method: 'POST', headers: asha.browser })
    expect(made.status).toBe(200)
    const path = new URL((await made.json()).url).pathname
    s3.mode('slow-down')
    try {
      expect((await h.request(path)).status).toBe(200)
      const photo = await h.request(`${path}/photos/${nameOf(p!.thumb_url)}`)
      expect(photo.status).toBe(503)
      expect(await photo.json()).toEqual({ detail: S3_AWAY })
      expect((await h.request(`${path}/og.jpg`)).status).toBe(503)
    } finally {
      s3.mode('ok')
    }
    const photo = await h.request(`${path}/photos/${nameOf(p!.thumb_url)}`)
    expect(photo.status).toBe(200)
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(s3.objects(BUCKET).get(keyOf(p!.thumb_url))!)
    const card = await h.request(`${path}/og.jpg`)
    expect(card.status).toBe(200)
    expect(card.headers.get('content-type')).toBe('image/jpeg')
  }, 120_000)
})

describe('backup and restore', () => {
  test('the backup carries the bucket’s photos; restored into an empty bucket, the restored installation serves them', async () => {
    const id = await newListing()
    const [p] = await added(id, [png()])
    const served = (await image(p!.url)).bytes
    const target = mkdtempSync(join(tmpdir(), 'brokernet-s3-backup-'))
    const restoredDir = mkdtempSync(join(tmpdir(), 'brokernet-s3-restore-'))
    const databaseUrl = ON_POSTGRES ? await (await sharedCluster()).createDatabase() : undefined
    const env = { DATA_DIR: restoredDir, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...s3.env('restored') }
    const config: Config = loadConfig(env)
    try {
      // The binary's own commands when it is under test (its S3 client, in the program self-hosters run).
      let file: string
      if (BINARY) {
        const env0 = { ...process.env, DATA_DIR: h.dataDir, LOG_LEVEL: 'silent', ...(h.config.databaseUrl ? { DATABASE_URL: h.config.databaseUrl } : {}), ...s3.env(BUCKET) }
        const made = await run([BINARY, 'backup', target, '--json'], env0)
        expect(made.code, made.stderr).toBe(0)
        file = JSON.parse(made.stdout).file
      } else file = (await createBackup(h.config, target)).file

      const entries: string[] = []
      let manifest: { photos?: { store: string; count: number } } = {}
      await readTarGz(file, (name) => {
        entries.push(name)
        let text = ''
        return { write: (c) => void (name === 'manifest.json' && (text += new TextDecoder().decode(c))), end: () => void (name === 'manifest.json' && (manifest = JSON.parse(text))) }
      })
      const inBucket = [...s3.objects(BUCKET).keys()].filter((k) => k.startsWith('photos/')).sort()
      expect(inBucket.length).toBeGreaterThan(3) // more than one list page
      expect(entries.filter((e) => e.startsWith('photos/')).sort()).toEqual(inBucket)
      const lists = s3.accepted.filter((r) => r.method === 'GET' && r.path === `/${BUCKET}/`)
      expect(lists.length).toBeGreaterThanOrEqual(Math.ceil(inBucket.length / 3))
      expect(inBucket).toContain(keyOf(p!.url))
      expect(manifest.photos).toEqual({ store: 's3', count: inBucket.length })

      if (BINARY) {
        const done = await run([BINARY, 'restore', file, '--json'], { ...process.env, ...env })
        expect(done.code, done.stderr + done.stdout).toBe(0)
      } else await restoreBackup(config, file)
      expect([...s3.objects('restored').keys()].sort()).toEqual(inBucket)
      expect(diskPhotos(restoredDir)).toEqual([])

      const source = databaseUrl ? await openDataSource(config) : sqliteSource(openDatabase(config.databasePath))
      const ctx = createContext(source, config)
      try {
        const res = await createApp(ctx).handle(new Request(`http://localhost${p!.url}`, { headers: asha.bearer }))
        expect(res.status).toBe(200)
        expect(new Uint8Array(await res.arrayBuffer())).toEqual(served)
      } finally {
        await ctx.features.stop()
        await ctx.mail.close()
        await source.close()
      }

      // Restored where photos do not live in a bucket: on SQLite they land in DATA_DIR/photos; on PostgreSQL (which
      // would keep them in the database) the restore is refused before anything changes, saying what to set.
      const plainDir = mkdtempSync(join(tmpdir(), 'brokernet-s3-plain-'))
      try {
        const plainUrl = ON_POSTGRES ? await (await sharedCluster()).createDatabase() : undefined
        const plain = loadConfig({ DATA_DIR: plainDir, NODE_ENV: 'production', ...(plainUrl ? { DATABASE_URL: plainUrl } : {}) })
        if (ON_POSTGRES) await expect(restoreBackup(plain, file)).rejects.toThrow(/S3_BUCKET/)
        else {
          await restoreBackup(plain, file)
          expect(diskPhotos(plainDir).sort()).toEqual(inBucket.map((k) => k.slice('photos/'.length)))
        }
      } finally {
        rmSync(plainDir, { recursive: true, force: true })
      }
    } finally {
      rmSync(target, { recursive: true, force: true })
      rmSync(restoredDir, { recursive: true, force: true })
    }
  }, 180_000)

  test('a bucket that does not answer fails the backup with the reason, and writes no archive', async () => {
    const target = mkdtempSync(join(tmpdir(), 'brokernet-s3-nobackup-'))
    s3.mode('slow-down')
    try {
      await expect(createBackup(h.config, target)).rejects.toThrow(/S3 bucket brokernet-photos could not be read \(S3 listing the photos: SlowDown/)
      expect(readdirSync(target)).toEqual([])
    } finally {
      s3.mode('ok')
      rmSync(target, { recursive: true, force: true })
    }
  }, 120_000)
})

describe('when the bucket does not answer: 503 with a detail, never a 500 or a hang', () => {
  let id: number
  let p: Photo
  beforeAll(async () => {
    id = await newListing()
    ;[p] = await added(id, [png()])
  }, 60_000)

  for (const [what, down, up] of [
    ['503 SlowDown', async () => s3.mode('slow-down'), async () => s3.mode('ok')],
    ['its port closed', () => s3.stop(), async () => s3.start()],
  ] as const)
    test(`${what}: upload and read answer 503 with a detail and Retry-After; nothing is added; back, all works`, async () => {
      await down()
      try {
        const sent = await upload(id, [png()])
        expect(sent.status).toBe(503)
        expect(sent.headers.get('retry-after')).toBe('30')
        expect(await sent.json()).toEqual({ detail: S3_AWAY })
        const read = await image(p.url)
        expect(read.res.status).toBe(503)
        expect(JSON.parse(new TextDecoder().decode(read.bytes))).toEqual({ detail: S3_AWAY })
        // What the database holds still answers: the listing's photo list.
        const list = await h.request(`/api/listings/${id}/photos`, { headers: asha.bearer })
        expect((await list.json()).photos.map((x: Photo) => x.id)).toEqual([p.id])
      } finally {
        await up()
      }
      expect((await image(p.url)).res.status).toBe(200)
      expect((await upload(id, [png()])).status).toBe(201)
      const photos = (await (await h.request(`/api/listings/${id}/photos`, { headers: asha.bearer })).json()).photos as Photo[]
      expect(photos).toHaveLength(2)
      expect((await h.request(`/api/listings/${id}/photos/${photos[1]!.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
    }, 120_000)

  test('a removal while the bucket is away: 204, the photo gone from the listing, its object left (logged)', async () => {
    const [, q] = await added(id, [png()])
    s3.mode('slow-down')
    try {
      expect((await h.request(`/api/listings/${id}/photos/${q!.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
    } finally {
      s3.mode('ok')
    }
    expect(s3.objects(BUCKET).has(keyOf(q!.url))).toBe(true)
    expect((await image(q!.url)).res.status).toBe(404)
  }, 120_000)
})

describe('a misconfigured or silent bucket', () => {
  let wrong: TestApp
  let broker: SignedIn
  beforeAll(async () => {
    // The right key id with a wrong secret, and a short deadline for the silent bucket below.
    wrong = await createTestApp({ ...s3.env('wrong'), S3_SECRET_ACCESS_KEY: 'not-the-secret', S3_TIMEOUT_MS: '1000' })
    const place = await seedPlace(wrong.ctx.db, ['Chennai'])
    broker = await signIn(wrong.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Kavya Rao' })
  }, 120_000)
  afterAll(() => wrong?.close())

  test('a wrong secret: the service refuses the signature (403 SignatureDoesNotMatch) and we answer 503 with a detail', async () => {
    const id = await newListing(wrong, broker)
    const refusedBefore = s3.refused.length
    const res = await upload(id, [png()], wrong, broker)
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ detail: S3_AWAY })
    expect(s3.refused.slice(refusedBefore)).toContainEqual(expect.objectContaining({ method: 'PUT', status: 403, code: 'SignatureDoesNotMatch' }))
    expect(s3.objects('wrong').size).toBe(0)
    expect((await (await wrong.request(`/api/listings/${id}/photos`, { headers: broker.bearer })).json()).photos).toEqual([])
  }, 120_000)

  test('a bucket that never answers: 503 once its deadline (S3_TIMEOUT_MS) has passed, not a hang', async () => {
    const id = await newListing(wrong, broker)
    s3.mode('hang')
    try {
      const res = await upload(id, [png()], wrong, broker)
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ detail: S3_AWAY })
    } finally {
      s3.mode('ok')
    }
  }, 120_000)
})
