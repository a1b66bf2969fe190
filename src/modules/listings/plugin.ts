import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import type { Announcer } from '../matches/service'
import type { RaisePush } from '../notifications/kinds'
import { afterListingWrite, type ListingParts } from './after-write'
import { followExpiring, ExpiringEvents } from './expiring-events'
import { Expiry } from './expiry'
import { listingsApi } from './api'
import { circlesApi } from './circles-api'
import { reportsApi } from './reports-api'
import { listingsPages } from './pages'
import { startExpiryReminders } from './reminders'

/**
 * Listings (SPEC section 7; issue 17): the network's requirements and availabilities, their expiry, reminders and renew
 * links. What follows each write is ./after-write.ts; it hands new pairs to the matches feature's announcer.
 */
export function listingsFeature(
  ctx: AppContext,
  uses: { announcer: Announcer; push?: { raise: RaisePush; listingNews: (listingId: number) => void }; parts?: ListingParts[] },
) {
  // Listings expire at their end in whichever process is awake first (each looks at the database now and every minute).
  const expiry = new Expiry(ctx.db)
  ctx.features.react({ name: 'listings: expire at their end', runs: 'every', start: () => expiry.start(), stop: () => expiry.close() })
  const written = afterListingWrite(ctx, { announcer: uses.announcer, expiry, news: uses.push?.listingNews, parts: uses.parts })
  // Expiry reminders: the primary looks every 5 minutes; each end's mail is claimed in the database (one mail).
  ctx.features.schedule('listings: expiry reminders', 'primary', () => startExpiryReminders({ ...ctx, push: uses.push?.raise }))
  const expiring = new ExpiringEvents(ctx.feed)
  ctx.features.stream({
    event: 'expiring',
    description:
      '`expiring` `{"listings": [{"id", "entry_id", "expires_at"}]}` for everyone: your ACTIVE or ON_HOLD listings ending within 3 days, soonest first; on connect, whenever a reminder of one of them is recorded (the mail goes out 3 days before an end), and when a change of one of your listings changes the list (renewed, expired).',
    topic: expiring,
    follow: (user, send, end) => followExpiring(ctx.db, expiring, user.id, send, end),
  })
  // The navigation counts them beside My Listings, from the stream.
  ctx.features.badge('/dashboard/my-listings', async () => ({ name: 'ExpiringBadge', props: {} }))
  return { expiry, written, plugin: new Elysia({ name: 'listings' }).use(listingsApi(ctx, written)).use(circlesApi(ctx)).use(reportsApi(ctx, written)).use(listingsPages(ctx, written)) }
}
