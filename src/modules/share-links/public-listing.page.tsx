import { createElement } from 'react'
import { renderPage } from '../../platform/pages/render'
import { formatSize, listingCurrency } from '../../shared/currency'
import { formatMoney } from '../../shared/money'
import type { PublicView } from './service'

type Live = Extract<PublicView, { state: 'live' }>

const DEAL = { SALE: 'For sale', RENT: 'For rent' } as const
const WANTED = { SALE: 'Wanted to buy', RENT: 'Wanted to rent' } as const

/** The headline a client reads, and a preview card shows: "2BHK for rent in Andheri West, Mumbai". */
const headline = (l: Live['listing']) =>
  `${l.property_type} ${(l.post_type === 'AVL' ? DEAL : WANTED)[l.sale_or_rent].toLowerCase()}${l.locality ? ` in ${l.locality}` : ''}, ${l.city_name}`

const digits = (phone: string) => phone.replace(/[^\d]/g, '')

/**
 * A listing as a broker's client sees it (issue 34): rendered here, readable with no script, no sign-in. The
 * sharing broker's name, verified badge and contact; never the owner's contact, comments or reference.
 */
function PublicListing({ v, base }: { v: Live; base: string }) {
  const { listing: l, sharer, photos } = v
  const price = l.budget === null ? null : formatMoney(l.budget, listingCurrency(l))
  const url = `${base}/l/${v.share.token}`
  const message = `Hello ${sharer.fullName}, about ${headline(l)}: ${url}`
  return (
    <main className="mx-auto max-w-3xl space-y-5 bg-base-100 p-4 sm:my-6 sm:rounded-box sm:p-6">
      <header className="space-y-1">
        <p className="text-sm text-base-content/70">{l.post_type === 'AVL' ? DEAL[l.sale_or_rent] : WANTED[l.sale_or_rent]}</p>
        <h1 className="text-2xl font-bold">{headline(l)}</h1>
        {price && <p className="text-xl font-semibold">{price}</p>}
      </header>
      {photos.length > 0 && (
        <section aria-label="Photos (scroll sideways for more)" tabIndex={0} className="flex snap-x snap-mandatory gap-2 overflow-x-auto">
          {photos.map((p, i) => (
            <img
              key={p.id}
              src={`/l/${v.share.token}/photos/${p.large}`}
              width={p.largeWidth}
              height={p.largeHeight}
              alt={`Photo ${i + 1} of ${photos.length}`}
              loading={i === 0 ? 'eager' : 'lazy'}
              // The first photo is the page's largest paint: asked for with the stylesheet, before the others.
              fetchPriority={i === 0 ? 'high' : 'low'}
              className="h-auto max-h-[70vh] w-full shrink-0 snap-center rounded-box object-contain bg-base-200"
            />
          ))}
        </section>
      )}
      <dl className="grid grid-cols-2 gap-3 text-sm">
        {[
          ['Property', l.property_type],
          ['Deal', l.sale_or_rent === 'SALE' ? 'Sale' : 'Rent'],
          ['Price', price],
          ['Size', l.size === null ? null : formatSize(l.size)],
          ['Locality', l.locality],
          ['City', [l.city_name, l.state_name].filter(Boolean).join(', ')],
        ].map(([k, val]) => (
          <div key={k}>
            <dt className="text-base-content/70">{k}</dt>
            <dd className="font-medium">{val || '—'}</dd>
          </div>
        ))}
      </dl>
      {l.details && (
        <section>
          <h2 className="mb-1 font-semibold">Details</h2>
          <p className="whitespace-pre-wrap break-words">{l.details}</p>
        </section>
      )}
      <section className="rounded-box border border-base-300 p-4" aria-label="Your broker">
        <p className="text-sm text-base-content/70">Shared by</p>
        <p className="flex flex-wrap items-center gap-2 text-lg font-semibold">
          {sharer.fullName}
          {sharer.verified && <span className="badge badge-success">Verified broker</span>}
        </p>
        {v.lister && (
          <p className="mt-1 text-sm text-base-content/70">{`Listed on Brokernet by ${v.lister.fullName}${v.lister.verified ? ', a verified broker' : ''}`}</p>
        )}
        {sharer.phone && (
          <div className="mt-3 flex flex-wrap gap-2">
            <a className="btn btn-primary min-h-11" href={`tel:${sharer.phone.replace(/[^\d+]/g, '')}`}>
              Call {sharer.phone}
            </a>
            <a className="btn btn-success min-h-11" href={`https://wa.me/${digits(sharer.phone)}?text=${encodeURIComponent(message)}`} rel="noopener noreferrer">
              WhatsApp
            </a>
          </div>
        )}
      </section>
      <footer className="text-xs text-base-content/70">Brokernet · a network of verified brokers</footer>
    </main>
  )
}

function Gone({ revoked }: { revoked: boolean }) {
  return (
    <main className="mx-auto max-w-xl space-y-3 bg-base-100 p-6 sm:my-10 sm:rounded-box">
      <h1 className="text-2xl font-bold">{revoked ? 'This link no longer works' : 'No such listing'}</h1>
      <p>{revoked ? 'The property is no longer offered through this link: it may have been let or sold. Please ask the broker who sent it for what is available now.' : 'Please check the link you were sent, or ask the broker who sent it.'}</p>
    </main>
  )
}

const NOINDEX = { robots: 'noindex, nofollow' }

export function view(v: PublicView, base: string): Response {
  if (v.state !== 'live')
    return renderPage(createElement(Gone, { revoked: v.state === 'gone' }), {
      title: v.state === 'gone' ? 'Link no longer works' : 'Not found',
      status: v.state === 'gone' ? 410 : 404,
      meta: NOINDEX,
      headers: { 'x-robots-tag': 'noindex' },
    })
  const l = v.listing
  const price = l.budget === null ? '' : ` · ${formatMoney(l.budget, listingCurrency(l))}`
  const title = `${headline(l)}${price}`
  const cover = v.photos[0]
  const description = (l.details ?? `${l.property_type} in ${l.locality ?? l.city_name}`).slice(0, 200)
  const meta: Record<string, string> = {
    ...NOINDEX,
    'og:type': 'website',
    'og:title': title,
    'og:description': description,
    'og:url': `${base}/l/${v.share.token}`,
    'og:site_name': 'Brokernet',
    'twitter:card': cover ? 'summary_large_image' : 'summary',
    'twitter:title': title,
    'twitter:description': description,
  }
  if (cover) {
    const image = `${base}/l/${v.share.token}/og.jpg`
    Object.assign(meta, { 'og:image': image, 'og:image:width': '1200', 'og:image:height': '630', 'og:image:alt': `Photo of ${headline(l)}`, 'twitter:image': image })
  }
  return renderPage(createElement(PublicListing, { v, base }), { title, description, meta, headers: { 'x-robots-tag': 'noindex' } })
}
