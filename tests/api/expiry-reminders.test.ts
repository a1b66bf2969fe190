// Expiry reminders and renew links (issue 17): 3 days before a listing's end its owner gets one mail (through the real
// SMTP server) with a one-click renew link, signed, working once and for 7 days, and an `expiring` event on their
// stream, whichever process recorded the reminder. GET on the link never renews; its page's button (a POST) does.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { openDatabase } from '../../db/client'
import { openDataSource, sqliteSource } from '../../db/open'
import { Mailer } from '../../src/platform/mail'
import { runExpiryReminders } from '../../src/modules/listings/reminders'
import { renewKey, renewToken } from '../../src/modules/listings/renew-link'
import { RENEW_LINK_MS } from '../../src/shared/constants'
import { createTestApp, ON_POSTGRES } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventStreamReader } from '../support/events'
import { auditTrail, seedPlace } from '../support/fixtures'
import { decodeQp, startSmtp } from '../support/smtp'

const PUBLIC_URL = 'https://brokernet.test'
const DAY = 86_400_000
const smtp = await startSmtp()
const h = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL })
afterAll(async () => {
  await h.close()
  await smtp.close()
})
let city: number
let owners = 0
/** A broker of their own per test: mails and events are counted per owner. */
const owner = () => signIn(h.ctx.db, 'BROKER', { cityId: city, fullName: `Owner ${++owners}` })

type Answer = { id: number; entry_id: string; status: string; expires_at: string }
async function post(who: SignedIn, endsIn: number, body: Record<string, unknown> = {}): Promise<Answer> {
  const res = await h.request(
    '/api/listings',
    withJson(who.browser, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: '2 BHK', expires_at: new Date(Date.now() + endsIn).toISOString(), ...body }),
  )
  expect(res.status).toBe(201)
  return res.json()
}
/** Runs the reminders as the primary's timer does, then waits until the outbox has delivered what they queued. */
async function remind(now = Date.now()) {
  const sent = await runExpiryReminders(h.ctx, now)
  await h.mailIdle()
  return sent
}
const mailsTo = (who: SignedIn) => smtp.received.filter((m) => m.to.includes(who.user.email)).map((m) => decodeQp(m.raw))
const LINK = new RegExp(`${PUBLIC_URL}/renew/([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)`)
const linkIn = (mail: string) => LINK.exec(mail)![1]!
const stored = async (id: number) => (await h.ctx.db.get<{ status: string; expires_at: number }>('select status, expires_at from listings where id = ?', [id]))!
const renewals = async (id: number) => auditTrail(h.ctx.db, { action: 'listing.renew', entityId: id })
const page = (token: string, method = 'GET') => h.request(`/renew/${token}`, { method, headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {} })

beforeAll(async () => {
  city = (await seedPlace(h.ctx.db, ['Pune'])).cities[0]!.id
})

describe('the reminder mail', () => {
  test('a listing ending in 2 days gets one mail (running twice sends one) with its entry ID, type, end and renew link; one ending in 10 days none', async () => {
    const asha = await owner()
    const soon = await post(asha, 2 * DAY)
    const later = await post(asha, 10 * DAY)
    expect(await remind()).toEqual({ users: 1, listings: 1 })
    expect(await remind()).toEqual({ users: 0, listings: 0 })
    const mails = mailsTo(asha)
    expect(mails).toHaveLength(1)
    expect(mails[0]).toContain(`Subject: Your listing ${soon.entry_id} expires soon`)
    expect(mails[0]).toContain(`${soon.entry_id}: 2 BHK, Pune`)
    const end = new Date(soon.expires_at)
    expect(mails[0]).toContain(`${end.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${end.getUTCDate()}, ${end.getUTCFullYear()}`)
    expect(mails[0]).toContain(`${PUBLIC_URL}/renew/`)
    expect(mails[0]).not.toContain(later.entry_id)
    expect(await h.ctx.db.get('select expires_at from listing_reminders where listing_id = ?', [soon.id])).toEqual({ expires_at: Date.parse(soon.expires_at) })
  })

  test('one mail per owner names each of their listings due, each with its own link', async () => {
    const ravi = await owner()
    const [a, b] = [await post(ravi, 1 * DAY), await post(ravi, 2.5 * DAY)]
    expect(await remind()).toEqual({ users: 1, listings: 2 })
    const [mail, ...more] = mailsTo(ravi)
    expect(more).toHaveLength(0)
    expect(mail).toContain('Subject: 2 of your listings expire soon')
    const links = new Set([...mail!.matchAll(new RegExp(LINK, 'g'))].map((m) => m[1]))
    expect(links.size).toBe(2)
    expect(mail!.indexOf(a.entry_id)).toBeLessThan(mail!.indexOf(b.entry_id))
  })

  test('two senders at once (a second process) still mail each end once', async () => {
    const kiran = await owner()
    await post(kiran, 2 * DAY)
    const runs = await Promise.all([runExpiryReminders(h.ctx), runExpiryReminders(h.ctx)])
    await h.mailIdle()
    expect(runs.reduce((n, r) => n + r.listings, 0)).toBe(1)
    expect(mailsTo(kiran)).toHaveLength(1)
  })

  test('after a renewal the new end is reminded again, but only once it is within 3 days', async () => {
    const meera = await owner()
    const l = await post(meera, 2 * DAY)
    await remind()
    expect((await h.request(`/api/listings/${l.id}/renew`, withJson(meera.browser, {}))).status).toBe(200)
    const renewedEnd = (await stored(l.id)).expires_at
    const mailsAt = async (now: number) => (await remind(now), mailsTo(meera).length)
    expect(await mailsAt(Date.now())).toBe(1)
    expect(await mailsAt(renewedEnd - 4 * DAY)).toBe(1)
    expect(await mailsAt(renewedEnd - 2 * DAY)).toBe(2)
    expect(await mailsAt(renewedEnd - 1 * DAY)).toBe(2)
    expect(mailsTo(meera)[1]).toContain(l.entry_id)
  })

  test('closed listings, and owners who can no longer sign in, are not reminded', async () => {
    const gone = await owner()
    const closed = await post(gone, 2 * DAY)
    expect((await h.request(`/api/listings/${closed.id}`, withJson(gone.browser, { status: 'CLOSED' }, 'PATCH'))).status).toBe(200)
    const left = await owner()
    await post(left, 2 * DAY)
    await h.ctx.db.run('update users set is_active = false where id = ?', [left.user.id])
    await remind()
    expect([mailsTo(gone), mailsTo(left)]).toEqual([[], []])
  })
})

