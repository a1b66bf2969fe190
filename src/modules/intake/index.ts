import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/http/context'
import { PASTE_BUDGET } from '../../shared/constants'
import { ErrorDetail as Detail } from '../../shared/schema'
import { ListingIdParams } from '../listings/model'
import { ParseAnswer, ParseBody, PASTE_MAX, ShareAnswer } from './model'
import { parseForUser, shareListing } from './service'

const tags = ['Listings']
const errors = { 401: Detail, 403: Detail, 404: Detail }

/**
 * WhatsApp in and out (issue 18): pasted messages read into listing drafts, and a listing written as a message.
 * Reading posts nothing: the drafts go through POST /api/listings/ like any listing, once the broker has checked them.
 */
export const intakeApi = (ctx: AppContext) =>
  new Elysia({ name: 'intake-api' }).use(authGuard(ctx)).group('/api/listings', (app) =>
    app
      .post('/parse', ({ body, user }) => parseForUser(ctx, user, body), {
        permission: 'manage:listing:own',
        body: ParseBody,
        response: { 200: ParseAnswer, 422: t.Any(), 429: Detail, ...errors },
        detail: {
          tags,
          summary: 'Read pasted WhatsApp messages into listing drafts',
          description: `Up to ${PASTE_MAX.toLocaleString('en-US')} characters: one message or many (a chat export with its \`[date, time] Name:\` or \`date, time - Name:\` headers, messages separated by blank lines, numbered items). One draft per listing found, in order; greetings and other messages that are not listings give none. Shorthand understood: Req / Avl / Looking for / To let…, rent / lease / L&L / sale / outright, \`2BHK\`, \`1RK\`, studio, office, shop, plot…, \`45k\`, \`₹45,000/-\`, \`85 lac\`, \`1.2 Cr\`, \`1,20,000\`, ranges (a REQ keeps the upper bound, an AVL the lower), \`650 sqft\` / \`650 carpet\`, Indian phone numbers, and the localities the network already knows in the city (spacing, W/E and small typos aside). Nothing is posted. A user may have ${PASTE_BUDGET.chars.toLocaleString('en-US')} characters read a minute (429 with Retry-After beyond).`,
        },
      })
      .get('/:id/share', ({ params, user }) => shareListing(ctx, user, params.id), {
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
