import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { INTAKE_TEXT } from '../intake/intake-text'
import { ListingMatchesTab } from '../matches/ListingMatchesTab'
import { ContactButtons } from '../shared/ContactButtons'
import { Email } from '../shared/Email'
import { Modal } from '../shared/Modal'
import { formatSize, listingCurrency } from '../../src/shared/currency'
import { daysOnMarketLabel } from '../../src/shared/days-on-market'
import { formatMoney, moneyWithCode } from '../../src/shared/money'
import {
  formatListingDate,
  LISTING_TEXT,
  listingPlace,
  postTypeBadgeClass,
  postTypeLabel,
  safeMapUrl,
  saleOrRentLabel,
  STATUS_LABELS,
  statusBadgeClass,
} from './listing-format'
import { isModerated, MODERATION_TEXT, ModerationNotice } from './moderation-format'
import { isReportedOff, REPORTED_TEXT, ReportedOffNotice } from './reported-off'
import { PhotoGallery } from './photos/PhotoGallery'
import { ListingBrokerRecord } from './BrokerRecord'

export type ListingDetailsDialogProps = {
  /** The listing shown; null keeps the dialog closed. */
  listing: Listing | null
  onClose: () => void
  /** 'Listing Details' by default; My Listings says 'My Listing'. */
  title?: string
  /** Tags the listing 'Your Listing' when it is the viewer's. */
  viewerId?: number | null
  /** Buttons of the Actions section (e.g. Edit, Delete), shown before Close. */
  actions?: ReactNode
  /** The tab it opens on: the details (default), or the listing's matches (a row's "3 matches"). */
  tab?: DetailsTab
  /** Share (issue 18): the screen opens the share dialog (islands/intake/ShareListingDialog.tsx) for the listing. */
  onShare?: (listing: Listing) => void
  /** A broker who may ask to co-broke (issue 35): the Matches tab gives each counterpart "I have a client for this". */
  cobrokeAs?: number | null
}

export type DetailsTab = 'details' | 'matches'
const TABS: { id: DetailsTab; label: string }[] = [
  { id: 'details', label: 'Details' },
  { id: 'matches', label: 'Matches' },
]

/**
 * Everything about one listing (SPEC "Broker dashboard": full details, basic info, contact, property, actions), with
 * a 'View on map' link for its Google location, opened in a new tab; and, on its second tab, the listings that match
 * it (issue 15).
 */
export function ListingDetailsDialog({ listing, onClose, title = 'Listing Details', viewerId = null, actions, tab = 'details', onShare, cobrokeAs = null }: ListingDetailsDialogProps) {
  return (
    <Modal open={listing !== null} title={title} size="lg" onClose={onClose}>
      {listing && (
        <Tabbed
          key={`${listing.id}-${tab}`}
          listing={listing}
          own={viewerId !== null && listing.owner_user_id === viewerId}
          actions={
            <>
              {onShare && (
                <button type="button" className="btn btn-outline" onClick={() => onShare(listing)}>
                  {INTAKE_TEXT.share.button}
                </button>
              )}
              {actions}
            </>
          }
          onClose={onClose}
          initialTab={tab}
          cobrokeAs={cobrokeAs}
        />
      )}
    </Modal>
  )
}

/** The listing's heading, its two tabs (the details, its matches) and the action bar under both. */
type TabbedProps = { listing: Listing; own: boolean; actions?: ReactNode; onClose: () => void; initialTab: DetailsTab; cobrokeAs: number | null }

function Tabbed({ listing: l, own, actions, onClose, initialTab, cobrokeAs }: TabbedProps) {
  const [tab, setTab] = useState(initialTab)
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, '')
  const tabRefs = useRef<Record<DetailsTab, HTMLButtonElement | null>>({ details: null, matches: null })
  // The tabs pattern of WAI-ARIA: arrow keys move between the tabs, and the one chosen is the only one in the tab order.
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End') return
    e.preventDefault()
    const i = TABS.findIndex((t) => t.id === tab)
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : (i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length
    setTab(TABS[next]!.id)
    tabRefs.current[TABS[next]!.id]?.focus()
  }
  return (
    <div className="min-w-0 space-y-4" data-listing-details={l.entry_id} data-tab={tab}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-mono text-lg font-semibold [overflow-wrap:anywhere]">{l.entry_id}</span>
        <span className={`badge ${postTypeBadgeClass(l.post_type)}`}>{postTypeLabel(l.post_type)}</span>
        <span className={`badge ${statusBadgeClass(l.status)}`}>{statusText(l)}</span>
        {own && <span className="badge badge-primary">{LISTING_TEXT.yourListing}</span>}
      </div>
      <ModerationNotice listing={l} owner />
      <ReportedOffNotice listing={l} />

      <div role="tablist" aria-label={`Listing ${l.entry_id}`} className="tabs tabs-border" onKeyDown={onKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[t.id] = el
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${id}-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={`tab ${tab === t.id ? 'tab-active' : 'text-base-content/80'}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel-${tab}`} aria-labelledby={`${id}-tab-${tab}`} className="min-w-0">
        {tab === 'details' ? <Details listing={l} own={own} /> : <ListingMatchesTab listing={l} cobrokeAs={cobrokeAs} />}
      </div>

      <div className="modal-action mt-2 flex-wrap" aria-label="Actions">
        {actions}
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  )
}

