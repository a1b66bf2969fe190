import { t } from 'elysia'
import { Nullable } from '../../shared/schema'
import { LOCATION_ZONES } from '../../shared/constants'
import { groupThousands } from '../../shared/number-format'

// Issue 18: WhatsApp in and out. The parse route's body and answer, and the share route's answer.

/** The longest paste the parse route takes. */
export const PASTE_MAX = 20_000

const zone = t.Union(LOCATION_ZONES.map((z) => t.Literal(z)))

export const ParseBody = t.Object({
  text: t.String({
    minLength: 1,
    maxLength: PASTE_MAX,
    description: 'What was pasted: one message or many (a WhatsApp chat export, messages separated by blank lines, numbered items)',
    errorMessage: { minLength: 'Paste at least one message', maxLength: `A paste is at most ${groupThousands(PASTE_MAX)} characters`, type: 'text must be a string' },
  }),
  city_id: t.Optional(
    t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Master admins: the city whose localities to recognise. Others: their own city is used.' }),
  ),
})
export type ParseBody = typeof ParseBody.static

export const ParsedDraft = t.Object({
  post_type: t.Union([t.Literal('REQ'), t.Literal('AVL')], { description: 'REQ when a client wants something, AVL when something is on offer; AVL when the message does not say' }),
  sale_or_rent: t.Union([t.Literal('SALE'), t.Literal('RENT')], { description: 'From the words (rent, lease, L&L / sale, outright…), else from the amount (10 lakh or more: SALE)' }),
  property_type: Nullable(t.String({ examples: ['2 BHK', '1 RK', 'Office', 'Warehouse'] })),
  budget: Nullable(t.Number({ description: 'In the currency’s units: a REQ’s range keeps its upper bound, an AVL’s its lower; deposits and maintenance are not the budget' })),
  size: Nullable(t.Number({ description: 'Square feet' })),
  locality: Nullable(t.String({ description: 'A locality the network already knows in the city, as it is written there; else the place the message names' })),
  location: Nullable(zone),
  contact_value: Nullable(t.String({ description: 'A phone number (Indian mobiles as +91 98200 12345) or an email' })),
  contact_name: Nullable(t.String()),
  details: t.String({ description: 'The message as it was written (without its chat header)' }),
  confidence: t.Number({ minimum: 0, maximum: 1, description: 'How much of a listing was found: post type and deal said in words, property type, budget, locality, contact, size' }),
  unparsed: t.Array(t.String(), { description: 'The words no field took and that are not the usual details (furnished, floor, parking…): worth a look' }),
})
export type ParsedDraft = typeof ParsedDraft.static

export const ParseAnswer = t.Object({
  drafts: t.Array(ParsedDraft, { description: 'One per listing found, in the order of the paste; messages that are not listings give none' }),
})
export type ParseAnswer = typeof ParseAnswer.static

export const ShareAnswer = t.Object({
  text: t.String({ maxLength: 500, description: 'The listing in brokers’ shorthand, ending with its link', examples: ['REQ | RENT | 2 BHK | ₹45K | 650 sq ft | Andheri West (West) | Contact Rahul +91 98200 12345 | https://brokernet.example/dashboard/listings?search=REQ-MUM-000123'] }),
  whatsapp_url: t.String({ description: 'https://wa.me/?text=… : opens WhatsApp with the text, to pick a chat' }),
  public_url: t.Union([t.String(), t.Null()], {
    description:
      'Issue 34: the public page for a client the text links to (the caller’s own listing, or another broker’s whose owner allows onward sharing: then the text’s contact is the caller’s), made the first time; null when the text links to the listing on the network',
  }),
})
export type ShareAnswer = typeof ShareAnswer.static

// Issue 30: a whole WhatsApp chat export read into the broker's own drafts.

export const IMPORT_DAYS_DEFAULT = 30

export const ImportBody = t.Object({
  file: t.Optional(t.File({ description: 'WhatsApp’s “Export chat” file: the .txt, or the .zip it makes “without media”; at most 10 MB, judged by its bytes' })),
  sender: t.Optional(
    t.String({ maxLength: 100, description: 'Whose messages become drafts: one of the answer’s `senders`. Not given: the sender whose number is the caller’s phone, if one is' }),
  ),
  days: t.Optional(
    t.Integer({ minimum: 1, maximum: 3650, description: `Only messages of the last so many days, today included (${IMPORT_DAYS_DEFAULT} when not given)`, errorMessage: 'days must be a whole number from 1 to 3650' }),
  ),
  city_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Master admins: the city whose localities to recognise' })),
})
export type ImportBody = typeof ImportBody.static

