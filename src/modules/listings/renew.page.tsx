import { createElement, type ReactNode } from 'react'
import type { AppContext } from '../../platform/context'
import { renderPage } from '../../platform/pages/render'
import { formatMoment } from '../../shared/dates'
import { AuthCard } from '../auth/auth-card'
import type { RenewOffer, RenewRefusal } from './renew'

// The renew link's pages (./renew.ts), in the public site's frame: no sign-in, no script. Loaded on the first request.

/** The token is in the address: never sent on as a Referer, never kept by a cache or a search engine. */
const PRIVATE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' }
const MY_LISTINGS = '/dashboard/my-listings'

function Card({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <AuthCard current="/renew" title={title} subtitle={subtitle}>
      <div className="space-y-4 text-center" data-renew>
        {children}
      </div>
    </AuthCard>
  )
}

function Offer({ offer, token, timeZone }: { offer: RenewOffer; token: string; timeZone: string }) {
  const { row } = offer
  const ended = row.status === 'EXPIRED'
  return (
    <Card title="Renew your listing" subtitle="One click keeps it on the network.">
      <p className="text-lg">
        Renew <strong>{row.entryId}</strong>{` (${offer.what}) until `}<strong>{formatMoment(offer.until, timeZone)}</strong>?
      </p>
      <p className="text-sm text-base-content/70">
        {`${ended ? 'It expired on' : 'It leaves the network on'} ${formatMoment(Number(row.expiresAt), timeZone)}.`}
      </p>
      <form method="post" action={`/renew/${token}`}>
        <button type="submit" className="btn btn-primary w-full">
          {`Renew ${row.entryId}`}
        </button>
      </form>
    </Card>
  )
}

function Renewed({ entryId, until, timeZone }: { entryId: string; until: number; timeZone: string }) {
  return (
    <Card title="Listing renewed" subtitle="It stays on the network.">
      <p role="status" className="text-lg">
        <strong>{entryId}</strong>
        {' renewed until '}
        <strong>{formatMoment(until, timeZone)}</strong>.
      </p>
      <a href={MY_LISTINGS} className="btn btn-outline w-full">
        Go to My Listings
      </a>
    </Card>
  )
}

function Refused({ refusal }: { refusal: RenewRefusal }) {
  return (
    <Card title="This link cannot renew" subtitle="Nothing was changed.">
      <p role="alert" className="text-lg">
        {refusal.reason}
      </p>
      <p>Sign in and renew the listing from My Listings.</p>
      <a href={`/login?redirect=${encodeURIComponent(MY_LISTINGS)}`} className="btn btn-primary w-full">
        Sign in
      </a>
    </Card>
  )
}

const refusedPage = (refusal: RenewRefusal) =>
  renderPage(createElement(Refused, { refusal }), { title: 'Renew link', status: refusal.status, headers: PRIVATE })

/** GET /renew/:token: what the button would do, or why the link cannot. */
export const offerPage = (ctx: AppContext, token: string, offer: RenewOffer | RenewRefusal) =>
  'reason' in offer
    ? refusedPage(offer)
    : renderPage(createElement(Offer, { offer, token, timeZone: ctx.config.timeZone }), { title: `Renew ${offer.row.entryId}`, headers: PRIVATE })

/** POST /renew/:token: done, or why not. */
export const renewedPage = (ctx: AppContext, done: { entryId: string; until: number } | RenewRefusal) =>
  'reason' in done
    ? refusedPage(done)
    : renderPage(createElement(Renewed, { ...done, timeZone: ctx.config.timeZone }), { title: 'Listing renewed', headers: PRIVATE })
