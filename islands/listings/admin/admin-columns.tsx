// The admin grid's 14 columns and Expires: the broker dashboard's set, with the status under the entry ID (admins see every
// status).
import type { Listing } from '../../../src/modules/listings/model'
import { MatchCount } from '../../matches/MatchCount'
import { HotTag } from '../HotTag'
import { CoverThumb } from '../photos/CoverThumb'
import { STATUS_LABELS, statusBadgeClass } from '../listing-format'
import { ModerationTags } from '../moderation-format'
import { BROKER_COLUMNS, CARD_FIELDS, listingColumn, useListingTable, type ListingColumnDef } from '../listing-columns'

function EntryWithStatus({ listing }: { listing: Listing }) {
  const env = useListingTable()
  return (
    <div className="flex flex-col items-start gap-1">
      <CoverThumb listing={listing} own={false} />
      <span className="font-mono text-xs font-semibold whitespace-nowrap">{listing.entry_id}</span>
      <span className={`badge badge-xs whitespace-nowrap ${statusBadgeClass(listing.status)}`}>{STATUS_LABELS[listing.status]}</span>
      <ModerationTags listing={listing} />
      <HotTag listing={listing} />
      <MatchCount listing={listing} counts={env.matchCounts} onOpen={env.onShowMatches} />
    </div>
  )
}

const entryId = listingColumn.accessor('entry_id', { header: 'Entry ID', cell: ({ row }) => <EntryWithStatus listing={row.original} /> })

// The broker dashboard's columns in the same order, the entry ID column the admin's own (SPEC: the same set).
export const ADMIN_COLUMNS: ListingColumnDef[] = [entryId, ...BROKER_COLUMNS.slice(1)]

/** The admin's card: the status is under the entry ID already. */
export const ADMIN_CARD_FIELDS = CARD_FIELDS.filter((f) => f !== 'status')
