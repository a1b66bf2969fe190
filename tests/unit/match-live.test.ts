// An inbox entry shows while its pair holds: `listing_matches.live`, kept by triggers (migration 0018) whenever either
// listing or the city's tolerance changes, by any writer. The triggers carry a copy of the rule (pairMatchesSql); this
// checks the copy is today's rule, and, over generated listings and changes made straight in SQL, that `live` always
// equals the rule judged afresh.
import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { closeDatabase, openDatabase } from '../../db/client'
import { listings } from '../../db/schema'
import { pairMatchesSql } from '../../src/modules/matches/rules'
import { createUser, seedPlace } from '../support/fixtures'

const db = openDatabase(':memory:')
afterAll(() => closeDatabase(db))
const place = await seedPlace(db, ['Mumbai', 'Pune'])
const cityIds = place.cities.map((c) => c.id)
const owners = [
  await createUser(db, { email: 'live-one@example.com', fullName: 'Asha Rao', cityId: cityIds[0] }),
  await createUser(db, { email: 'live-two@example.com', fullName: 'Ravi Kumar', cityId: cityIds[0] }),
]
const squash = (sql: string) => sql.replace(/\s+/g, ' ').trim()

describe('the live flag of inbox entries', () => {
  test("the triggers judge by today's rule (pairMatchesSql)", () => {
    const triggers = db.$client.query<{ sql: string }, []>("select sql from sqlite_master where type = 'trigger' and name like 'listing_matches_live_%'").all()
    expect(triggers).toHaveLength(2)
    for (const t of triggers) expect(squash(t.sql)).toContain(squash(pairMatchesSql('a', 'b', 'c')))
  })

  const fields = fc.record({
    postType: fc.constantFrom('REQ', 'AVL' as const),
    saleOrRent: fc.constantFrom('SALE', 'RENT' as const),
    propertyType: fc.constantFrom('2 BHK', '2BHK Apartment', 'Villa', 'office space', 'Office'),
    budget: fc.option(fc.constantFrom(90, 100, 110, 111, 130, 131), { nil: null }),
    size: fc.option(fc.constantFrom(84, 85, 100, 120), { nil: null }),
    status: fc.constantFrom('ACTIVE', 'ACTIVE', 'ON_HOLD', 'CLOSED', 'SUSPENDED' as const),
    city: fc.constantFrom(0, 0, 0, 1),
  })
  const change = fc.oneof(
    fc.record({ kind: fc.constant('listing' as const), which: fc.nat(5), to: fields }),
    fc.record({ kind: fc.constant('tolerance' as const), city: fc.constantFrom(0, 1), percent: fc.constantFrom(0, 10, 11, 30) }),
  )

  test('after any change of a listing or a tolerance, live equals the rule judged afresh', () => {
    let n = 0
    fc.assert(
      fc.property(fc.array(fields, { minLength: 6, maxLength: 6 }), fc.array(change, { minLength: 1, maxLength: 8 }), (start, changes) => {
        db.$client.run('begin')
        try {
          const ids = start.map((f, i) =>
            db
              .insert(listings)
              .values({
                entryId: `LIVE-${++n}`,
                postType: f.postType,
                saleOrRent: f.saleOrRent,
                propertyType: f.propertyType,
                contactValue: '9876543210',
                contactName: 'Live',
                budget: f.budget,
                size: f.size,
                status: f.status,
                date: '2026-11-24',
                ownerUserId: owners[i % 2]!.id,
                cityId: cityIds[f.city]!,
              })
              .returning({ id: listings.id })
              .get().id,
          )
          // Every pair among them gets an entry, held or not: the triggers must judge each one.
          const insert = db.$client.prepare('insert into listing_matches (listing_id, match_id, user_id, score, live) values (?, ?, ?, 0, ?)')
          for (let i = 0; i < ids.length; i++) for (let j = 0; j < ids.length; j++) if (i !== j) insert.run(ids[i]!, ids[j]!, owners[i % 2]!.id, (i + j) % 2)
          db.$client.run(`update listing_matches set live = coalesce((select ${pairMatchesSql('a', 'b', 'c')} from listings a join listings b on b.id = listing_matches.match_id join cities c on c.id = a.city_id where a.id = listing_matches.listing_id), 0)`)
          for (const c of changes) {
            if (c.kind === 'tolerance') db.$client.run('update cities set match_tolerance = ? where id = ?', [c.percent, cityIds[c.city]!])
            else
              db.$client.run('update listings set post_type = ?, sale_or_rent = ?, property_type = ?, budget = ?, size = ?, status = ?, city_id = ? where id = ?', [
                c.to.postType,
                c.to.saleOrRent,
                c.to.propertyType,
                c.to.budget,
                c.to.size,
                c.to.status,
                cityIds[c.to.city]!,
                ids[c.which]!,
              ])
            const wrong = db.$client
              .query<{ id: number }, []>(
                `select m.id from listing_matches m join listings a on a.id = m.listing_id join listings b on b.id = m.match_id join cities c on c.id = a.city_id
                 where m.live is not (${pairMatchesSql('a', 'b', 'c')})`,
              )
              .all()
            expect(wrong).toEqual([])
          }
        } finally {
          db.$client.run('rollback')
        }
      }),
      { numRuns: 300 },
    )
  }, 180_000)
})
