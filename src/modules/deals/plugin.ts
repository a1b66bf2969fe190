import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import type { AfterListingWrite } from '../listings/after-write'
import type { RaisePush } from '../notifications/kinds'
import { dealsApi } from './api'
import { DealEvents, followDeals } from './events'
import { dealsPages } from './pages'
import { dealPush } from './push'
import { startDealTimers } from './reminders'

/** Co-broking (issue 35): requests and deals between two brokers; each step on both brokers' event streams. */
export function dealsFeature(ctx: AppContext, uses: { written: AfterListingWrite; push?: RaisePush }) {
  const events = new DealEvents(ctx.feed)
  // Each step as a push to the other broker too, where push alerts exist (issue 33; ./push.ts).
  const push = dealPush(uses.push)
  // Requests expire after 72 hours; site visits are reminded the morning of (mail and thread): once, by the primary.
  ctx.features.schedule('deals: expiries and site-visit reminders', 'primary', () => startDealTimers({ ...ctx, push }))
  ctx.features.stream({
    event: 'deal',
    description:
      '`deal` `{"kind": "request" | "deal" | "message", "id", "status"}` for the two brokers of a co-broke request or deal: a request sent, countered, accepted, declined or expired (`id` the request, `status` its status), a deal opened or moved (`id` the deal, `status` its stage), a message or reveal in its thread. Read the request or deal for the rest.',
    topic: events,
    follow: (user, send, end) => followDeals(ctx.db, events, user.id, send, end),
  })
  return { events, plugin: new Elysia({ name: 'deals' }).use(dealsApi(ctx, uses.written, events, push)).use(dealsPages(ctx)) }
}
