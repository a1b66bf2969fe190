import type { LocationZone } from '../../../shared/constants'
import { networkType } from '../../../shared/property-types'
import type { ParsedDraft } from '../model'
import { formatMobile } from './contact'
import { choosePrice, salePriced, type Amount } from './money'
import { pick } from './numbers'
import type { LocalityIndex } from './places'
import { read, type Fields } from './read'
import { OPENS, type LineFacts } from './segment'
import { splitPaste, type Piece } from './split'
import { chatter } from './chatter'
import { cleanPaste, type Message } from './text'

export { LocalityIndex, type KnownLocality } from './places'

/**
 * Pasted WhatsApp messages to listing drafts (issues 18 and 30), deterministically: regular expressions, word lists and
 * the city's known localities, no model and no service. The paste is cut into messages by their chat headers and each
 * message into its listings by what its lines say (./split.ts, ./segment.ts); each listing is read by recognisers that
 * take the words they read (./read.ts), in an order that settles who owns a number. What no recogniser took and is not
 * a usual detail is `unparsed`.
 */
export function parsePaste(paste: string, localities: LocalityIndex): ParsedDraft[] {
  // A text is read once: a heading or a signature shared by several listings, and a listing of one line, which was
  // read as a line when the paste was cut.
  const reads = new Map<string, Fields>()
  const readOnce = (text: string) => {
    let fields = reads.get(text)
    if (!fields) reads.set(text, (fields = read(text, localities)))
    return fields
  }
  const memo = new Map<string, LineFacts>()
  return splitPaste(cleanPaste(paste), localities, memo, readOnce).flatMap((piece) => {
    const draft = parsePiece(piece, readOnce)
    return draft ? [draft] : []
  })
}

const ASKING = /^\W*(?:any|anyone|any\s*one|anybody|koi|kisi|need|looking|req|required|requirement|wanted|want|chahiye|pahije|joie|who\s*has|does\s*anyone|do\s*you\s*have)\b/i

const CHAT = /\b(?:deal\s*(?:done|closed|finali[sz]ed)|closed|sold|gela|site\s*visit|visit\s*(?:done|fixed|scheduled)|liked|will\s*update|feedback|rates?|psf|market\s*update|kitna|how\s*much|rented\s*out|thanks|thank\s*you|thx|congrat[a-z]*|still\s*(?:available|avl|avail|on|there)|any\s*update)\b|^\W*(?:is|are|was|has|did|does|kya)\b[^\n]*\?\s*$/i

const SOLD_NOTICE = /^\W*(?:sold|deal\s*(?:done|closed|finali[sz]ed)|closed|booked)\b/i

/**
 * Does an amount say a sale: 10 lakh or more, or lakhs or crores named as the asking price (`Ask Price .70Lakh`: a
 * price of 70 lakh written short); never an amount by the month.
 */
const saleAmount = (a: Amount, post: 'REQ' | 'AVL') =>
  !a.monthly && (pick(a, post) >= 1_000_000 || (a.cue !== undefined && /^(?:price|asking|ask|expected|rate|demand|dmd|bsp|cost|value|outright|selling)$/.test(a.cue) && /^(?:lakhs?|lacs?|laks?|lacks?|lkhs?|lks?|l|crores?|crs?|cr|c)$/.test(a.unit ?? '')))

/** Kinds brokers post for sale unless they say rent. */
const SOLD = new Set(['Plot', 'Land', 'House', 'Villa', 'Bungalow', 'Farm House', 'SCO', 'Booth', 'Building', 'Hotel', 'Commercial'])

/** Words that offer a rent outright (`for rent`, `to let`, `on lease`): a rent said so is no rent the property earns. */
const RENT_OFFER = /\b(?:to\s*let|to-let|tolet|for\s*rent|for\s*lease|on\s*rent|on\s*lease|l\s*&\s*l|leave\s*(?:and|&|n)\s*licen[cs]e|rent\s*out|rental\s+basis|available\s+for\s+rent)(?![a-z])/i

