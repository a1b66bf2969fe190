import { t } from 'elysia'
import { Listing } from '../listings/model'

export const ShareLink = t.Object({
  id: t.Integer(),
  url: t.String({ description: 'The public page: PUBLIC_URL/l/<token>, no sign-in needed' }),
  listing_id: t.Integer(),
  views: t.Integer({ description: 'How many times the page was opened' }),
  created_at: t.String({ format: 'date-time' }),
  revoked_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
})
export type ShareLink = typeof ShareLink.static

/** What the caller's list says of a link's listing, for the screen that lists them (/dashboard/share-links). */
const LinkedListing = t.Composite(
  [
    t.Pick(Listing, ['entry_id', 'post_type', 'sale_or_rent', 'property_type', 'locality', 'status', 'onward_sharing']),
    t.Object({ own: t.Boolean({ description: 'The caller’s own listing (false: another broker’s, shared onward with their consent)' }) }),
  ],
  { description: 'The listing as the caller sees it now; null when they no longer see it (deleted, or no longer shown to them)' },
)
export const MyShareLink = t.Composite([
  ShareLink,
  t.Object({
    listing: t.Union([LinkedListing, t.Null()]),
    live: t.Boolean({
      description:
        'The page opens for a client now: not revoked, the listing ACTIVE or ON HOLD and, for another broker’s listing, their consent still given and the listing still shown to the caller. Otherwise it answers 410.',
    }),
  }),
])
export type MyShareLink = typeof MyShareLink.static

export const ShareLinks = t.Object({ links: t.Array(MyShareLink, { description: 'The caller’s links, newest first (at most 500)' }) })
export const ShareLinkParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
