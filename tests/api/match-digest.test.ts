// The digest mail of new matches (issue 15), delivered to a real SMTP server through the outbox: one mail per user
// with their unseen, undismissed matches and a link to each; none again within MATCH_DIGEST_HOURS; an entry is mailed
// once; MATCH_DIGEST_HOURS=0 sends nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DIGEST_LIMIT, runMatchDigest } from '../../src/modules/matches/digest'
import { createTestAppWithSmtp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'
import { decodeQp } from '../support/smtp'

const PUBLIC_URL = 'https://brokernet.test'
const { h, smtp, close } = await createTestAppWithSmtp({ PUBLIC_URL })
afterAll(close)

let asha: SignedIn // two requirements: her matches are seen, dismissed or left new
let kiran: SignedIn // one requirement: every match new
let ravi: SignedIn // posts the availabilities: his own entries are seen at birth, never mailed
let quiet: SignedIn // a requirement nothing matches
const TYPE = 'Digest Duplex'

async function post(as: SignedIn, body: Record<string, unknown>): Promise<{ id: number; entry_id: string }> {
  const res = await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'SALE', contact_value: '9876543210', property_type: TYPE, ...body }))
  expect(res.status).toBe(201)
  return res.json()
}
type Entry = { id: number; listing_id: number; match: { id: number; entry_id: string }; score: number; reasons: string[] }
const inbox = async (as: SignedIn): Promise<Entry[]> => (await (await h.request('/api/matches', { headers: as.bearer })).json()).matches
const act = async (as: SignedIn, id: number, what: 'seen' | 'dismiss') => expect((await h.request(`/api/matches/${id}/${what}`, { method: 'POST', headers: as.browser })).status).toBe(204)
/** The mails to a user, quoted-printable undone and read as UTF-8 (amounts carry ₹). */
const mailsTo = (who: SignedIn) => smtp.received.filter((m) => m.to.includes(who.user.email)).map((m) => Buffer.from(decodeQp(m.raw), 'latin1').toString('utf8'))
const link = (id: number) => `${PUBLIC_URL}/dashboard/matches#match-${id}`
/** Runs the digest as the primary's timer does, then waits until the outbox has delivered it. */
async function digest(now: number, hours = h.config.matchDigestHours) {
  const sent = await runMatchDigest({ db: h.ctx.db, mail: h.ctx.mail, config: { ...h.config, matchDigestHours: hours } }, now)
  await h.ctx.mail.idle()
  return sent
}

let t0: number
let ashaEntries: Entry[]
let kiranEntries: Entry[]

beforeAll(async () => {
  const cityId = (await seedPlace(h.ctx.db, ['Thane'])).cities[0]!.id
  await h.ctx.db.run("update countries set name = 'India' where id = (select s.country_id from cities c join states s on s.id = c.state_id where c.id = ?)", [cityId])
  asha = await signIn(h.ctx.db, 'BROKER', { cityId, fullName: 'Asha Verma' })
  kiran = await signIn(h.ctx.db, 'BROKER', { cityId, fullName: 'Kiran Rao' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId, fullName: 'Ravi Kumar' })
  quiet = await signIn(h.ctx.db, 'BROKER', { cityId, fullName: 'Quiet Broker' })
  await post(asha, { post_type: 'REQ', budget: 10_000_000, locality: 'Ghodbunder Road' })
  await post(kiran, { post_type: 'REQ', budget: 10_000_000 })
  await post(quiet, { post_type: 'REQ', property_type: 'Digest Bungalow', budget: 1 })
  for (const budget of [9_000_000, 9_500_000, 9_900_000]) await post(ravi, { post_type: 'AVL', budget, locality: 'Ghodbunder Road' })
  ashaEntries = await inbox(asha)
  kiranEntries = await inbox(kiran)
  expect(ashaEntries).toHaveLength(3)
  expect(kiranEntries).toHaveLength(3)
  // Asha saw one and dismissed another: only the third is news for her.
  await act(asha, ashaEntries[0]!.id, 'seen')
  await act(asha, ashaEntries[1]!.id, 'dismiss')
  t0 = Date.now()
})

