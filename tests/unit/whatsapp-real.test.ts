// The WhatsApp parser on real broker messages (issue 30): the development half of a hand-labelled set of Tricity and
// Bengaluru brokers' posts (tests/fixtures/whatsapp-real-dev.json, its rules in whatsapp-real-dev.md), scored as the
// held-out half is (tests/support/whatsapp-real.ts). Prints the per-field table the README keeps, and fails below the
// floors. The parser was tuned on two thirds of the set ("tuned on"); the other third ("checked on") was looked at
// only to measure whether the rules carry. The five developer-written Mumbai examples are scored apart.
import { expect, test } from 'bun:test'
import { LOCALITIES, ZONE_OF } from '../../db/seed/demo'
import { LocalityIndex, parsePaste } from '../../src/modules/intake/parse'
import { ratio, REAL_FIELDS, REAL_MESSAGES, realTable, scoreReal, type RealField, type RealMessage } from '../support/whatsapp-real'

/** What a broker of the message's city reads it against: the demo's localities of that city (none: a city the demo lacks). */
const indexes = new Map<string, LocalityIndex>()
const indexOf = (city: string) => {
  let index = indexes.get(city)
  if (!index) indexes.set(city, (index = new LocalityIndex((LOCALITIES[city] ?? []).map((name) => ({ name, zone: ZONE_OF[name] ?? null })), city)))
  return index
}
const parse = (m: RealMessage) => parsePaste(m.text, indexOf(m.city))

const real = REAL_MESSAGES.filter((m) => !m.synthetic)
const synthetic = REAL_MESSAGES.filter((m) => m.synthetic)
/** Every third real message was kept aside while tuning: the rules were written on the others. */
const checked = real.filter((_, i) => i % 3 === 2)
const tuned = real.filter((_, i) => i % 3 !== 2)

/** Floors: raised as the parser improves (before issue 30: post type 60 %, deal 37 %, type 43 %, budget 10.5 %, size 24 %, locality 13 %, contact 8.6 %, right number 36 %). */
const FLOOR: Record<RealField, number> = { post_type: 0.97, sale_or_rent: 0.96, property_type: 0.93, budget: 0.75, size: 0.93, locality: 0.86, contact: 0.97 }
const FLOOR_RIGHT_COUNT = 0.92

test('the real development set: per-field accuracy, printed, at or above the floors', () => {
  expect(real.length).toBe(87)
  expect(synthetic.length).toBe(5)
  const all = scoreReal(real, parse)
  const parts: [string, ReturnType<typeof scoreReal>][] = [
    ['real (87 msgs)', all],
    ['tuned on (58)', scoreReal(tuned, parse)],
    ['checked on (29)', scoreReal(checked, parse)],
    ['synthetic Mumbai (5)', scoreReal(synthetic, parse)],
  ]
  console.log(`\nReal broker messages (development half): ${all.messages} messages, ${all.listingMessages} with listings (${all.listings} listings), ${all.chatter} chatter`)
  console.table(realTable(parts))
  if (process.env.WHATSAPP_MISSES) for (const [name, s] of parts.slice(1)) console.log(`\n${name}\n${s.misses.join('\n')}`)
  const below = REAL_FIELDS.filter((f) => ratio(all, f) < FLOOR[f]).map((f) => `${f} ${(100 * ratio(all, f)).toFixed(1)} % < ${FLOOR[f] * 100} %`)
  expect(below).toEqual([])
  expect(all.rightCount / all.listingMessages).toBeGreaterThanOrEqual(FLOOR_RIGHT_COUNT)
})