function Details({ listing: l, own }: { listing: Listing; own: boolean }) {
  const map = safeMapUrl(l.google_location_url)
  return (
    <div className="min-w-0 space-y-5">
      {l.cover && <PhotoGallery listingId={l.id} label={`Photos of ${l.entry_id}`} />}
      <Section title="Full Details">
        <p className="whitespace-pre-wrap break-words">{l.details || <span className="text-base-content/70">No details given.</span>}</p>
        {l.type_details && <Row label="Type details" value={l.type_details} />}
        {l.comments && <Row label="Comments" value={l.comments} />}
      </Section>

      <div className="grid gap-5 sm:grid-cols-2 [&>*]:min-w-0">
        <Section title="Basic Info">
          <Row label="Entry ID" value={l.entry_id} />
          <Row label="Post type" value={postTypeLabel(l.post_type)} />
          <Row label="Sale / Rent" value={saleOrRentLabel(l.sale_or_rent)} />
          <Row label="Status" value={statusText(l)} />
          <Row label="Date" value={formatListingDate(l.date)} />
          <Row label="On market" value={daysOnMarketLabel(l.first_posted_at)} title={`First posted ${formatListingDate(l.first_posted_at.slice(0, 10))}`} />
          <Row label="Reference" value={l.reference} />
        </Section>
        <Section title="Contact">
          <Row label="Contact name" value={l.contact_name} />
          <Row label="Contact" value={l.contact_value}>
            {l.contact_value.includes('@') ? <Email address={l.contact_value} /> : l.contact_value}
          </Row>
          <Row label="Broker" value={l.owner_name} />
          {/* Another broker's listing: one tap to them (issue 32). */}
          {!own && (
            <div className="mt-2 flex flex-wrap gap-2 [&>*]:flex-1" data-details-contact>
              <ContactButtons listing={l} />
            </div>
          )}
        </Section>
      </div>

      {/* Issue 35: who the broker is on Brokernet, before calling them. */}
      <Section title="Broker’s record">
        <ListingBrokerRecord brokerId={l.owner_user_id} />
      </Section>

      <Section title="Property">
        <div className="grid gap-x-5 sm:grid-cols-2 [&>*]:min-w-0">
          <Row label="Property type" value={l.property_type} />
          <Row label="Budget" value={formatMoney(l.budget, listingCurrency(l))} title={l.budget === null ? undefined : moneyWithCode(l.budget, listingCurrency(l))} />
          <Row label="Size" value={formatSize(l.size)} />
          <Row label="Location zone" value={l.location} />
          <Row label="Locality" value={l.locality} />
          <Row label="City" value={[listingPlace(l), l.country_name].filter(Boolean).join(', ')} />
        </div>
        {map && (
          <a href={map} target="_blank" rel="noopener noreferrer" className="link link-primary mt-2 inline-block">
            View on map
          </a>
        )}
      </Section>
    </div>
  )
}

/** 'Suspended by an admin' for an admin's suspension (issue 29), 'Off the network: reported' (issue 35), else the status's label. */
const statusText = (l: Listing) => (isModerated(l) ? MODERATION_TEXT.badge : isReportedOff(l) ? REPORTED_TEXT.badge : STATUS_LABELS[l.status])

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0 rounded-box border border-base-300 p-3 sm:p-4">
      <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-base-content/60">{title}</h4>
      {children}
    </section>
  )
}

/**
 * A label and its value on one line while they fit; a long value (an entry ID, an email, a locality) wraps inside its
 * half, at the @ of an email first, and never pushes the dialog wider than the screen.
 */
function Row({ label, value, title, children }: { label: string; value: string | null | undefined; title?: string; children?: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1 text-sm">
      <span className="shrink-0 text-base-content/60">{label}</span>
      <span className="min-w-0 text-right font-medium [overflow-wrap:anywhere]" title={title}>
        {value ? (children ?? value) : '—'}
      </span>
    </div>
  )
}
