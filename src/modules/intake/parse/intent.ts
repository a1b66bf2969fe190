import type { Message } from './text'

type Cue = { re: RegExp; post?: 'REQ' | 'AVL'; deal?: 'SALE' | 'RENT' }

/**
 * A property sold with the rent it earns: pre-leased or pre-rented, `Rental Income: ₹90,000/month`, `RENT COMING 2.25
 * Lac`, `rental value`, `Rented to top MNC's`, `Currently tenanted`, `Tenant paying`. The deal is a sale, whatever rent
 * words come before (a lock-in or a lease period is a lease's term, said of rents as well).
 */
const INCOME = /\b(?:pre[\s-]?(?:leased|rented|lease)|prerented|preleased|rental\s+(?:income|value|yield)|rent(?:al)?\s+coming|rented\s+(?:to|out\s+to)|(?:currently\s+)?tenanted|tenant\s+(?:paying|pays)|assured\s+(?:rent|return)s?)(?![a-z])/g
/** Words that offer a rent outright (not a rent earned): `for rent`, `to let`, `on lease`, `L&L`. */
const RENT_OFFER = /\b(?:to\s*let|to-let|tolet|for\s*rent|for\s*lease|on\s*rent|on\s*lease|l\s*&\s*l|leave\s*(?:and|&|n)\s*licen[cs]e|rent\s*out|available\s+for\s+rent)(?![a-z])/

// What the message wants: a client's requirement or something on offer, and sale or rent. The first cue of each kind
// wins (a message opens with what it is); words that say both (`to let` is on offer and rent) count for both.
const CUES: Cue[] = [
  // "Owner wants to sell": the owner's want is an offer. Before the REQ words, so it wins where both start.
  { re: /\b(?:wants?|wanting|looking)\s+to\s+(?:sell|give|let\s*out|rent\s*out|lease\s*out)(?![a-z])/g, post: 'AVL' },
  { re: /\b(?:req[a-z]*|rqd|rqmt|reqmt|wanted|want|wants|(?:need|needed|needs)(?!\s+(?:urgent(?:ly)?\s+)?(?:funds?|money|cash|payment|loan))|(?:looking|lookin)(?!\s+(?:to|forward)\s+(?!buy|rent|purchase|take|lease|acquire|invest))|searching|chahiye|chaiye|chahie|chyie|mangta|lena|leni|pahije|pahijel|havay|hava|joie|joiye|joiee|joia|dikhao|dikhaiye|batao|beku|bekagide|bekittu|bekitthu)(?![a-z])/g, post: 'REQ' },
  // "Principal buyers only" on an offer names who may call, not a client.
  { re: /(?<!\b(?:principal|serious|genuine|direct|end|only)\s+)\b(?:buyer|buyers|purchaser)(?![a-z])/g, post: 'REQ', deal: 'SALE' },
  // Kannada `togollakke` (to buy) and Marathi `kharedi` (purchase) as well.
  { re: /\b(?:buy|kharidna|khareedna|kharidni|kharedi|kharidi|togollakke|kondukolluvudu)(?![a-z])/g, post: 'REQ', deal: 'SALE' },
  // A tenant looking is a requirement; a tenant paying or preferred, and a property tenanted, are not.
  { re: /(?<!\bcurrent(?:ly)?\s+)\b(?:tenant|tenants)(?![a-z])(?!\s*(?:paying|pays|preference|preferred|profile|details|occupied|in\s+place))/g, post: 'REQ', deal: 'RENT' },
  { re: /\b(?:avl[a-z]*|avb[a-z]*|avai[a-z]*|avaia[a-z]*|avali[a-z]*|offer|offering|inventory|asking|vikri|vikrikarita|ready\s*to\s*move|direct\s*owner|owner\s*property|dena|deni)(?![a-z])/g, post: 'AVL' },
  // Kannada `maratakke` (for sale).
  { re: /\b(?:for\s*sale|on\s*sale|resale|re-sale|sell|selling|seller|bechna|bechni|outright|out\s*right|ownership|maratakke|marata|maratakkide)(?![a-z])/g, post: 'AVL', deal: 'SALE' },
  // A pre-leased shop is sold with its tenant: the deal is a sale, its rent an income.
  { re: INCOME, deal: 'SALE' },
  // "sale" alone says the deal, not the side: "Req 3bhk Parel sale", "1bhk Malad W sale 90 L" under "Requirements:".
  // Tricity's sale words: `white` (the part paid by cheque), a GMADA `LOI`, a `Demand`, a `booked deal`, a `registry case`.
  { re: /\b(?:sale|sales|pagdi|pagadi|purchase|white|loi|lois|demand|booked\s+deal|registry\s+case|registery\s+case|transfer\s+case)(?![a-z])/g, deal: 'SALE' },
  { re: /\b(?:to\s*let|to-let|tolet|for\s*rent|for\s*lease|on\s*lease)(?![a-z])/g, post: 'AVL', deal: 'RENT' },
  // Kannada `baadige` (rent) and `bhogya` (a lump-sum lease).
  { re: /(?<!\bpre[\s-]?)\b(?:rent|rental|rented|renting|lease|leased|leasing|baadige|badige|baadigege|bhogya|bhogyakke|l\s*&\s*l|l\s*n\s*l|l&l|leave\s*(?:and|&|n)\s*licen[cs]e|kiraya|kiraye|kiraaye|bhade|bhada|bhadyane|bhadyavar|bhaade|pm|p\.m\.|per\s*month|monthly|\/month|\/m|deposit)(?![a-z])/g, deal: 'RENT' },
]

