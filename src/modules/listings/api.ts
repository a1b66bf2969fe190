import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { json } from '../../platform/http/json'
import { ErrorDetail as Detail, fileAnswer, NoContent } from '../../shared/schema'
import {
  ContactCheckAnswer,
  ContactCheckBody,
  CreateListingBody,
  DuplicateDraft,
  DuplicatesAnswer,
  Listing,
  ListingFiltersQuery,
  ListingIdParams,
  ListingPage,
  ListingQuery,
  PrivateFields,
  PrivateFieldsBody,
  RenewAnswer,
  ReviewRequestAnswer,
  ReviewRequestBody,
  UpdateListingBody,
  ZoneCounts,
} from './model'
import { getListing, listPageAnswer, myListingsAnswer, zoneCountsAnswer } from './store/read'
import { privateFieldsOf } from './private'
import { ownListingsWithPrivatePhone } from './store/private'
import type { AfterListingWrite } from './after-write'
import { findDuplicates } from './duplicates'
import { answerOf, createListing, deleteListing, renewListing, requestReview, targetCity, updateListing } from './service'

const tags = ['Listings']
const errors = { 401: Detail, 403: Detail, 404: Detail, 409: Detail }

/**
 * Requirements and availabilities (SPEC section 7 "Listings"). Reads need `read:listing`, writes `manage:listing` (every
 * role holds both at some access); which rows is the caller's scope (src/platform/policy/scope.ts), applied by the data layer.
 */
