import type { ReactNode } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { formatSize, listingCurrency } from '../../src/shared/currency'
import { formatMoneyShort, moneyWithCode } from '../../src/shared/money'
import { ContactButtons } from '../shared/ContactButtons'
import { Email } from '../shared/Email'
import { Icon } from '../shared/icons'
import { formatListingDate, postTypeBadgeClass, postTypeLabel, saleOrRentLabel } from '../listings/listing-format'
import { telHref, whatsappHref } from './match-format'
import { CoverThumb } from '../listings/photos/CoverThumb'

type Props = {
  /** The other listing: the one that matches. */
  listing: Listing
  score: number
  reasons: string[]
  /** Beside the entry ID, e.g. a 'New' badge. */
  badge?: ReactNode
  /** After the contact buttons, e.g. Mark seen. */
  actions?: ReactNode
  /** On a line of its own under them, away from a finger reaching for those: Not interested (issue 32). */
  aside?: ReactNode
}

/**
 * One match, as the inbox and a listing's Matches tab show it: the other listing's key facts, its score and the reasons
 * in words, and its broker with a way to reach them at once (Call, WhatsApp, or mail for an email contact).
 */
export function MatchCard({ listing: l, score, reasons, badge, actions, aside }: Props) {
  const currency = listingCurrency(l)
  const place = [l.locality, l.location].filter(Boolean).join(', ')
  return (
    <article className="min-w-0 rounded-box border border-base-300 bg-base-100 p-3 sm:p-4" data-match={l.entry_id} aria-label={`Match ${l.entry_id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-1.5">
          <CoverThumb listing={l} own={false} />
          <span className="font-mono text-sm font-semibold [overflow-wrap:anywhere]">{l.entry_id}</span>
          <span className={`badge badge-sm whitespace-nowrap ${postTypeBadgeClass(l.post_type)}`}>{postTypeLabel(l.post_type)}</span>
          <span className="badge badge-sm badge-outline whitespace-nowrap">{saleOrRentLabel(l.sale_or_rent)}</span>
          {badge}
        </div>
        <span className="badge badge-primary whitespace-nowrap font-semibold" data-score={score} title="Score out of 100: budget, size, locality and freshness">
          {`Score ${score}`}
        </span>
      </div>

      <p className="mt-2 flex flex-wrap items-baseline gap-x-2 text-sm">
        <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{l.property_type}</span>
        {l.size !== null && <span className="text-base-content/70">{formatSize(l.size)}</span>}
        {l.budget !== null && (
          <span className="font-medium" title={moneyWithCode(l.budget, currency)} data-currency={currency.code}>
            {formatMoneyShort(l.budget, currency)}
          </span>
        )}
      </p>
      <p className="text-xs text-base-content/70 [overflow-wrap:anywhere]">{[place, `Posted ${formatListingDate(l.date)}`].filter(Boolean).join(' · ')}</p>

      <ul className="mt-2 space-y-0.5 text-sm" aria-label="Why it matches" data-reasons>
        {reasons.map((r) => (
          <li key={r} className="flex items-start gap-1.5">
            <Icon name="check" className="mt-0.5 h-4 w-4 shrink-0 text-success" />
            <span className="min-w-0 [overflow-wrap:anywhere]">{r}</span>
          </li>
        ))}
      </ul>

      <div className="mt-3 flex flex-wrap items-end justify-between gap-2 border-t border-base-300 pt-3">
        <div className="min-w-0 text-sm">
          <p className="[overflow-wrap:anywhere]">
            <span className="text-base-content/70">Broker </span>
            <span className="font-medium" data-broker>
              {l.owner_name}
            </span>
          </p>
          <p className="text-xs text-base-content/70 [overflow-wrap:anywhere]" data-contact>
            {l.contact_name ? `${l.contact_name} · ` : ''}
            {l.contact_value.includes('@') ? <Email address={l.contact_value} /> : l.contact_value}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ContactButtons listing={l} />
          {actions}
        </div>
      </div>
      {aside && <div className="mt-2 flex justify-end">{aside}</div>}
    </article>
  )
}