/** Punjabi, in Gurmukhi: ਚਾਹੀਦਾ / ਜ਼ਰੂਰਤ / ਲੋੜ (needed), ਵਿਕਾਊ / ਵੇਚਣਾ (for sale), ਕਿਰਾਏ (rent); whole words (`\b` knows no Gurmukhi). */
const GURMUKHI = (words: string) => new RegExp(String.raw`(?<![\p{L}\p{M}])(?:${words})(?![\p{L}\p{M}])`, 'gu')
CUES.push(
  { re: GURMUKHI('ਚਾਹੀਦ[ਾੀੇ]|ਜ\u0A3C?ਰੂਰਤ|\u0A5Bਰੂਰਤ|ਲੋੜ'), post: 'REQ' },
  { re: GURMUKHI('ਵਿਕਾਊ|ਵਿਕਾਉ|ਵੇਚਣ[ਾੀ]?'), post: 'AVL', deal: 'SALE' },
  { re: GURMUKHI('ਕਿਰਾਏ|ਕਿਰਾਇਆ'), deal: 'RENT' },
)

export type Intent = { post: 'REQ' | 'AVL' | null; deal: 'SALE' | 'RENT' | null; question: boolean }

/** Post type and deal as the words say them (null: not said). Cue words are taken: they are placed, not unparsed. */
export function findIntent(msg: Message): Intent {
  let post: { v: 'REQ' | 'AVL'; at: number } | null = null
  let deal: { v: 'SALE' | 'RENT'; at: number } | null = null
  let incomeAt = -1
  for (const cue of CUES) {
    for (const m of msg.matches(cue.re)) {
      if (cue.re === INCOME && incomeAt < 0) incomeAt = m.index
      if (cue.post && (!post || m.index < post.at)) post = { v: cue.post, at: m.index }
      if (cue.deal && (!deal || m.index < deal.at)) deal = { v: cue.deal, at: m.index }
      msg.take(m.index, m.index + m[0].length, 'intent')
    }
  }
  // "Any 2bhk available in Powai?", "Anyone has a shop on rent?": asking for something is a requirement.
  const question = /^\W*(?:any|anyone|any\s*one|anybody|koi|kisi|does\s*anyone|do\s*you\s*have|who\s*has|if\s*any)\b/.test(msg.lower) || /\b(?:anyone|any\s*one|anybody)\s*(?:has|have|having)\b/.test(msg.lower)
  if (question && (!post || post.v === 'AVL')) post = { v: 'REQ', at: 0 }
  // Without a word for either side, a client's budget or preferences make it a requirement.
  if (!post && /\b(?:budget|bdgt|bugdet|budjet|preferred|prefer|preferably|client|clients)\b/.test(msg.lower)) post = { v: 'REQ', at: 0 }
  // A property sold with its tenant is a sale, whatever rent words come first (`Rental Details: Currently tenanted`).
  if (deal?.v === 'RENT' && incomeAt >= 0 && !RENT_OFFER.test(msg.lower)) deal = { v: 'SALE', at: incomeAt }
  // "Buy" in a message that offers (`available for buy`) says the deal, not the side.
  return { post: post?.v ?? null, deal: deal?.v ?? null, question }
}
