import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { json } from '../../platform/http/json'
import { ErrorDetail as Detail, NoContent } from '../../shared/schema'
import { ListingIdParams } from '../listings/model'
import { CityIdParams, Inbox, MatchCounts, MatchCountsQuery, InboxQuery, ListingMatches, MatchesQuery, MatchIdParams, Tolerance, ToleranceBody } from './model'
import { inbox, listingMatches, matchCounts } from './read'
import { MATCH_RULES } from './rules'
import { dismiss, markSeen, setTolerance, undismiss } from './service'

const tags = ['Matches']
const errors = { 401: Detail, 403: Detail, 404: Detail }
const rules = MATCH_RULES.map((r) => `- ${r}`).join('\n')

/** Requirements meeting availabilities (issue 15): a listing's matches, the caller's inbox, a city's tolerance. */
export const matchesApi = (ctx: AppContext) => {
  const { db } = ctx
  return new Elysia({ name: 'matches-api' })
    .use(authGuard(ctx))
    .get('/api/listings/match-counts', async ({ query, user }) => json(await matchCounts(db, user, [...new Set(query.ids.split(',').map(Number))])), {
      permission: 'read:listing:own',
      query: MatchCountsQuery,
      response: { 200: MatchCounts, ...errors },
      detail: { tags, summary: 'How many listings match each of these (the "3 matches" of a listings row)' },
    })
    .get('/api/listings/:id/matches', async ({ params, query, user }) => json(await listingMatches(db, user, params.id, query)), {
      permission: 'read:listing:own',
      params: ListingIdParams,
      query: MatchesQuery,
      response: { 200: ListingMatches, ...errors },
      detail: {
        tags,
        summary: 'The listings that match this one, best first',
        description: `Anyone who may see the listing may ask (404 otherwise); pairs the caller dismissed are left out for them. What matches:\n${rules}`,
      },
    })
    .group('/api/matches', (app) =>
      app
        .get('/', async ({ query, user }) => json(await inbox(db, user, query)), {
          permission: 'read:matching:own',
          query: InboxQuery,
          response: { 200: Inbox, ...errors },
          detail: {
            tags,
            summary: 'Your inbox: matches found for your own listings, newest first',
            description:
              'An entry appears when a listing is posted or changed so that it newly matches one of yours (each pair once, whatever edits follow), and shows while both are ACTIVE and still match. `unseen=1`: only the unseen ones.',
          },
        })
        .post('/:id/seen', async ({ params, user, set }) => (await markSeen(db, user, params.id), (set.status = 204), undefined), {
          permission: 'read:matching:own',
          params: MatchIdParams,
          response: { 204: NoContent('Marked seen'), ...errors },
          detail: { tags, summary: 'Mark an inbox entry seen', description: "Someone else's entry is a 404." },
        })
        .post('/:id/dismiss', async ({ params, user, set }) => (await dismiss(db, user, params.id), (set.status = 204), undefined), {
          permission: 'read:matching:own',
          params: MatchIdParams,
          response: { 204: NoContent('Dismissed'), ...errors },
          detail: {
            tags,
            summary: 'Not interested: the pair is never shown or announced to you again',
            description: "It leaves your inbox and your listing's matches. Someone else's entry is a 404.",
          },
        })
        .delete('/:id/dismiss', async ({ params, user, set }) => (await undismiss(db, user, params.id), (set.status = 204), undefined), {
          permission: 'read:matching:own',
          params: MatchIdParams,
          response: { 204: NoContent('Back in the inbox'), ...errors },
          detail: {
            tags,
            summary: 'Undo Not interested: the pair is back in your inbox',
            description:
              "As it was before the dismissal: unseen again if the dismissal is what marked it seen. An entry not dismissed is left as it is (204). Someone else's entry is a 404.",
          },
        }),
    )
    .put('/api/geographic/cities/:id/match-tolerance', ({ params, body, user }) => setTolerance(db, user, params.id, body.match_tolerance), {
      permission: 'manage:matching:city',
      params: CityIdParams,
      body: ToleranceBody,
      response: { 200: Tolerance, 422: t.Any(), ...errors },
      detail: {
        tags,
        summary: "Set a city's budget tolerance for matching (0–30 %)",
        description: 'A master admin for any city, a module admin for their own (403 otherwise). The default is 10 %.',
      },
    })
}
