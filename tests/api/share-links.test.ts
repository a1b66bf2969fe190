// Public links to a listing for a broker's client (issue 34): `/l/<token>`, server-rendered with no sign-in and no
// script, the sharing broker's name and contact and never the owner's private fields; Open Graph tags with a 1200 × 630
// card; noindex; revocable; 410 once the listing is closed, suspended, expired or deleted; views counted.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestApp, type TestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

const root = new URL('../..', import.meta.url).pathname
let dir: string
let h: TestApp
let asha: SignedIn
let ravi: SignedIn
const PRIVATE = { contact_value: '9000012345', comments: 'Owner wants cash only, private note', reference: 'REF-SECRET-77' }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brokernet-share-'))
  const made = Bun.spawnSync([process.execPath, join(root, 'tests/support/image-fixtures.ts'), dir], { stdout: 'pipe', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`fixtures: ${made.stderr}`)
  h = await createTestApp()
  const place = await seedPlace(h.ctx.db, ['Mumbai'])
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Asha Verma', phone: '+91 98200 11111' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Ravi Kumar', phone: '+91 98200 22222' })
}, 180_000)

// Closing a PostgreSQL test database took over bun's 5 s for a hook on the loaded machine: a generous deadline.
afterAll(async () => {
  await h?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

async function listingWithPhoto(): Promise<{ id: number; large: string }> {
  const body = { post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2BHK', locality: 'Andheri West', budget: 45_000, size: 650, details: 'Sunny flat near the metro', ...PRIVATE, confirm_duplicate: true }
  const res = await h.request('/api/listings', withJson(asha.browser, body))
  expect(res.status).toBe(201)
  const { id } = await res.json()
  const fd = new FormData()
  fd.append('photos', new File([readFileSync(join(dir, 'other.jpg'))], 'front.jpg', { type: 'image/jpeg' }))
  const up = await h.request(`/api/listings/${id}/photos`, { method: 'POST', headers: asha.browser, body: fd })
  expect(up.status).toBe(201)
  return { id, large: (await up.json()).photos[0].url.split('/').at(-1) }
}
const link = async (as: SignedIn, id: number) => h.request(`/api/listings/${id}/share-link`, { method: 'POST', headers: as.browser })
const pathOf = (url: string) => new URL(url).pathname
/** A JPEG's size from its first frame header. */
function jpegSize(b: Uint8Array): [number, number] {
  for (let i = 2; i + 9 < b.length; ) {
    if (b[i] !== 0xff) break
    const marker = b[i + 1]!
    const len = (b[i + 2]! << 8) | b[i + 3]!
    if (marker >= 0xc0 && marker <= 0xc2) return [(b[i + 7]! << 8) | b[i + 8]!, (b[i + 5]! << 8) | b[i + 6]!]
    i += 2 + len
  }
  throw new Error('no frame header')
}

describe('a public link', () => {
  let id: number
  let large: string
  let url: string
  beforeAll(async () => {
    ;({ id, large } = await listingWithPhoto())
    const res = await link(asha, id)
    expect(res.status).toBe(200)
    url = (await res.json()).url
  }, 120_000)

  test('made once per sharer and listing: the same unguessable address every time', async () => {
    expect(pathOf(url)).toMatch(/^\/l\/[A-Za-z0-9_-]{22}$/)
    expect((await (await link(asha, id)).json()).url).toBe(url)
  })

  test('the page, signed out: the listing and the sharer’s contact, none of the owner’s private fields, no script, small, noindex, Open Graph', async () => {
    const res = await h.request(pathOf(url))
    expect(res.status).toBe(200)
    expect(res.headers.get('x-robots-tag')).toContain('noindex')
    const html = await res.text()
    for (const shown of ['2BHK', 'Andheri West', 'Mumbai', 'Sunny flat near the metro', '650 sq ft', 'Asha Verma', 'Verified broker', 'href="tel:+919820011111"', 'https://wa.me/919820011111?text=', `/l/`, large])
      expect(html).toContain(shown)
    expect(html).toMatch(/45,000/)
    for (const hidden of Object.values(PRIVATE)) expect(html).not.toContain(hidden)
    expect(html).not.toContain('<script')
    expect(Bun.gzipSync(new TextEncoder().encode(html)).length).toBeLessThanOrEqual(30 * 1024)
    const meta = (key: string) => new RegExp(`<meta (?:property|name)="${key.replace(':', ':')}" content="([^"]*)"`).exec(html)?.[1]
    expect(meta('robots')).toContain('noindex')
    expect(meta('og:title')).toContain('2BHK for rent in Andheri West')
    expect(meta('og:title')).toContain('45,000')
    expect(meta('og:image')).toBe(`${url}/og.jpg`)
    expect([meta('og:image:width'), meta('og:image:height')]).toEqual(['1200', '630'])
    expect(meta('twitter:card')).toBe('summary_large_image')
  })

  test('its images: the 1200 × 630 preview card, the listing’s photos, and nothing else', async () => {
    const card = await h.request(`${pathOf(url)}/og.jpg`)
    expect(card.status).toBe(200)
    expect(card.headers.get('content-type')).toBe('image/jpeg')
    expect(jpegSize(new Uint8Array(await card.arrayBuffer()))).toEqual([1200, 630])
    const photo = await h.request(`${pathOf(url)}/photos/${large}`)
    expect(photo.status).toBe(200)
    expect(photo.headers.get('content-type')).toBe('image/webp')
    // Another listing's photo is not reachable through this link.
    const other = await listingWithPhoto()
    const fd = new FormData()
    fd.append('photos', new File([readFileSync(join(dir, 'photo.png'))], 'x.png', { type: 'image/png' }))
    const up = await (await h.request(`/api/listings/${other.id}/photos`, { method: 'POST', headers: asha.browser, body: fd })).json()
    const foreign = up.photos[1].url.split('/').at(-1)
    expect((await h.request(`${pathOf(url)}/photos/${foreign}`)).status).toBe(404)
  }, 120_000)

  test('views are counted for the sharer', async () => {
    const before = ((await (await h.request('/api/share-links', { headers: asha.bearer })).json()).links as { url: string; views: number }[]).find((l) => l.url === url)!.views
    await h.request(pathOf(url))
    await h.request(pathOf(url))
    const after = ((await (await h.request('/api/share-links', { headers: asha.bearer })).json()).links as { url: string; views: number }[]).find((l) => l.url === url)!.views
    expect(after).toBe(before + 2)
    // Another broker's list does not hold it.
    expect(((await (await h.request('/api/share-links', { headers: ravi.bearer })).json()).links as unknown[]).length).toBe(0)
  })

  test('the WhatsApp share text links to the page for the owner; another broker’s share links to the network', async () => {
    const own = await (await h.request(`/api/listings/${id}/share`, { headers: asha.bearer })).json()
    expect(own.text).toContain(url)
    const theirs = await (await h.request(`/api/listings/${id}/share`, { headers: ravi.bearer })).json()
    expect(theirs.text).not.toContain('/l/')
    expect(theirs.text).toContain('/dashboard/listings')
  })

  test('another broker cannot make a link to it (403)', async () => {
    expect((await link(ravi, id)).status).toBe(403)
  })
})

describe('a dead link: 410 with a polite page', () => {
  test('closed, suspended or expired: 410, and alive again when ACTIVE; revoked: 410 for good; deleted: 410; unknown: 404', async () => {
    const { id } = await listingWithPhoto()
    const url = (await (await link(asha, id)).json()).url
    const page = () => h.request(pathOf(url))
    const setStatus = (status: string) => h.request(`/api/listings/${id}`, withJson(asha.browser, { status }, 'PATCH'))
    for (const status of ['CLOSED', 'SUSPENDED']) {
      expect((await setStatus(status)).status).toBe(200)
      const res = await page()
      expect(res.status).toBe(410)
      const html = await res.text()
      expect(html).toContain('This link no longer works')
      expect(html).not.toContain('Sunny flat')
      expect((await h.request(`${pathOf(url)}/og.jpg`)).status).toBe(404)
      expect((await setStatus('ACTIVE')).status).toBe(200)
      expect((await page()).status).toBe(200)
    }
    await h.ctx.db.run("update listings set status = 'EXPIRED' where id = ?", [id])
    expect((await page()).status).toBe(410)
    await h.ctx.db.run("update listings set status = 'ACTIVE' where id = ?", [id])
    expect((await page()).status).toBe(200)

    const mine = ((await (await h.request('/api/share-links', { headers: asha.bearer })).json()).links as { id: number; url: string }[]).find((l) => l.url === url)!
    expect((await h.request(`/api/share-links/${mine.id}`, { method: 'DELETE', headers: ravi.browser })).status).toBe(404)
    expect((await h.request(`/api/share-links/${mine.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
    expect((await page()).status).toBe(410)
    // A new link is a new address; the revoked one stays dead.
    const fresh = (await (await link(asha, id)).json()).url
    expect(fresh).not.toBe(url)
    expect((await h.request(pathOf(fresh))).status).toBe(200)

    expect((await h.request(`/api/listings/${id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
    expect((await h.request(pathOf(fresh))).status).toBe(410)
    expect((await h.request('/l/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
    expect((await h.request('/l/not-a-token')).status).toBe(404)
  }, 120_000)
})

describe('onward sharing: another broker’s public link, with the owner’s consent (issue 34)', () => {
  const onward = (id: number, onward_sharing: string, as = asha) => h.request(`/api/listings/${id}`, withJson(as.browser, { onward_sharing }, 'PATCH'))
  const linksOf = async (as: SignedIn) => (await (await h.request('/api/share-links', { headers: as.bearer })).json()).links as { id: number; url: string; views: number; listing_id: number; revoked_at: string | null }[]
  const DETAILS = 'Sunny flat near the metro, call me on 98200 99999 or mail asha.owner@example.com'
  let id: number
  beforeAll(async () => {
    ;({ id } = await listingWithPhoto())
    expect((await h.request(`/api/listings/${id}`, withJson(asha.browser, { details: DETAILS }, 'PATCH'))).status).toBe(200)
  }, 120_000)

  test('off by default: another broker’s link is refused (403 saying why), their share text links to the network', async () => {
    expect((await (await h.request(`/api/listings/${id}`, { headers: asha.bearer })).json()).onward_sharing).toBe('OFF')
    const res = await link(ravi, id)
    expect(res.status).toBe(403)
    expect((await res.json()).detail).toContain('has not allowed other brokers to share it')
    const share = await (await h.request(`/api/listings/${id}/share`, { headers: ravi.bearer })).json()
    expect(share.public_url).toBeNull()
    expect(share.text).not.toContain('/l/')
  })

  test('only the owner gives it: an admin of the city who may edit the listing gets 403; a wrong value 422', async () => {
    const admin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: asha.user.cityId })
    const res = await onward(id, 'NAMED', admin)
    expect(res.status).toBe(403)
    expect((await res.json()).detail).toContain('Only the listing’s broker')
    expect((await onward(id, 'EVERYONE')).status).toBe(422)
    expect((await (await h.request(`/api/listings/${id}`, { headers: asha.bearer })).json()).onward_sharing).toBe('OFF')
  })

  test('NAMED: the sharer’s page names them with their contact, the owner by name only; details without numbers; views for the sharer', async () => {
    expect((await onward(id, 'NAMED')).status).toBe(200)
    const res = await link(ravi, id)
    expect(res.status).toBe(200)
    const { url, listing_id } = await res.json()
    expect(listing_id).toBe(id)
    const html = await (await h.request(pathOf(url))).text()
    for (const shown of ['Ravi Kumar', 'href="tel:+919820022222"', 'https://wa.me/919820022222?text=', 'Listed on Brokernet by Asha Verma', 'Sunny flat near the metro', '[number hidden]', '[email hidden]']) expect(html).toContain(shown)
    for (const hidden of [...Object.values(PRIVATE), '9820011111', '98200 11111', '98200 99999', 'asha.owner@example.com']) expect(html).not.toContain(hidden)
    // Views count on the sharer's link, not on the owner's list.
    await h.request(pathOf(url))
    expect((await linksOf(ravi)).find((l) => l.url === url)!.views).toBe(2)
    expect((await linksOf(asha)).some((l) => l.url === url)).toBe(false)
    // The sharer's WhatsApp text links there, with the sharer's contact, never the owner's.
    const share = await (await h.request(`/api/listings/${id}/share`, { headers: ravi.bearer })).json()
    expect(share.public_url).toBe(url)
    expect(share.text).toContain(url)
    expect(share.text).toContain('Ravi Kumar +91 98200 22222')
    expect(share.text).not.toContain(PRIVATE.contact_value)
    expect(share.text).not.toContain('Asha')
  })

  test('ANONYMOUS: the owner’s name is nowhere on the page, its tags or its text', async () => {
    expect((await onward(id, 'ANONYMOUS')).status).toBe(200)
    const { url } = await (await link(ravi, id)).json()
    const res = await h.request(pathOf(url))
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Ravi Kumar')
    for (const hidden of ['Asha', 'Verma', 'Listed on Brokernet by', ...Object.values(PRIVATE), '9820011111', '98200 99999']) expect(html).not.toContain(hidden)
  })

  test('ANONYMOUS: the owner’s name and phone as on her profile, typed by hand in any case or spacing, are hidden on the page, its tags and the sharer’s text', async () => {
    const { id: other } = await listingWithPhoto()
    const typed = 'Owner ASHA VERMA here: call asha  verma on +91 98200 11111 or 098200-11111, or mail asha.verma@example.com. Asha’s flat near Ashapura Society, ask for Verma ji.'
    const body = { details: typed, property_type: '2BHK of Asha', onward_sharing: 'ANONYMOUS' }
    expect((await h.request(`/api/listings/${other}`, withJson(asha.browser, body, 'PATCH'))).status).toBe(200)
    const { url } = await (await link(ravi, other)).json()
    const html = await (await h.request(pathOf(url))).text()
    expect(html).not.toMatch(/asha\b|asha’|verma/i)
    expect(html).not.toContain('11111')
    for (const shown of ['Owner [name hidden] here: call [name hidden] on [number hidden] or [number hidden], or mail [email hidden]', '[name hidden]’s flat near Ashapura Society, ask for [name hidden] ji.', '2BHK of [name hidden]'])
      expect(html).toContain(shown)
    expect(html).toMatch(/<meta property="og:description" content="Owner \[name hidden\] here/)
    // The sharer's WhatsApp text: what the property is, without her name.
    const share = await (await h.request(`/api/listings/${other}/share`, { headers: ravi.bearer })).json()
    expect(share.text).toContain('2BHK of [name hidden]')
    expect(share.text).not.toMatch(/asha|verma/i)
    // NAMED: the page names her anyway, so her words keep her name; her numbers still go. Her own page is hers, as typed.
    expect((await onward(other, 'NAMED')).status).toBe(200)
    const named = await (await h.request(pathOf(url))).text()
    expect(named).toContain('Owner ASHA VERMA here: call asha  verma on [number hidden]')
    expect((await (await h.request(`/api/listings/${other}/share`, { headers: ravi.bearer })).json()).text).toContain('2BHK of Asha')
    const own = await (await h.request(pathOf((await (await link(asha, other)).json()).url))).text()
    expect(own).toContain('call asha  verma on +91 98200 11111')
  }, 120_000)

  test('revocable by its creator only; consent withdrawn kills every onward link for good (410), the owner’s own stays', async () => {
    const own = (await (await link(asha, id)).json()).url
    const first = (await (await link(ravi, id)).json()).url
    const mine = (await linksOf(ravi)).find((l) => l.url === first)!
    expect((await h.request(`/api/share-links/${mine.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(404)
    expect((await h.request(`/api/share-links/${mine.id}`, { method: 'DELETE', headers: ravi.browser })).status).toBe(204)
    expect((await h.request(pathOf(first))).status).toBe(410)

    const second = (await (await link(ravi, id)).json()).url
    expect(second).not.toBe(first)
    expect((await h.request(pathOf(second))).status).toBe(200)
    expect((await onward(id, 'OFF')).status).toBe(200)
    const dead = await h.request(pathOf(second))
    expect(dead.status).toBe(410)
    expect(await dead.text()).toContain('This link no longer works')
    expect((await h.request(`${pathOf(second)}/og.jpg`)).status).toBe(404)
    expect((await (await linksOf(ravi)).find((l) => l.url === second)!).revoked_at).not.toBeNull()
    expect((await h.request(pathOf(own))).status).toBe(200)
    expect((await link(ravi, id)).status).toBe(403)
    // Consent given again: the old links stay dead; a new one works.
    expect((await onward(id, 'NAMED')).status).toBe(200)
    expect((await h.request(pathOf(second))).status).toBe(410)
    const third = (await (await link(ravi, id)).json()).url
    expect((await h.request(pathOf(third))).status).toBe(200)
    // Written beside the app (no after-write): the page still judges consent at each view.
    await h.ctx.db.run("update listings set onward_sharing = 'OFF' where id = ?", [id])
    expect((await h.request(pathOf(third))).status).toBe(410)
    expect((await h.request(pathOf(own))).status).toBe(200)
  })

  test('the list (the screen of one’s links) says whose listing each link shows, as the caller sees it now, and whether its page opens', async () => {
    type Listed = { id: number; url: string; live: boolean; revoked_at: string | null; listing: Record<string, unknown> | null }
    const listed = async (as: SignedIn, url: string) => ((await (await h.request('/api/share-links', { headers: as.bearer })).json()).links as Listed[]).find((l) => l.url === url)!
    // `live` is what the page answers, whatever the reason it does not open.
    const agrees = async (as: SignedIn, url: string) => expect((await listed(as, url)).live).toBe((await h.request(pathOf(url))).status === 200)
    const { id: other } = await listingWithPhoto()
    expect((await onward(other, 'ANONYMOUS')).status).toBe(200)
    const own = (await (await link(asha, other)).json()).url
    const theirs = (await (await link(ravi, other)).json()).url
    const entry_id = (await (await h.request(`/api/listings/${other}`, { headers: asha.bearer })).json()).entry_id
    const shown = { entry_id, post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2BHK', locality: 'Andheri West', status: 'ACTIVE', onward_sharing: 'ANONYMOUS' }
    expect(await listed(asha, own)).toMatchObject({ live: true, revoked_at: null, listing: { ...shown, own: true } })
    expect(await listed(ravi, theirs)).toMatchObject({ live: true, listing: { ...shown, own: false } })
    // Nothing private in it.
    expect(JSON.stringify(await listed(ravi, theirs))).not.toContain(PRIVATE.contact_value)
    for (const url of [own, theirs]) await agrees(url === own ? asha : ravi, url)

    // Consent withdrawn: the other broker's link is revoked; the owner's own opens still.
    expect((await onward(other, 'OFF')).status).toBe(200)
    expect(await listed(ravi, theirs)).toMatchObject({ live: false, listing: { onward_sharing: 'OFF', own: false } })
    expect((await listed(ravi, theirs)).revoked_at).not.toBeNull()
    await agrees(ravi, theirs)
    // Closed: the owner's link does not open, and says why through its listing's status.
    expect((await h.request(`/api/listings/${other}`, withJson(asha.browser, { status: 'CLOSED' }, 'PATCH'))).status).toBe(200)
    expect(await listed(asha, own)).toMatchObject({ live: false, revoked_at: null, listing: { status: 'CLOSED', own: true } })
    await agrees(asha, own)
    // Consent given again (no revival of the revoked link), a new onward link, then the listing hidden from the sharer:
    // their list no longer says what it is.
    expect((await h.request(`/api/listings/${other}`, withJson(asha.browser, { status: 'ACTIVE', onward_sharing: 'NAMED' }, 'PATCH'))).status).toBe(200)
    const again = (await (await link(ravi, other)).json()).url
    await agrees(ravi, again)
    expect((await listed(ravi, again)).live).toBe(true)
    expect((await h.request(`/api/listings/${other}`, withJson(asha.browser, { visibility: 'ONLY_ME' }, 'PATCH'))).status).toBe(200)
    expect(await listed(ravi, again)).toMatchObject({ live: false, revoked_at: null, listing: null })
    await agrees(ravi, again)
    await agrees(asha, own)
  }, 120_000)

  test('the sharer must see the listing: hidden from them later (only its owner), the page is gone', async () => {
    const { id: other } = await listingWithPhoto()
    expect((await onward(other, 'NAMED')).status).toBe(200)
    const { url } = await (await link(ravi, other)).json()
    expect((await h.request(pathOf(url))).status).toBe(200)
    expect((await h.request(`/api/listings/${other}`, withJson(asha.browser, { visibility: 'ONLY_ME' }, 'PATCH'))).status).toBe(200)
    expect((await h.request(pathOf(url))).status).toBe(410)
    expect((await link(ravi, other)).status).toBe(404)
  }, 120_000)
})
