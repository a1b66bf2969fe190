// The WhatsApp parser on real broker messages (issue 30): the development half of a hand-labelled set of Tricity and
// Bengaluru brokers' posts (tests/fixtures/whatsapp-real-dev.json, its rules in whatsapp-real-dev.md), scored as the
// held-out half is (tests/support/whatsapp-real.ts). Prints the per-field table the README keeps, and fails below the
// issue's goals. The parser was first tuned on two thirds of the set ("tuned on") while the other third ("checked
// on") was kept aside and measured once (its first figures are in the README), then tuned on too. The five
// developer-written Mumbai examples are scored apart.
import { expect, test } from 'bun:test'
import { parsePaste } from '../../src/modules/intake/parse'
import { REAL_STYLE, REAL_STYLE_2, REAL_STYLE_CHATTER, REAL_STYLE_CHATTER_2 } from '../fixtures/whatsapp-real-style'
import { belowGoals, REAL_GOAL_RIGHT_COUNT, REAL_MESSAGES, cityIndex as indexOf, parseAsBroker as parse, realTable, scoreReal } from '../support/whatsapp-real'


const real = REAL_MESSAGES.filter((m) => !m.synthetic)
const synthetic = REAL_MESSAGES.filter((m) => m.synthetic)
/** Every third real message was kept aside while tuning: the rules were written on the others. */
const checked = real.filter((_, i) => i % 3 === 2)
const tuned = real.filter((_, i) => i % 3 !== 2)

/** The goals for real messages, asserted as floors (the table is printed for the figures themselves). */
function meetsGoals(score: ReturnType<typeof scoreReal>) {
  expect(belowGoals(score)).toEqual([])
  expect(score.rightCount / score.listingMessages).toBeGreaterThanOrEqual(REAL_GOAL_RIGHT_COUNT)
  // No draft for chatter, and no budget the message does not state.
  expect(score.chatterDrafts).toBe(0)
  expect(score.inventedBudgets).toBe(0)
}

test('the real development set: per-field accuracy, printed, meets the issue’s goals', () => {
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
  meetsGoals(all)
  meetsGoals(parts[3]![1])
})

// Written in the groups' style after the parser had been fitted to the development set (their first figures, before
// any change for them, are in the README): a check that the rules carry to text they were not written on.
test('messages written in the style of the real groups meet the goals, and their chatter gives no draft', () => {
  const parts: [string, ReturnType<typeof scoreReal>][] = [
    ['real-style, first batch (30)', scoreReal(REAL_STYLE, parse)],
    ['real-style, second batch (15)', scoreReal(REAL_STYLE_2, parse)],
  ]
  console.table(realTable(parts))
  if (process.env.WHATSAPP_MISSES) for (const [name, s] of parts) console.log(`\n${name}\n${s.misses.join('\n')}`)
  for (const [, s] of parts) meetsGoals(s)
  const chatter = [...REAL_STYLE_CHATTER, ...REAL_STYLE_CHATTER_2]
  expect(chatter.length).toBeGreaterThanOrEqual(50)
  const drafted = chatter.filter((text) => parsePaste(text, indexOf('Mohali')).length > 0)
  expect(drafted).toEqual([])
})
