// The WhatsApp parser on a blind set of messages in the real groups' style (issue 30): written from the real
// development set's rules before the parser's code was read (tests/fixtures/whatsapp-real-style-blind.ts), scored
// as the real sets are (tests/support/whatsapp-real.ts). Prints the per-field table the README keeps.
import { expect, test } from 'bun:test'
import { LOCALITIES, ZONE_OF } from '../../db/seed/demo'
import { LocalityIndex, parsePaste } from '../../src/modules/intake/parse'
import { REAL_STYLE_BLIND } from '../fixtures/whatsapp-real-style-blind'
import { realTable, scoreReal, type RealMessage } from '../support/whatsapp-real'

/** What a broker of the message's city reads it against: the demo's localities of that city (none: a city the demo lacks). */
const indexes = new Map<string, LocalityIndex>()
const indexOf = (city: string) => {
  let index = indexes.get(city)
  if (!index) indexes.set(city, (index = new LocalityIndex((LOCALITIES[city] ?? []).map((name) => ({ name, zone: ZONE_OF[name] ?? null })), city)))
  return index
}
const parse = (m: RealMessage) => parsePaste(m.text, indexOf(m.city))

test('the blind real-style set: per-field accuracy, printed', () => {
  const tricity = REAL_STYLE_BLIND.filter((m) => m.style === 'whatsapp-export')
  const b2b = REAL_STYLE_BLIND.filter((m) => m.style === 'b2b-broker-post')
  const all = scoreReal(REAL_STYLE_BLIND, parse)
  const parts: [string, ReturnType<typeof scoreReal>][] = [
    [`blind (${all.messages} msgs)`, all],
    [`Tricity (${tricity.length})`, scoreReal(tricity, parse)],
    [`Bengaluru B2B (${b2b.length})`, scoreReal(b2b, parse)],
  ]
  console.log(`\nBlind real-style set: ${all.messages} messages, ${all.listingMessages} with listings (${all.listings} listings), ${all.chatter} chatter`)
  console.table(realTable(parts))
  if (process.env.WHATSAPP_MISSES) console.log(`\n${all.misses.join('\n')}`)
  expect(all.messages).toBe(124)
})