const day = t.String({ format: 'date' })

export const ImportedDraft = t.Object({
  ...ParsedDraft.properties,
  posted_at: t.String({ format: 'date', description: 'The day the message was last posted in the chat' }),
  times: t.Integer({ minimum: 1, description: 'How many times the same message was posted (one draft for all)' }),
  duplicate: Nullable(
    t.Object(
      { entry_id: t.String(), own: t.Boolean({ description: 'The caller’s own listing: posting it again needs confirm_duplicate' }) },
      { description: 'An ACTIVE listing of the network this draft looks like (duplicate control, issue 17)' },
    ),
  ),
})
export type ImportedDraft = typeof ImportedDraft.static

export const ImportAnswer = t.Object({
  messages: t.Integer({ description: 'Messages in the export (WhatsApp’s own lines left out)' }),
  first_day: Nullable(day),
  last_day: Nullable(day),
  senders: t.Array(
    t.Object({
      sender: t.String({ description: 'As the export names them: a name or a phone number' }),
      phone: Nullable(t.String({ description: 'The sender’s number when the export shows one' })),
      messages: t.Integer(),
      listings: t.Integer({ description: 'Messages that look like listings (a property word or a configuration, with a figure)' }),
      chosen: t.Boolean({ description: 'Their messages are the drafts' }),
      invite_url: Nullable(t.String({ description: 'https://wa.me/…?text=… : a WhatsApp message inviting them to register on the network (none for the chosen sender)' })),
    }),
    { description: 'Everyone who wrote in the chat, most listings first. Other senders’ messages are never drafts: they are invited to post their own' },
  ),
  sender: Nullable(t.String({ description: 'Whose messages became drafts; null when none was given and none has the caller’s phone' })),
  since: day,
  own_messages: t.Integer({ description: 'The chosen sender’s messages in the period' }),
  drafts: t.Array(ImportedDraft, { description: 'Newest first, one per listing of each distinct message; at most 300' }),
  truncated: t.Boolean({ description: 'More drafts than 300 were found: choose a shorter period' }),
})
export type ImportAnswer = typeof ImportAnswer.static

// Issue 30: localities offered to a city's module admin once several listings use them.

export const LocalityOffersQuery = t.Object({
  city_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Master admins: the city. Module admins: their own (another is refused)' })),
})

export const LocalityOffers = t.Object({
  city_id: t.Integer(),
  offer_at: t.Integer({ description: 'How many ACTIVE listings must use a locality before it is offered' }),
  offers: t.Array(
    t.Object({
      name: t.String({ description: 'The spelling most of its listings use' }),
      listings: t.Integer({ description: 'ACTIVE listings of the city using it, all spellings together' }),
      zone: Nullable(zone),
      spellings: t.Array(t.String(), { description: 'Every spelling its listings use (`Sector 82`, `SECTOR-82`)' }),
    }),
    { description: 'Localities of the city neither accepted nor dismissed yet, most used first, at most 50' },
  ),
  more: t.Integer({ description: 'Offers beyond the 50 shown' }),
})
export type LocalityOffers = typeof LocalityOffers.static

export const LocalityDecisionBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 100, errorMessage: { minLength: 'A locality needs a name', maxLength: 'A locality name is at most 100 characters', type: 'name must be a string' } }),
  decision: t.Union([t.Literal('ACCEPT'), t.Literal('DISMISS')], { errorMessage: 'decision must be ACCEPT or DISMISS' }),
  zone: t.Optional(Nullable(zone)),
  city_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Master admins: the city' })),
})
export type LocalityDecisionBody = typeof LocalityDecisionBody.static

export const LocalityDecision = t.Object({
  city_id: t.Integer(),
  name: t.String(),
  zone: Nullable(zone),
  status: t.Union([t.Literal('ACCEPTED'), t.Literal('DISMISSED')]),
})
export type LocalityDecision = typeof LocalityDecision.static