function parsePiece(piece: Piece, readOnce: (text: string) => Fields): ParsedDraft | null {
  const own = readOnce(piece.text)
  const head = piece.head ? readOnce(piece.head) : null
  const tail = piece.tail ? readOnce(piece.tail) : null
  const either = <K extends keyof Fields>(k: K): Fields[K] => (own[k] ?? head?.[k] ?? null) as Fields[K]

  const intent = { post: own.intent.post ?? head?.intent.post ?? null, deal: own.intent.deal ?? head?.intent.deal ?? null }
  // An item under `SITES REQUIRED` or `Shops on rent:` is of the heading's kind when it names none itself.
  const property = own.property ?? head?.property ?? null
  const amounts = own.amounts.length ? own.amounts : (head?.amounts ?? [])
  const size = own.size
  const strongPlace = [own.place, head?.place].some((p) => p && (p.how === 'known' || p.how === 'shape'))
  const weakPlace = [own.place, head?.place].some((p) => p && (p.how === 'cue' || p.how === 'name' || p.how === 'guess'))
  const said = intent.post !== null || intent.deal !== null
  const priced = amounts.some((a) => !a.bare || a.cued)
  // A listing says what it is, or how big or how much with who wants it or where, or opens with Avl / Req and a place
  // (`Available D-200 Residential Aerotropolis`); a place and an intent word alone are talk (`dealing in Andheri resale`).
  const opened = OPENS.test([piece.head, piece.text].filter(Boolean).join('\n'))
  // A type alone is no listing either (`Kal office band rahega`, `join our group for plots`): it needs an intent, a
  // figure or a place beside it.
  const listingLike =
    (property !== null && (said || priced || size !== null || strongPlace || weakPlace)) ||
    (said ? priced || size !== null : [priced, size !== null, strongPlace].filter(Boolean).length >= 2) ||
    (opened && (strongPlace || weakPlace))
  if (!listingLike) return null
  // Chatter is judged on the listing's own words: a job ad above two listings makes them no job ads.
  if (chatter(piece.text, { property: own.property !== null, size: size !== null, priced: own.amounts.some((a) => !a.bare || a.cued), said: own.intent.deal !== null || own.intent.post === 'REQ' }, piece.head)) return null
  const text = [piece.head, piece.text].filter(Boolean).join('\n')
  // Talk about a listing is not one: "Deal done for the Worli 3bhk, thanks", "Is the Chembur 2bhk still available?".
  // `Rate 1.72` is a price, `what rates in Powai?` is talk.
  if (!own.contact && !size && !priced && CHAT.test(piece.text)) return null
  // `Sold ✅ Sector 79 kothi 10 marla`, `Deal done …`: a notice about a listing that is gone, when it offers nothing and names no price.
  if (SOLD_NOTICE.test(piece.text) && !said && !priced) return null
  // A question is a requirement only when it asks for one (`Any 2bhk available in Powai?`), not `2bhk wala abhi hai kya?`.
  if (/\?\s*$/.test(piece.text) && !own.contact && !size && !priced && !ASKING.test(piece.text)) return null

  const post = intent.post ?? 'AVL'
  const strongest = amounts.find((a) => a.strength === 3) ?? amounts.find((a) => a.strength === 2 && a.cued)
  // Not said: an amount a unit marks says it (10 lakh or more: a sale). Else land, a house or a commercial unit, or a
  // size in yards, marla or kanal, is a sale (Tricity's plot and kothi groups say `Demand 5.75`, never "sale"); a bare
  // small figure is a rent (`budget 25 tak`), unless under ten with a fraction (`Rate 1.72`: crores); nothing at all, a
  // sale, as brokers post what they sell without saying so (rent posts say rent).
  const bare = amounts.find((a) => a.bare)
  const landish = (property !== null && SOLD.has(property.type)) || size?.land === true
  let deal =
    intent.deal ??
    (strongest ? (saleAmount(strongest, post) ? 'SALE' : 'RENT') : landish ? 'SALE' : bare ? (bare.high < 10 && !Number.isInteger(bare.high) ? 'SALE' : 'RENT') : 'SALE')
  // `Rent 50K` beside `Rate 95 lakh`: a house sold with the rent it earns.
  if (deal === 'RENT' && !RENT_OFFER.test(text) && amounts.some((a) => a.monthly) && salePriced(amounts)) deal = 'SALE'
  const price = choosePrice(amounts, deal, own.structured, size ? pick(size, post) : null)

  // A place the network knows beats one taken as written (the heading's `Vashi` over an item's `Sec 17`); else the
  // listing's own place beats the heading's, and a sector or block beside it (`ADJ. I BLOCK`) comes last.
  const candidates = [own.place, head?.place].filter((p): p is NonNullable<Fields['place']> => Boolean(p))
  const place = candidates.find((p) => p.known) ?? candidates.find((p) => p.how !== 'landmark') ?? candidates[0] ?? null
  const source = own.contact ? own : tail?.contact ? tail : head
  const contact = source?.contact ?? null
  let contactValue = contact?.value ?? null
  let contactName = (source?.contactName ?? null) as string | null
  if (!contactValue && piece.sender) {
    const digits = piece.sender.replace(/[\s\-()]/g, '')
    if (/^\+?\d{10,13}$/.test(digits)) contactValue = /^(?:\+?91)?[6-9]\d{9}$/.test(digits) ? formatMobile(digits) : piece.sender
    else contactName ??= piece.sender
  }
  const location: LocationZone | null = place?.zone ?? either('zone')

  const details = piece.details.slice(0, 4000)
  const confidence =
    (said ? 0.15 : 0) +
    (intent.deal ? 0.15 : 0.05) +
    (property ? 0.2 : 0) +
    (price ? (price.bare ? 0.1 : 0.2) : 0) +
    (place ? (place.known ? 0.15 : 0.08) : 0) +
    (contactValue ? 0.1 : 0) +
    (size ? 0.05 : 0)

  return {
    post_type: post,
    sale_or_rent: deal,
    // As the network knows it (`2 BHK Apartment`), so the type filter and saved searches find it; a listing shared from
    // Brokernet keeps its type as written.
    property_type: property ? (own.structured ? property.type : networkType(property.type)) : null,
    budget: price ? pick(price, post) : null,
    size: size ? pick(size, post) : null,
    locality: place?.locality ?? null,
    location,
    contact_value: contactValue,
    contact_name: contactName,
    details,
    confidence: Math.round(Math.min(1, confidence) * 100) / 100,
    unparsed: unparsedWords(own.msg),
  }
}

