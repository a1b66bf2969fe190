// The installable app's server side (issue 33): the manifest, the service worker's script, and "Share → Brokernet"
// (the manifest's share_target posts the shared text; it is kept in a cookie and read once into the paste screen,
// across a sign-in when needed). In process, against the binary and on PostgreSQL like every API suite.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeShared, encodeShared, sharedText, SHARED_COOKIE } from '../../src/modules/intake/share-target'
import { createTestApp } from '../support/app'
import { signIn, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let broker: SignedIn

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai'])
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })
})

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' as const })
const cookieOf = (res: Response) => /^brokernet_shared=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]
/** The paste island's props as the server wrote them into the page. */
const pasteProps = (html: string) => JSON.parse(/<script type="application\/json" id="island-props-[^"]+">([^<]*)<\/script>/.exec(html.slice(html.indexOf('data-island="PasteFromWhatsApp"')))![1]!)

describe('the manifest and the worker', () => {
  test('the manifest: standalone from /dashboard, theme colours, icons, the share target; never cached long', async () => {
    const res = await h.request('/manifest.webmanifest')
    expect(res.headers.get('content-type')).toBe('application/manifest+json')
    const m = await res.json()
    expect(m).toMatchObject({ start_url: '/dashboard', display: 'standalone', share_target: { action: '/dashboard/paste/share', method: 'POST', enctype: 'multipart/form-data' } })
    // Text with images (issue 34): the photos' field, images only.
    expect(m.share_target.params).toMatchObject({ title: 'title', text: 'text', url: 'url', files: [{ name: 'photos' }] })
    expect(m.share_target.params.files[0].accept).toContain('image/*')
    for (const icon of m.icons) expect((await h.request(icon.src)).headers.get('content-type')).toBe('image/png')
  })

  test('/sw.js: the worker with its version and the files it keeps, revalidated at every visit', async () => {
    const res = await h.request('/sw.js')
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const code = await res.text()
    const precache = JSON.parse(/const PRECACHE = (\[.*\])/.exec(code)![1]!) as string[]
    expect(precache.some((u) => u.endsWith('.css'))).toBe(true)
    expect(precache.every((u) => u.startsWith('/assets/') && !u.includes('swagger'))).toBe(true)
    expect(code).toMatch(/^const VERSION = "[\w.-]+"/)
    expect(code).toContain("self.addEventListener('push'")
    // The share target's photos are kept in the browser by the worker (issue 34): it knows the path and the cache.
    expect(code).toContain('const SHARE_PATH = "/dashboard/paste/share"')
    expect(code).toContain('const SHARED_PHOTOS = "shared-photos-v1"')
  })
})