describe('the renew link', () => {
  let who: SignedIn
  let listing: Answer
  let token: string

  beforeAll(async () => {
    who = await owner()
    listing = await post(who, 2 * DAY)
    await remind()
    token = linkIn(mailsTo(who)[0]!)
  })

  test('GET shows the offer and does not renew (mail scanners and previews fetch links)', async () => {
    const before = await stored(listing.id)
    for (let i = 0; i < 2; i++) {
      const res = await page(token)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
      const html = await res.text()
      expect(html).toContain(`Renew <strong>${listing.entry_id}</strong> (2 BHK, Pune) until`)
      expect(html).toContain(`action="/renew/${token}"`)
      expect(html).toContain('method="post"')
    }
    expect(await stored(listing.id)).toEqual(before)
    expect(await renewals(listing.id)).toHaveLength(0)
  })

  test('POST renews as the owner (audited, via link) and says until when; the same link again is refused', async () => {
    const t0 = Date.now()
    const res = await page(token, 'POST')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Listing renewed')
    expect(html).toMatch(new RegExp(`<strong>${listing.entry_id}</strong> renewed until <strong>[A-Z][a-z]{2} \\d{1,2}, \\d{4}`))
    const after = await stored(listing.id)
    expect(after.status).toBe('ACTIVE')
    expect(after.expires_at).toBeGreaterThanOrEqual(t0 + 30 * DAY)
    const [audit, ...more] = await renewals(listing.id)
    expect(more).toHaveLength(0)
    expect(audit!.actorUserId).toBe(who.user.id)
    expect((audit!.after as { via: string }).via).toBe('link')

    for (const method of ['POST', 'GET']) {
      const again = await page(token, method)
      expect(again.status).toBe(410)
      expect(await again.text()).toContain('used already')
    }
    expect((await stored(listing.id)).expires_at).toBe(after.expires_at)
  })

  test('the same link posted twice at once renews once', async () => {
    const l = await post(who, 2 * DAY)
    const link = renewToken(await renewKey(h.ctx.db), { id: l.id, expiresAt: Date.parse(l.expires_at) }, Date.now())
    const statuses = (await Promise.all([page(link, 'POST'), page(link, 'POST')])).map((r) => r.status)
    expect(statuses.sort()).toEqual([200, 410])
    expect(await renewals(l.id)).toHaveLength(1)
  })

  test('an expired listing is put back on the network by its link', async () => {
    const l = await post(who, 1 * DAY)
    const link = renewToken(await renewKey(h.ctx.db), { id: l.id, expiresAt: Date.parse(l.expires_at) }, Date.now())
    await h.ctx.db.run("update listings set status = 'EXPIRED' where id = ?", [l.id]) // what the clock does at its end
    expect((await stored(l.id)).status).toBe('EXPIRED')
    expect(await (await page(link)).text()).toContain('It expired on')
    expect((await page(link, 'POST')).status).toBe(200)
    expect((await stored(l.id)).status).toBe('ACTIVE')
  })

  test('a tampered or malformed token is refused with 400, never a 500, and changes nothing', async () => {
    const l = await post(who, 2 * DAY)
    const good = renewToken(await renewKey(h.ctx.db), { id: l.id, expiresAt: Date.parse(l.expires_at) }, Date.now())
    const [payload, signature] = good.split('.') as [string, string]
    const otherListing = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), l: listing.id })).toString('base64url')
    const flipped = signature.slice(0, 5) + (signature[5] === 'A' ? 'B' : 'A') + signature.slice(6)
    for (const bad of [`${otherListing}.${signature}`, `${payload}.${flipped}`, `${payload}.${signature.slice(0, -2)}`, payload, `${good}.x`, 'x', '%E0%A4%A', 'a'.repeat(3000)])
      for (const method of ['GET', 'POST']) {
        const res = await page(bad, method)
        expect({ bad, method, status: res.status }).toEqual({ bad, method, status: 400 })
        expect(await res.text()).toContain('Sign in and renew the listing from My Listings')
      }
    expect(await renewals(l.id)).toHaveLength(0)
  })

  test('a token for a listing renewed since, or older than 7 days, is refused with 410', async () => {
    const key = await renewKey(h.ctx.db)
    const renewedSince = await post(who, 2 * DAY)
    const old = renewToken(key, { id: renewedSince.id, expiresAt: Date.parse(renewedSince.expires_at) }, Date.now())
    expect((await h.request(`/api/listings/${renewedSince.id}/renew`, withJson(who.browser, {}))).status).toBe(200)
    const res = await page(old, 'POST')
    expect(res.status).toBe(410)
    expect(await res.text()).toContain('used already')

    const waited = await post(who, 2 * DAY)
    const stale = renewToken(key, { id: waited.id, expiresAt: Date.parse(waited.expires_at) }, Date.now() - RENEW_LINK_MS - 1000)
    for (const method of ['GET', 'POST']) {
      const r = await page(stale, method)
      expect(r.status).toBe(410)
      expect(await r.text()).toContain('expired: each works for 7 days')
    }
    expect(await renewals(waited.id)).toHaveLength(0)
  })

  test('a closed listing’s link says it cannot be renewed (409)', async () => {
    const l = await post(who, 2 * DAY)
    const link = renewToken(await renewKey(h.ctx.db), { id: l.id, expiresAt: Date.parse(l.expires_at) }, Date.now())
    expect((await h.request(`/api/listings/${l.id}`, withJson(who.browser, { status: 'CLOSED' }, 'PATCH'))).status).toBe(200)
    const res = await page(link, 'POST')
    expect(res.status).toBe(409)
    expect(await res.text()).toContain('is closed, so it cannot be renewed')
  })

  test('every process signs with the one key in app_secrets, made once', async () => {
    const rows = await h.ctx.db.all<{ value: string }>("select value from app_secrets where name = 'renew-links'")
    expect(rows).toHaveLength(1)
    expect(rows[0]!.value).toBe((await renewKey(h.ctx.db)).toString('base64url'))
  })
})

