// The WhatsApp parser on a blind set of messages in the real groups' style (issue 30): written from the real
// development set's rules before the parser's code was read (tests/fixtures/whatsapp-real-style-blind.ts), scored
// as the real sets are (tests/support/whatsapp-real.ts). Prints the per-field table the README keeps and fails below
// the goals.
//
// Measured once before any change for it (the honest held-out figures): post type 99.2 %, deal 100 %, property type
// 95.0 %, budget 91.0 %, size 95.4 %, locality 94.1 %, contact 100 %, right number of drafts 95.9 %, 4 drafts on 3 of
// the 26 chatter messages, no invented budget. Its misses were then fixed by general rules (each with a unit test and a
// counter-case in tests/unit/whatsapp-rules.test.ts), so it is no longer a held-out measure: the goals below hold the
// rules to it.
import { expect, test } from 'bun:test'
import { REAL_STYLE_BLIND } from '../fixtures/whatsapp-real-style-blind'
import { belowGoals, REAL_GOAL_RIGHT_COUNT, parseAsBroker as parse, realTable, scoreReal } from '../support/whatsapp-real'


test('the blind real-style set: per-field accuracy, printed, meets the issue’s goals; its chatter gives no draft', () => {
  const tricity = REAL_STYLE_BLIND.filter((m) => m.style === 'whatsapp-export')
  const b2b = REAL_STYLE_BLIND.filter((m) => m.style === 'b2b-broker-post')
  expect([REAL_STYLE_BLIND.length, tricity.length, b2b.length]).toEqual([124, 114, 10])
  const all = scoreReal(REAL_STYLE_BLIND, parse)
  const parts: [string, ReturnType<typeof scoreReal>][] = [
    [`blind (${all.messages} msgs)`, all],
    [`Tricity (${tricity.length})`, scoreReal(tricity, parse)],
    [`Bengaluru B2B (${b2b.length})`, scoreReal(b2b, parse)],
  ]
  console.log(`\nBlind real-style set: ${all.messages} messages, ${all.listingMessages} with listings (${all.listings} listings), ${all.chatter} chatter`)
  console.table(realTable(parts))
  if (process.env.WHATSAPP_MISSES) console.log(`\n${all.misses.join('\n')}`)
  expect([all.listingMessages, all.listings, all.chatter]).toEqual([98, 119, 26])
  for (const [, score] of parts.slice(0, 2)) {
    expect(belowGoals(score)).toEqual([])
    expect(score.rightCount / score.listingMessages).toBeGreaterThanOrEqual(REAL_GOAL_RIGHT_COUNT)
  }
  // No draft for chatter, and no budget the message does not state.
  expect(all.chatterDrafts).toBe(0)
  expect(all.inventedBudgets).toBe(0)
})