describe('Share → Brokernet', () => {
  test('the share is kept and the browser sent to the paste screen, which reads it once into its props and forgets it', async () => {
    const res = await h.request('/dashboard/paste/share', form({ title: 'WhatsApp', text: 'AVL 2 BHK Andheri West 55k. Call 98200 12345' }))
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/dashboard/paste?shared=1')
    const kept = cookieOf(res)!
    expect(res.headers.get('set-cookie')).toContain('HttpOnly')
    const page = await h.request('/dashboard/paste?shared=1', { headers: { cookie: `${broker.browser.cookie}; ${SHARED_COOKIE}=${kept}` } })
    expect(page.status).toBe(200)
    expect(pasteProps(await page.text()).shared).toEqual({ text: 'WhatsApp\nAVL 2 BHK Andheri West 55k. Call 98200 12345', truncated: false })
    expect(page.headers.get('set-cookie')).toContain(`${SHARED_COOKIE}=; Path=/dashboard/paste; Max-Age=0`)
    // Without ?shared=1, or with a cookie that is not ours, nothing is read.
    const plain = await h.request('/dashboard/paste', { headers: { cookie: `${broker.browser.cookie}; ${SHARED_COOKIE}=${kept}` } })
    expect(pasteProps(await plain.text()).shared).toBeNull()
    const forged = await h.request('/dashboard/paste?shared=1', { headers: { cookie: `${broker.browser.cookie}; ${SHARED_COOKIE}=w.bm90LWRlZmxhdGU` } })
    expect(pasteProps(await forged.text()).shared).toBeNull()
  })

  test('signed out: the sign-in comes first and returns to the screen that reads the share', async () => {
    const res = await h.request('/dashboard/paste/share', form({ text: 'REQ 1 BHK Powai 40k' }))
    expect(res.status).toBe(303)
    const next = await h.request(res.headers.get('location')!, { headers: { cookie: `${SHARED_COOKIE}=${cookieOf(res)}` }, redirect: 'manual' })
    expect(next.status).toBe(302)
    expect(next.headers.get('location')).toBe(`/login?redirect=${encodeURIComponent('/dashboard/paste?shared=1')}`)
  })

  test('nothing shared goes to the empty screen; a share too long for a cookie keeps its first lines and says so', async () => {
    const empty = await h.request('/dashboard/paste/share', form({ text: '  ' }))
    expect([empty.status, empty.headers.get('location'), cookieOf(empty)]).toEqual([303, '/dashboard/paste', undefined])
    // Random text does not compress: many lines of it cannot all fit.
    const lines = Array.from({ length: 400 }, (_, i) => `${i}: ${crypto.randomUUID()} ${crypto.randomUUID()}`)
    const { value, truncated } = encodeShared(lines.join('\n'))
    expect(truncated).toBe(true)
    expect(value.length).toBeLessThanOrEqual(3802)
    const back = decodeShared(value)!
    expect(back.truncated).toBe(true)
    expect(lines.join('\n').startsWith(back.text)).toBe(true)
    expect(back.text.split('\n').length).toBeGreaterThan(10)
    expect(sharedText({ title: 'Forwarded', text: 'see https://a.example/1', url: 'https://a.example/1' })).toBe('Forwarded\nsee https://a.example/1')
  })

  test('photos shared with the text (issue 34): kept by the worker, their number in the screen’s address; those reaching the server counted as lost', async () => {
    // The worker's forward: the text, and how many photos it kept in the browser.
    const kept = await h.request('/dashboard/paste/share', form({ text: 'AVL 3 BHK Juhu 1.2 L', kept_photos: '3' }))
    expect(kept.status).toBe(303)
    expect(kept.headers.get('location')).toBe('/dashboard/paste?shared=1&photos=3')
    expect(cookieOf(kept)).toBeTruthy()
    // Photos alone: the screen takes them, no text cookie.
    const alone = await h.request('/dashboard/paste/share', form({ kept_photos: '2' }))
    expect([alone.headers.get('location'), cookieOf(alone)]).toEqual(['/dashboard/paste?shared=1&photos=2', undefined])
    // Multipart as Android sends it, no worker in control: the text is kept, the photos are not (nobody signed in owns them).
    const body = new FormData()
    body.append('text', 'REQ 2 BHK Powai 50k')
    for (const name of ['a.jpg', 'b.jpg']) body.append('photos', new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], name, { type: 'image/jpeg' }))
    const direct = await h.request('/dashboard/paste/share', { method: 'POST', body, redirect: 'manual' })
    expect(direct.status).toBe(303)
    expect(direct.headers.get('location')).toBe('/dashboard/paste?shared=1&dropped=2')
    expect(decodeShared(cookieOf(direct))!.text).toBe('REQ 2 BHK Powai 50k')
    expect((await h.ctx.db.all('select id from listing_photos')).length).toBe(0)
    // The screen's props say so; a number beyond 10 or not a number is bounded.
    const page = await h.request('/dashboard/paste?shared=1&photos=3&dropped=x', { headers: { cookie: broker.browser.cookie } })
    expect(pasteProps(await page.text()).sharedPhotos).toEqual({ kept: 3, dropped: 0 })
    const wild = await h.request('/dashboard/paste?shared=1&photos=99', { headers: { cookie: broker.browser.cookie } })
    expect(pasteProps(await wild.text()).sharedPhotos).toEqual({ kept: 10, dropped: 0 })
    expect(pasteProps(await (await h.request('/dashboard/paste?photos=3', { headers: { cookie: broker.browser.cookie } })).text()).sharedPhotos).toEqual({ kept: 0, dropped: 0 })
    // Signed out: the sign-in returns to the address that still says how many.
    const next = await h.request('/dashboard/paste?shared=1&photos=3', { redirect: 'manual' })
    expect(next.headers.get('location')).toBe(`/login?redirect=${encodeURIComponent('/dashboard/paste?shared=1&photos=3')}`)
  })
})
