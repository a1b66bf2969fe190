import { t } from 'elysia'

export const ShareLink = t.Object({
  id: t.Integer(),
  url: t.String({ description: 'The public page: PUBLIC_URL/l/<token>, no sign-in needed' }),
  listing_id: t.Integer(),
  views: t.Integer({ description: 'How many times the page was opened' }),
  created_at: t.String({ format: 'date-time' }),
  revoked_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
})
export type ShareLink = typeof ShareLink.static

export const ShareLinks = t.Object({ links: t.Array(ShareLink, { description: 'The caller’s links, newest first (at most 500)' }) })
export const ShareLinkParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
