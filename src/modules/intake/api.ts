import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { PASTE_BUDGET } from '../../shared/constants'
import { groupThousands } from '../../shared/number-format'
import { ErrorDetail as Detail } from '../../shared/schema'
import { ListingIdParams } from '../listings/model'
import { importForUser } from './import'
import { decideLocality, localityOffers } from './locality-offers'
import { IMPORT_DAYS_DEFAULT, ImportAnswer, ImportBody, LocalityDecision, LocalityDecisionBody, LocalityOffers, LocalityOffersQuery, ParseAnswer, ParseBody, PASTE_MAX, ShareAnswer } from './model'
import { parseForUser, shareListing, type PublicLink } from './service'

const tags = ['Listings']
const errors = { 401: Detail, 403: Detail, 404: Detail }

/**
 * WhatsApp in and out (issue 18): pasted messages read into listing drafts, and a listing written as a message.
 * Reading posts nothing: the drafts go through POST /api/listings/ like any listing, once the broker has checked them.
 */
export const intakeApi = (ctx: AppContext, publicLink?: PublicLink) =>
  new Elysia({ name: 'intake-api' }).use(authGuard(ctx)).group('/api/listings', (app) =>
    app
      .post('/parse', ({ body, user }) => parseForUser(ctx, user, body), {
        permission: 'manage:listing:own',
        body: ParseBody,
        response: { 200: ParseAnswer, 422: t.Any(), 429: Detail, ...errors },
        detail: {
          tags,
          summary: 'Read pasted WhatsApp messages into listing drafts',
          description: `Up to ${groupThousands(PASTE_MAX)} characters: one message or many (a chat export with its \`[date, time] Name:\` or \`date, time - Name:\` headers, messages separated by blank lines, numbered items). One draft per listing found, in order; greetings and other messages that are not listings give none. Shorthand understood: Req / Avl / Looking for / To let…, rent / lease / L&L / sale / outright, \`2BHK\`, \`1RK\`, studio, office, shop, plot…, \`45k\`, \`₹45,000/-\`, \`85 lac\`, \`1.2 Cr\`, \`1,20,000\`, ranges (a REQ keeps the upper bound, an AVL the lower), \`650 sqft\` / \`650 carpet\`, Indian phone numbers, and the localities the network already knows in the city (spacing, W/E and small typos aside). Nothing is posted. A user may have ${groupThousands(PASTE_BUDGET.chars)} characters read a minute (429 with Retry-After beyond).`,
        },
      })
      .post('/import', ({ body, user }) => importForUser(ctx, user, body), {
        permission: 'manage:listing:own',
        body: ImportBody,
        type: 'multipart/form-data',
        response: { 200: ImportAnswer, 413: Detail, 422: t.Any(), 429: Detail, ...errors },
        detail: {
          tags,
          summary: 'Read a whole WhatsApp chat export into the caller’s own drafts',
          description: `Multipart: \`file\` is WhatsApp’s “Export chat” file, the .txt or the .zip it makes “without media”, at most 10 MB, judged by its bytes (413 beyond; 422 for an empty file, a file that is not a chat export, a zip without a chat or unpacking to more than 20 MB, or an export without messages). The iPhone, Android and WhatsApp Web formats are read. \`sender\` chooses whose messages become drafts (by default the sender whose number is the caller’s phone); \`days\` how far back (${IMPORT_DAYS_DEFAULT} by default). A message posted several times is one draft (\`times\`), each draft carries the day it was posted and the ACTIVE listing of the network it looks like, if any. Other senders’ messages never become drafts: they are listed with an invitation to join. Nothing is posted. Reading counts against the paste allowance (429 with Retry-After beyond).`,
        },
      })
      .get('/:id/share', ({ params, user }) => shareListing(ctx, user, params.id, publicLink), {
        permission: 'read:listing:own',
        params: ListingIdParams,
        response: { 200: ShareAnswer, ...errors },
        detail: {
          tags,
          summary: 'A listing as a WhatsApp message',
          description:
            'At most 500 characters of brokers’ shorthand (`REQ | RENT | 2 BHK | ₹45K | 650 sq ft | Andheri West (West) | Contact …`), amounts in the listing’s currency, ending with its link on the network; `whatsapp_url` opens WhatsApp with it. Parsing the text gives back the same post type, deal, property type, budget, size and locality.',
        },
      }),
    )
    .group('/api/localities', (app) =>
      app
        .get('/offers', ({ query, user }) => localityOffers(ctx, user, query.city_id), {
          permission: 'manage:listing:city',
          query: LocalityOffersQuery,
          response: { 200: LocalityOffers, 422: t.Any(), ...errors },
          detail: {
            tags,
            summary: 'Localities offered to the city’s admin',
            description:
              'Issue 30: the localities the ACTIVE listings of the city use (spellings together: `Sector 82`, `SECTOR-82`) once three or more do, that its admin has neither accepted nor dismissed. Module admins: their own city; master admins: `city_id` (422 without, 404 for none).',
          },
        })
        .post('/', ({ body, user }) => decideLocality(ctx, user, body), {
          permission: 'manage:listing:city',
          body: LocalityDecisionBody,
          response: { 200: LocalityDecision, 422: t.Any(), ...errors },
          detail: {
            tags,
            summary: 'Accept a locality for the city, or dismiss it',
            description:
              'ACCEPT makes it one of the city’s localities with `zone`: the WhatsApp parser knows its spelling and zone from then on. DISMISS offers it no more. A second decision on the same name (case, spacing and punctuation aside) replaces the first. Module admins decide for their own city only (403 for another).',
          },
        }),
    )
