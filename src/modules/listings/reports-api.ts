import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail, Nullable, text } from '../../shared/schema'
import type { AfterListingWrite } from './after-write'
import { Listing, ListingIdParams } from './model'
import { answerReports, REPORT_REASONS, reportersAnsweredAvailable, reportListing, reportsOf, REPORTS_TO_TAKE_OFF } from './reports'

const tags = ['Listings']
const errors = { 401: Detail, 403: Detail, 404: Detail, 409: Detail }
const reason = t.Union([t.Literal('SOLD_OR_RENTED'), t.Literal('NO_RESPONSE'), t.Literal('WRONG_DETAILS'), t.Literal('FAKE')], {
  errorMessage: { type: `Reason must be one of ${REPORT_REASONS.join(', ')}` },
})

/** Reports of listings by brokers (issue 35, ./reports.ts). */
export const reportsApi = (ctx: AppContext, written: AfterListingWrite) =>
  new Elysia({ name: 'listing-reports-api' })
    .use(authGuard(ctx))
    .post(
      '/api/listings/:id/reports',
      async ({ params, body, user, set }) => ((set.status = 201), reportListing(ctx, written, user, params.id, body.reason, body.note)),
      {
        permission: 'manage:listing:own',
        params: ListingIdParams,
        body: t.Object({ reason, note: t.Optional(text({ max: 500, multiline: true, messages: { maxLength: 'The note must be at most 500 characters' } })) }),
        response: { 201: t.Object({ reported_by: t.Integer({ description: 'How many brokers report it now (open reports)' }), off_network: t.Boolean() }), 422: t.Any(), ...errors },
        detail: {
          tags,
          summary: 'Report a listing: sold or rented, no response, wrong details, fake',
          description: `A broker who sees an ACTIVE listing not their own. One open report per broker and listing (409 again until its broker answers). ${REPORTS_TO_TAKE_OFF} brokers’ open reports take it off the network (SUSPENDED for everyone but its broker and admins) until its broker answers. Audited.`,
        },
      },
    )
    .get('/api/listings/:id/reports', async ({ params, user }) => reportsOf(ctx, user, params.id), {
      permission: 'manage:listing:own',
      params: ListingIdParams,
      response: {
        200: t.Object({
          off_network: t.Boolean({ description: 'Taken off the network by reports, until its broker answers' }),
          reports: t.Array(t.Object({ reason, note: Nullable(t.String()), created_at: t.String({ format: 'date-time' }), reporter_name: Nullable(t.String({ description: 'Admins only' })) })),
        }),
        ...errors,
      },
      detail: { tags, summary: 'A listing’s open reports (its broker; its admins, with who reported)' },
    })
    .post('/api/listings/:id/reports/answer', async ({ params, body, user }) => answerReports(ctx, written, user, params.id, body.answer), {
      permission: 'manage:listing:own',
      params: ListingIdParams,
      body: t.Object({ answer: t.Union([t.Literal('STILL_AVAILABLE'), t.Literal('CLOSED')], { errorMessage: { type: 'Answer STILL_AVAILABLE or CLOSED' } }) }),
      response: { 200: Listing, 422: t.Any(), ...errors },
      detail: {
        tags,
        summary: 'Answer a listing’s reports (its broker): still available (back on the network) or closed',
        description: 'The reports are kept, answered so: admins see the brokers whose reports keep being answered still available. 409 when there is nothing to answer. Audited.',
      },
    })
    .get('/api/listing-reports/reporters', async ({ user }) => reportersAnsweredAvailable(ctx, user), {
      permission: 'manage:listing:city',
      response: { 200: t.Array(t.Object({ user_id: t.Integer(), full_name: t.String(), reports: t.Integer(), answered_still_available: t.Integer() })), ...errors },
      detail: { tags, summary: 'Admins: brokers whose reports were answered “still available”, most first (a module admin: reports in their city)' },
    })