/** The usual details of a listing: kept in `details`, worth no highlight. */
const DETAIL_WORDS = new Set(
  (
    'furnished furnish furnised furnshed semi semifurnished unfurnished fully full bare shell warm fitted floor flr floors storey high low ground gf ' +
    'parking park car cars covered open stilt lift lifts elevator gym pool swimming club clubhouse garden terrace balcony balconies view sea facing ' +
    'family families bachelor bachelors boys girls students couple couples working veg vegetarian nonveg pets pet allowed only no ' +
    'deposit dep maintenance maint brokerage negotiable nego neg fixed final token month months advance year years yr yrs old new ' +
    'building bldg society tower wing complex project gated security cctv power backup water amenities amenity modular kitchen ' +
    'possession ready immediate immediately urgent urgently asap oc cc rera approved clear title east west north south corner road main ' +
    'station metro school market mall highway near nearby walking distance close to from the a an and or with in at of for on by is are it ' +
    'this that these all any one pls plz please sir ji call contact cont details dm whatsapp msg interested more info contact share ' +
    'hi hello good morning team dear friends brokers broker client clients owner direct agent agents sharing share available required ' +
    'me mein mai main se pe par ka ki ke hai hain h tak ho hoga hogi chahiye chaiye karo kare kijiye wala wali wale bhi aur jaldi sirf nahi na ' +
    'sq ft sqft carpet built up area super per also will can get have has having need want looking rent sale lease price budget rs inr approx around ' +
    'my our your his her their we you i hot deal offer best exclusive rare steal received rcvd oc cc nego negotiable slightly ' +
    'upto till max maximum within under below'
  ).split(' '),
)

function unparsedWords(msg: Message): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const { word } of msg.freeWords()) {
    const lower = word.toLowerCase()
    if (DETAIL_WORDS.has(lower) || /^\d{1,2}(?:st|nd|rd|th)?$/.test(lower) || seen.has(lower)) continue
    seen.add(lower)
    out.push(word)
  }
  return out
}