export const listingsApi = (ctx: AppContext, written: AfterListingWrite) => {
  const { db } = ctx
  return new Elysia({ name: 'listings-api' })
    .use(authGuard(ctx))
    .group('/api/listings', (app) =>
      app
        .get('/', async ({ request, set, query, user }) => (await listPageAnswer(db, ctx.counts, ctx.pages, user, query)).response(request, set), {
          permission: 'read:listing:own',
          query: ListingQuery,
          response: { 200: ListingPage, ...errors },
          detail: {
            tags,
            summary: 'List listings, newest first, with filters and the total',
            description:
              'Brokers see the whole network except other brokers’ SUSPENDED and EXPIRED listings (their own in every status: `status=EXPIRED` lists only theirs); a module admin sees their city; a master admin everything. With no `status` filter, EXPIRED listings are left out for everyone. `search` matches word prefixes of the entry ID, broker name, locality, property type and details, in any case (an entry ID typed in part, e.g. `MUM-0001`, finds it).',
          },
        })
        .get('/zones', async ({ request, set, query, user }) => (await zoneCountsAnswer(db, ctx.counts, ctx.pages, user, query)).response(request, set), {
          permission: 'read:listing:own',
          query: ListingFiltersQuery,
          response: { 200: ZoneCounts, ...errors },
          detail: {
            tags,
            summary: 'How many listings of each zone match the filters',
            description:
              'The same filters and scope as the list, a zone filter set aside: the total and a count per zone (North, East, West, South, Central, Outskirts). The admin grid’s zone chips.',
          },
        })
        .post('/duplicates', async ({ body, user }) => ({ duplicates: await findDuplicates(db, user, { ...body, city_id: targetCity(user, body.city_id) }) }), {
          permission: 'manage:listing:own',
          body: DuplicateDraft,
          response: { 200: DuplicatesAnswer, 422: t.Any(), ...errors },
          detail: {
            tags,
            summary: 'The ACTIVE listings a draft would repeat',
            description:
              'Among the ACTIVE listings the caller sees in the city the draft would go to, with its post type and sale/rent: those with the same contact (spaces and punctuation aside) and similar details (the words of both details overlap by 0.6 or more: shared words over all words), and those in the same locality with a size within 5 % and a budget within 10 %. Posting a near-copy of one’s own is refused (409) unless `confirm_duplicate` is sent; of another broker’s it is allowed and marked for admins (the `possible_duplicates` filter).',
          },
        })
        .get('/my', async ({ request, set, user }) => (await myListingsAnswer(db, ctx.pages, user)).response(request, set), {
          permission: 'read:listing:own',
          response: { 200: t.Array(Listing), ...errors },
          detail: { tags, summary: 'The caller’s own listings, every status' },
        })
        // The .xlsx writer (and fflate) is imported on the first export, not at start (docs/decisions/004-lazy-start.md).
        .get('/export/xlsx', async ({ query, user }) => (await import('./export')).exportListings(ctx, user, query), {
          permission: 'read:listing:own',
          query: ListingQuery,
          detail: {
            tags,
            summary: 'The filtered list as an .xlsx file (listings-YYYY-MM-DD.xlsx)',
            description: 'Same filters and scope as the list; every matching row, streamed. Two exports are prepared at a time in each server process; a third waits for its turn (429 with `Retry-After`).',
            responses: {
              // The type written out: importing it from ./xlsx would load the writer at start.
              ...fileAnswer('The workbook, as an attachment', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
              429: { description: 'Two exports are being prepared already: try again after `Retry-After` seconds' },
            },
          },
        })
        .get('/:id/private', async ({ params, user }) => json(await privateFieldsOf(db, user, params.id)), {
          permission: 'manage:listing:own',
          params: ListingIdParams,
          response: { 200: PrivateFields, ...errors },
          detail: {
            tags,
            summary: 'A listing’s private fields (its broker and the admins of its scope only)',
            description:
              'Issue 35: the owner’s or client’s name and phone, the exact address, the bottom price and a private note. Only the listing’s broker, a module admin of its city and a master admin read them; another broker who sees the listing gets 403, one who does not 404. They appear in no other answer (list, search, export, matches, events, mail) and in no log or audit entry (the audit trail names which fields changed).',
          },
        })
        .put('/:id/private', async ({ params, body, user }) => (await updateListing(ctx, written, user, params.id, { private: body }), json(await privateFieldsOf(db, user, params.id))), {
          permission: 'manage:listing:own',
          params: ListingIdParams,
          body: PrivateFieldsBody,
          response: { 200: PrivateFields, 422: t.Any(), ...errors },
          detail: {
            tags,
            summary: 'Change a listing’s private fields',
            description:
              'Sent fields replace, absent ones stay, null (or an empty text) clears. Who may: as for GET. Audited as `listing.private_update` with the names of the fields changed, never their values. The same fields may be sent as `private` when posting or changing the listing.',
          },
        })
        .post('/contact-check', async ({ body, user }) => ({ private_owner_phone_of: await ownListingsWithPrivatePhone(db, user, body.contact_value) }), {
          permission: 'manage:listing:own',
          body: ContactCheckBody,
          response: { 200: ContactCheckAnswer, 422: t.Any(), ...errors },
          detail: {
            tags,
            summary: 'Is this contact a phone the caller keeps private on one of their own listings?',
            description:
              'Issue 35: the listing form warns before a contact shown to the network repeats an owner’s phone saved as private elsewhere. Only the caller’s own listings are looked at.',
          },
        })
        .get('/:id', async ({ params, user }) => json(await getListing(db, user, params.id)), {
          permission: 'read:listing:own',
          params: ListingIdParams,
          response: { 200: Listing, ...errors },
          detail: { tags, summary: 'One listing' },
        })
        .post(
          '/',
          async ({ body, user, set }) => {
            // The answer is read in the write's own transaction (issue 36: no round trip after the commit).
            const { shown, answer } = answerOf(db, user)
            const created = await createListing(ctx, written, user, body, shown)
            set.status = 201
            return answer(created.id)
          },
          {
            permission: 'manage:listing:own',
            body: CreateListingBody,
            response: { 201: Listing, 422: t.Any(), ...errors },
            detail: {
              tags,
              summary: 'Post a listing',
              description:
                'Brokers: the listing takes the broker’s city and name as contact, whatever is sent. Admins: `city_id` (module admins: always their own) and `details` are required; the contact name defaults to the admin’s name.',
            },
          },
        )
        .patch('/:id', async ({ params, body, user }) => {
          const { shown, answer } = answerOf(db, user)
          await updateListing(ctx, written, user, params.id, body, shown)
          return answer(params.id)
        }, {
          permission: 'manage:listing:own',
          params: ListingIdParams,
          body: UpdateListingBody,
          response: { 200: Listing, 422: t.Any(), ...errors },
          detail: {
            tags,
            summary: 'Change a listing (partial, e.g. only the status)',
            description:
              'Brokers change their own listings; module admins their city’s; master admins any. Status: SUSPENDED only from ACTIVE, and out of SUSPENDED only to ACTIVE (409 otherwise); ACTIVE, ON_HOLD and CLOSED move freely. Moderation (issue 29): an admin suspending a listing not their own must give `suspension_reason` (422 without it), and the listing’s status is then an admin’s to change: its owner gets 403 for any status change (its other fields stay theirs to edit). An admin setting it ACTIVE lifts the suspension; sending `suspension_reason` again keeps it suspended with the new reason and answers a pending review. A listing suspended by its owner stays theirs to reactivate.',
          },
        })
        .post('/:id/renew', async ({ params, user }) => ({ listing: await getListing(db, user, (await renewListing(ctx, written, user, params.id)).id) }), {
          permission: 'manage:listing:own',
          params: ListingIdParams,
          response: { 200: RenewAnswer, ...errors },
          detail: {
            tags,
            summary: 'Renew a listing: on the network for its city’s default (RENT or SALE days) from now',
            description:
              'The owner, their city’s module admin or a master admin; another broker gets 403, or 404 when the listing is suspended or expired (hidden from them). An expired listing is ACTIVE again (back on market); an ACTIVE or ON_HOLD one may be renewed early. A closed or suspended listing cannot be renewed (409); the owner of one an admin suspended gets 403, naming who may reactivate it.',
          },
        })
        .post(
          '/:id/review-request',
          async ({ params, body, user }) => {
            const { listing, adminsNotified } = await requestReview(ctx, written, user, params.id, body ?? {})
            return { listing: await getListing(db, user, listing.id), admins_notified: adminsNotified }
          },
          {
            permission: 'manage:listing:own',
            params: ListingIdParams,
            body: t.Optional(ReviewRequestBody),
            response: { 200: ReviewRequestAnswer, 422: t.Any(), ...errors },
            detail: {
              tags,
              summary: 'Ask the admins to review a suspension by an admin (the listing’s owner)',
              description:
                'Issue 29. The owner of a listing an admin suspended asks for it to be reviewed, with an optional `note`: the active module admins of its city and the master admins are mailed, the request is audited (`listing.review_request`), and the listing’s `moderation.review_requested_at` is set until an admin answers (reactivates it, or keeps it suspended with a new reason); admins find these with `review_requested=true`. Anyone but the owner gets 403 (other brokers, who do not see it: 404); 409 when the listing is not suspended by an admin, or a review is already pending.',
            },
          },
        )
        .delete(
          '/:id',
          async ({ params, user, set }) => {
            await deleteListing(ctx, written, user, params.id)
            set.status = 204
          },
          {
            permission: 'manage:listing:own',
            params: ListingIdParams,
            response: { 204: NoContent('Deleted'), ...errors },
            detail: { tags, summary: 'Delete a listing (its last content stays in the audit trail)' },
          },
        ),
    )
}
