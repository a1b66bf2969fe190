import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail } from '../../shared/schema'
import type { AfterListingWrite } from '../listings/after-write'
import type { DealEvents } from './events'
import type { DealPush } from './push'
import { BrokerRecord, CloseBody, CobrokeRequest, CounterBody, Deal, DealsQuery, DealWithThread, DeclineBody, IdParams, MessageBody, RequestBody, RevealBody, StageBody } from './model'
import { acceptRequest, brokerRecord, confirmClose, counterRequest, declineRequest, getDeal, getRequest, listDeals, listRequests, postMessage, reveal, sendRequest, setStage } from './service'

const tags = ['Co-broking']
const errors = { 401: Detail, 403: Detail, 404: Detail, 409: Detail }
const party = 'Only its two brokers act in it; anyone else gets 404.'

/**
 * Co-broking (issue 35): "I have a client for this" on a listing opens a request to its broker; accepted, a deal
 * between the two brokers, its thread, stages and a close both confirm. Every step is audited and reaches both
 * brokers' event streams (`deal`).
 */
export const dealsApi = (ctx: AppContext, written: AfterListingWrite, events: DealEvents, push: DealPush) => {
  // Each step is passed to this process's streams at once (other processes read it off the feed).
  const told = <T>(answer: T): T => (events.changed(), answer)
  return new Elysia({ name: 'deals-api' })
    .use(authGuard(ctx))
    .post('/api/listings/:id/cobroke-requests', async ({ params, body, user, set }) => ((set.status = 201), told(await sendRequest(ctx, push, user, params.id, body))), {
      permission: 'manage:deal:own',
      params: IdParams,
      body: RequestBody,
      response: { 201: CobrokeRequest, 422: t.Any(), ...errors },
      detail: {
        tags,
        summary: '“I have a client for this”: ask a listing’s broker to co-broke it',
        description:
          'A broker who sees an ACTIVE listing not their own asks its broker to work it together, naming their own listing when there is one (`requester_listing_id`: a requirement for an availability, or the reverse), with a message and a proposed split: `requester_percent` (50 when none is said; the listing’s broker has the rest) or a `flat_fee`. One open request per listing and requester (409). It waits 72 hours for an answer, then EXPIRED.',
      },
    })
    .get('/api/cobroke-requests', async ({ user }) => listRequests(ctx, user), {
      permission: 'read:deal:own',
      response: { 200: t.Array(CobrokeRequest), ...errors },
      detail: { tags, summary: 'Co-broke requests: sent and received (a module admin: their city’s; a master admin: all), newest first, at most 500' },
    })
    .get('/api/cobroke-requests/:id', async ({ params, user }) => getRequest(ctx, user, params.id), {
      permission: 'read:deal:own',
      params: IdParams,
      response: { 200: CobrokeRequest, ...errors },
      detail: { tags, summary: 'One co-broke request', description: 'Another broker’s is a 404.' },
    })
    .post('/api/cobroke-requests/:id/accept', async ({ params, user }) => told(await acceptRequest(ctx, push, user, params.id)), {
      permission: 'manage:deal:own',
      params: IdParams,
      response: { 200: DealWithThread, ...errors },
      detail: { tags, summary: 'Accept a request (the listing’s broker) or a counter-offer (the requester): the split is locked and a deal opens', description: `409 when it is not yours to answer now, or no longer open. ${party}` },
    })
    .post('/api/cobroke-requests/:id/counter', async ({ params, body, user }) => told(await counterRequest(ctx, push, user, params.id, body)), {
      permission: 'manage:deal:own',
      params: IdParams,
      body: CounterBody,
      response: { 200: CobrokeRequest, 422: t.Any(), ...errors },
      detail: { tags, summary: 'Counter a request with another split (the listing’s broker)', description: 'The requester then accepts or declines, within 72 hours.' },
    })
    .post('/api/cobroke-requests/:id/decline', async ({ params, body, user }) => told(await declineRequest(ctx, push, user, params.id, body.reason)), {
      permission: 'manage:deal:own',
      params: IdParams,
      body: DeclineBody,
      response: { 200: CobrokeRequest, 422: t.Any(), ...errors },
      detail: { tags, summary: 'Decline a request (the listing’s broker) or a counter-offer (the requester), with a reason' },
    })
    .get('/api/brokers/:id/record', async ({ params }) => brokerRecord(ctx, params.id), {
      permission: 'read:listing:own',
      params: IdParams,
      response: { 200: BrokerRecord, ...errors },
      detail: { tags, summary: 'A broker’s record: verified since, deals closed, median time to answer a co-broke request, share answered', description: 'Anyone who sees listings; 404 for someone who is not a broker.' },
    })
    .get('/api/deals', async ({ query, user }) => listDeals(ctx, user, query.stage), {
      permission: 'read:deal:own',
      query: DealsQuery,
      response: { 200: t.Array(Deal), ...errors },
      detail: { tags, summary: 'Deals: a broker’s own, a module admin’s city’s (e.g. `stage=DISPUTED`), a master admin’s all; latest change first, at most 500' },
    })
    .get('/api/deals/:id', async ({ params, user }) => getDeal(ctx, user, params.id), {
      permission: 'read:deal:own',
      params: IdParams,
      response: { 200: DealWithThread, ...errors },
      detail: { tags, summary: 'A deal with its thread', description: 'Its two brokers, a module admin of its city, a master admin; anyone else gets 404.' },
    })
    .post('/api/deals/:id/messages', async ({ params, body, user }) => told(await postMessage(ctx, push, user, params.id, body.body)), {
      permission: 'manage:deal:own',
      params: IdParams,
      body: MessageBody,
      response: { 200: DealWithThread, 422: t.Any(), ...errors },
      detail: { tags, summary: 'Write in a deal’s thread', description: `Messages are never edited or deleted. ${party}` },
    })
    .post('/api/deals/:id/stage', async ({ params, body, user }) => told(await setStage(ctx, push, user, params.id, body.stage, body.visit_at)), {
      permission: 'manage:deal:own',
      params: IdParams,
      body: StageBody,
      response: { 200: DealWithThread, 422: t.Any(), ...errors },
      detail: { tags, summary: 'Move a deal: Interested, Site visit (with `visit_at`), Negotiating', description: `409 once it is closed or disputed. ${party}` },
    })
    .post('/api/deals/:id/reveal', async ({ params, body, user }) => told(await reveal(ctx, push, user, params.id, body.fields)), {
      permission: 'manage:deal:own',
      params: IdParams,
      body: RevealBody,
      response: { 200: DealWithThread, 422: t.Any(), ...errors },
      detail: {
        tags,
        summary: 'Reveal private fields of your own listing to the other broker of the deal (e.g. the owner’s phone after the site visit)',
        description: `The values are written into the deal’s thread (its two brokers and its city’s admins read it); the audit trail names the fields only. ${party}`,
      },
    })
    .post('/api/deals/:id/close', async ({ params, body, user }) => told(await confirmClose(ctx, push, written, user, params.id, body)), {
      permission: 'manage:deal:own',
      params: IdParams,
      body: CloseBody,
      response: { 200: DealWithThread, 422: t.Any(), ...errors },
      detail: {
        tags,
        summary: 'Confirm how the deal ended: WON, or LOST with a reason',
        description:
          'Closed only when both brokers confirm the same outcome; different outcomes make it DISPUTED, shown to the admins of its city with the thread (either broker may confirm again to settle it). Closed WON closes the listings in it (SALE) or puts them ON_HOLD (RENT), each in its broker’s name.',
      },
    })
}
