import type { LocationZone } from '../../../shared/constants'
import type { ParsedDraft } from '../model'
import { findContact, findContactName, formatMobile } from './contact'
import { findIntent } from './intent'
import { choosePrice, findAmounts } from './money'
import { pick } from './numbers'
import { findPlace, findZone, type LocalityIndex } from './places'
import { findProperty } from './property'
import { findSize } from './size'
import { splitPaste, type Piece } from './split'
import { readStructured, takeLinks } from './structured'
import { cleanPaste, Message } from './text'

export { LocalityIndex, type KnownLocality } from './places'

/**
 * Pasted WhatsApp messages to listing drafts (issue 18), deterministically: regular expressions, word lists and the
 * city's known localities, no model and no service. Each recogniser takes the words it reads (src/modules/intake/parse/text.ts),
 * in an order that settles who owns a number: contacts first (a phone's digits are no price), then the property type
 * (`2.5 BHK`), the size (`1200 sqft`), the intent words, the amounts, the locality. What no recogniser took and is not a
 * usual detail is `unparsed`.
 */
export function parsePaste(paste: string, localities: LocalityIndex): ParsedDraft[] {
  // The items of one numbered message share its heading: read once, not once per item.
  const contexts = new Map<string, Fields>()
  const contextOf = (text: string) => {
    let fields = contexts.get(text)
    if (!fields) contexts.set(text, (fields = read(text, localities)))
    return fields
  }
  return splitPaste(cleanPaste(paste)).flatMap((piece) => {
    const draft = parsePiece(piece, localities, contextOf)
    return draft ? [draft] : []
  })
}

type Fields = ReturnType<typeof read>

const ASKING = /^\W*(?:any|anyone|any\s*one|anybody|koi|kisi|need|looking|req|required|requirement|wanted|want|chahiye|pahije|joie|who\s*has|does\s*anyone|do\s*you\s*have)\b/i

const CHAT = /\b(?:deal\s*(?:done|closed|finali[sz]ed)|closed|sold|gela|site\s*visit|visit\s*(?:done|fixed|scheduled)|liked|will\s*update|feedback|rates?|psf|market\s*update|kitna|how\s*much|rented\s*out|thanks|thank\s*you|thx|congrat[a-z]*|still\s*(?:available|avl|avail|on|there)|any\s*update)\b|^\W*(?:is|are|was|has|did|does|kya)\b[^\n]*\?\s*$/i

function read(text: string, localities: LocalityIndex) {
  const msg = new Message(text)
  takeLinks(msg)
  const structured = readStructured(msg)
  const contact = findContact(msg)
  const property = structured ? { type: structured.propertyType, start: 0, end: 0 } : findProperty(msg)
  const size = findSize(msg)
  const intent = structured ? { post: structured.post, deal: structured.deal, question: false } : findIntent(msg)
  const amounts = findAmounts(msg)
  const zone = structured ? structured.zone : findZone(msg)
  const place = structured?.locality ? { locality: structured.locality, zone: structured.zone, known: true, start: 0, end: 0 } : findPlace(msg, localities)
  const contactName = contact ? findContactName(msg, contact) : null
  return { msg, contact, property, size, intent, amounts, zone, place, contactName }
}

function parsePiece(piece: Piece, localities: LocalityIndex, contextOf: (text: string) => Fields): ParsedDraft | null {
  const own = read(piece.text, localities)
  const shared = piece.context ? contextOf(piece.context) : null
  const either = <K extends keyof Fields>(k: K): Fields[K] => (own[k] ?? shared?.[k] ?? null) as Fields[K]

  const intent = { post: own.intent.post ?? shared?.intent.post ?? null, deal: own.intent.deal ?? shared?.intent.deal ?? null }
  // An item under `SITES REQUIRED` or `Shops on rent:` is of the heading's kind when it names none itself.
  const property = own.property ?? shared?.property ?? null
  const amounts = own.amounts.length ? own.amounts : (shared?.amounts ?? [])
  const size = own.size
  const listingLike = property !== null || (intent.post !== null && (amounts.some((a) => !a.bare) || size !== null))
  if (!listingLike) return null
  // Talk about a listing is not one: "Deal done for the Worli 3bhk, thanks", "Is the Chembur 2bhk still available?".
  const priced = amounts.some((a) => !a.bare)
  if (!own.contact && !size && !priced && CHAT.test(piece.text)) return null
  // A question is a requirement only when it asks for one (`Any 2bhk available in Powai?`), not `2bhk wala abhi hai kya?`.
  if (/\?\s*$/.test(piece.text) && !own.contact && !size && !priced && !ASKING.test(piece.text)) return null

  const post = intent.post ?? 'AVL'
  const strongest = amounts.find((a) => a.strength === 3) ?? amounts.find((a) => a.strength === 2)
  const deal = intent.deal ?? (strongest ? (pick(strongest, post) >= 1_000_000 ? 'SALE' : 'RENT') : property && /^(?:Plot|Land)$/.test(property.type) ? 'SALE' : 'RENT')
  const price = choosePrice(amounts, deal)

  // A place the network knows beats one taken as written: the heading's `Vashi` over an item's `Sec 17`.
  const place = [own.place, shared?.place].find((p) => p?.known) ?? own.place ?? shared?.place ?? null
  const contact = either('contact')
  const source = own.contact ? own : shared
  let contactValue = contact?.value ?? null
  let contactName = (source?.contactName ?? null) as string | null
  if (!contactValue && piece.sender) {
    const digits = piece.sender.replace(/[\s\-()]/g, '')
    if (/^\+?\d{10,13}$/.test(digits)) contactValue = /^(?:\+?91)?[6-9]\d{9}$/.test(digits) ? formatMobile(digits) : piece.sender
    else contactName ??= piece.sender
  }
  const location: LocationZone | null = place?.zone ?? either('zone')

  const details = [piece.context && piece.context.trim(), piece.text].filter(Boolean).join('\n').slice(0, 4000)
  const confidence =
    (own.intent.post || shared?.intent.post ? 0.15 : 0) +
    (intent.deal ? 0.15 : 0.05) +
    (property ? 0.2 : 0) +
    (price ? (price.bare ? 0.1 : 0.2) : 0) +
    (place ? (place.known ? 0.15 : 0.08) : 0) +
    (contactValue ? 0.1 : 0) +
    (size ? 0.05 : 0)

  return {
    post_type: post,
    sale_or_rent: deal,
    property_type: property?.type ?? null,
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