describe('the expiring event', () => {
  const open: Array<() => Promise<unknown>> = []
  afterEach(async () => {
    for (const close of open.splice(0)) await close()
  })
  async function connect(as: SignedIn) {
    const abort = new AbortController()
    const res = await h.request('/api/events', { headers: as.bearer, signal: abort.signal })
    expect(res.status).toBe(200)
    const stream = eventStreamReader(res)
    open.push(async () => (abort.abort(), await stream.cancel()))
    return stream
  }
  const ids = (data: { listings: { id: number }[] }) => data.listings.map((l) => l.id)

  test('on connect: the owner’s listings ending within 3 days, with entry ID and end; a renewal takes one off', async () => {
    const asha = await owner()
    const soon = await post(asha, 2 * DAY)
    await post(asha, 10 * DAY)
    const stream = await connect(asha)
    expect(await stream.expect('expiring')).toEqual({ listings: [{ id: soon.id, entry_id: soon.entry_id, expires_at: soon.expires_at }] })
    expect((await h.request(`/api/listings/${soon.id}/renew`, withJson(asha.browser, {}))).status).toBe(200)
    expect(await stream.expect('expiring')).toEqual({ listings: [] })
  })

  test('a reminder recorded by another process reaches the owner’s stream, and no one else’s', async () => {
    const ravi = await owner()
    const kiran = await owner()
    const theirs = await post(ravi, 2 * DAY)
    const mine = await connect(ravi)
    const others = await connect(kiran)
    expect(ids(await mine.expect('expiring'))).toEqual([theirs.id])
    expect(ids(await others.expect('expiring'))).toEqual([])

    // Another process on the same database: its own connections, feed and outbox.
    const other = ON_POSTGRES ? await openDataSource(h.config, { migrate: false }) : sqliteSource(openDatabase(h.config.databasePath))
    const mail = new Mailer(other.db, h.config)
    try {
      expect((await runExpiryReminders({ db: other.db, mail, config: h.config })).listings).toBeGreaterThanOrEqual(1)
      await mail.idle()
    } finally {
      await mail.close()
      await other.close()
    }
    expect(ids(await mine.expect('expiring'))).toEqual([theirs.id])
    expect(await others.next('expiring', 700)).toBeNull()
    expect(mailsTo(ravi)).toHaveLength(1)
  })
})