describe('the match digest', () => {
  test('one mail per user with new matches: their unseen, undismissed ones, each with its listings, score, reasons and link', async () => {
    const sent = await digest(t0)
    expect(sent).toEqual({ users: 2, matches: 4 })

    const [toAsha, ...moreToAsha] = mailsTo(asha)
    expect(moreToAsha).toHaveLength(0)
    const fresh = ashaEntries[2]!
    expect(toAsha).toContain('Subject: 1 new match for your listings - Brokernet')
    expect(toAsha).toContain(link(fresh.id))
    expect(toAsha).toContain(`Availability ${fresh.match.entry_id}`)
    expect(toAsha).toContain('by Ravi Kumar')
    expect(toAsha).toContain(`Score ${fresh.score}`)
    for (const reason of fresh.reasons.slice(0, 2)) expect(toAsha).toContain(reason)
    expect(toAsha).toContain('₹1,00,00,000')
    // The seen one and the dismissed one are left out.
    for (const gone of ashaEntries.slice(0, 2)) expect(toAsha).not.toContain(link(gone.id))
    expect(toAsha).toContain('Content-Type: text/html')

    const [toKiran, ...moreToKiran] = mailsTo(kiran)
    expect(moreToKiran).toHaveLength(0)
    expect(toKiran).toContain('Subject: 3 new matches for your listings - Brokernet')
    for (const e of kiranEntries) expect(toKiran).toContain(link(e.id))
    // The writer saw his own entries as he posted; nothing matched the quiet broker.
    expect(mailsTo(ravi)).toHaveLength(0)
    expect(mailsTo(quiet)).toHaveLength(0)
    // Through the outbox, as every mail: delivered and recorded.
    const rows = (await h.ctx.db.all<{ subject: string; status: string }>('select subject, status from mail_outbox order by id')).filter((r) => r.subject.includes('for your listings'))
    expect(rows.map((r) => r.status)).toEqual(['SENT', 'SENT'])
  })

  test('none again within the window, even with new matches; after it, only the matches no digest carried', async () => {
    const before = smtp.received.length
    expect(await digest(t0 + 60_000)).toEqual({ users: 0, matches: 0 })
    const newer = await post(ravi, { post_type: 'AVL', budget: 8_000_000 })
    expect(await digest(t0 + 23 * 3_600_000)).toEqual({ users: 0, matches: 0 })
    expect(smtp.received.length).toBe(before)

    const sent = await digest(t0 + 25 * 3_600_000)
    expect(sent).toEqual({ users: 2, matches: 2 })
    const latest = mailsTo(kiran).at(-1)!
    const entry = (await inbox(kiran)).find((e) => e.match.id === newer.id)!
    expect(latest).toContain('Subject: 1 new match for your listings - Brokernet')
    expect(latest).toContain(link(entry.id))
    for (const e of kiranEntries) expect(latest).not.toContain(link(e.id))
    expect(mailsTo(asha)).toHaveLength(2)
    expect(mailsTo(kiran)).toHaveLength(2)
  })

  test('MATCH_DIGEST_HOURS=0 sends none', async () => {
    await post(ravi, { post_type: 'AVL', budget: 7_000_000 })
    const before = smtp.received.length
    expect(await digest(t0 + 100 * 3_600_000, 0)).toEqual({ users: 0, matches: 0 })
    expect(smtp.received.length).toBe(before)
    // The same matches go out once digests are on again.
    expect((await digest(t0 + 100 * 3_600_000, 24)).users).toBe(2)
  })

  test(`a digest lists at most ${DIGEST_LIMIT} matches, the best first, and counts the rest`, async () => {
    for (let i = 0; i < DIGEST_LIMIT + 2; i++) await post(ravi, { post_type: 'AVL', budget: 5_000_000 + i })
    expect(await digest(t0 + 200 * 3_600_000)).toEqual({ users: 2, matches: 2 * DIGEST_LIMIT })
    const latest = mailsTo(kiran).at(-1)!
    expect(latest).toContain(`Subject: ${DIGEST_LIMIT + 2} new matches for your listings - Brokernet`)
    expect(latest).toContain('And 2 more')
  })

  test('two senders at once (the primaries of two instances) still mail each user once', async () => {
    await post(ravi, { post_type: 'AVL', budget: 4_000_000 })
    const before = [mailsTo(asha).length, mailsTo(kiran).length]
    const at = t0 + 300 * 3_600_000
    const runs = await Promise.all([digest(at), digest(at), digest(at)])
    expect(runs.reduce((n, r) => n + r.users, 0)).toBe(2)
    expect([mailsTo(asha).length, mailsTo(kiran).length]).toEqual([before[0]! + 1, before[1]! + 1])
  })
})
