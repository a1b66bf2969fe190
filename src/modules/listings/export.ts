import type { AppContext } from '../../platform/context'
import { TooMany } from '../../platform/errors'
import { POST_TYPE_LABELS } from '../../shared/constants'
import { calendarDate } from '../../shared/dates'
import type { Listing, ListingQuery } from './model'
import { listingBatches, type Viewer } from './store/read'
import { XLSX_CONTENT_TYPE, xlsxStream, type XlsxColumn } from './xlsx'

// The table's columns (SPEC section 2), with numbers and dates typed as such; status and city added for admins' sheets.
const COLUMNS: XlsxColumn<Listing>[] = [
  { header: 'Entry ID', type: 'string', width: 18, value: (l) => l.entry_id },
  { header: 'Type', type: 'string', width: 13, value: (l) => POST_TYPE_LABELS[l.post_type] },
  { header: 'Date', type: 'date', width: 12, value: (l) => new Date(`${l.date}T00:00:00Z`) },
  { header: 'Contact', type: 'string', width: 22, value: (l) => l.contact_value },
  { header: 'Contact Name', type: 'string', width: 20, value: (l) => l.contact_name },
  { header: 'Sale/Rent', type: 'string', width: 10, value: (l) => l.sale_or_rent },
  { header: 'Property Type', type: 'string', width: 16, value: (l) => l.property_type },
  { header: 'Budget', type: 'number', width: 14, value: (l) => l.budget },
  { header: 'Size (sq ft)', type: 'number', width: 12, value: (l) => l.size },
  { header: 'Location Zone', type: 'string', width: 13, value: (l) => l.location },
  { header: 'Locality', type: 'string', width: 20, value: (l) => l.locality },
  { header: 'Broker', type: 'string', width: 20, value: (l) => l.owner_name },
  { header: 'Reference', type: 'string', width: 16, value: (l) => l.reference },
  { header: 'Details', type: 'string', width: 60, value: (l) => l.details },
  { header: 'Status', type: 'string', width: 11, value: (l) => l.status },
  { header: 'City', type: 'string', width: 16, value: (l) => l.city_name },
]

/** Exports share the one thread with every other request; two at a time keeps the others quick. */
const MAX_CONCURRENT = 2
let running = 0

/**
 * The filtered list, every matching row, as a streamed .xlsx: rows are read from the database in batches only as
 * the client downloads, so memory stays flat and other requests are served between batches.
 */
export function exportListings(ctx: AppContext, viewer: Viewer, query: ListingQuery): Response {
  if (running >= MAX_CONCURRENT) throw new TooMany('Another export is being prepared. Please try again in a few seconds.', 5)
  running++
  const { page: _p, per_page: _pp, ...filters } = query
  let released = false
  const release = () => {
    if (!released) running--
    released = true
  }
  const sheet = xlsxStream(listingBatches(ctx.db, viewer, filters), COLUMNS, { sheetName: 'Listings' })
  // Counted until the last byte leaves or the client goes away.
  const reader = sheet.getReader()
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read()
        if (done) {
          release()
          controller.close()
        } else controller.enqueue(value)
      } catch (e) {
        release()
        controller.error(e)
      }
    },
    cancel(reason) {
      release()
      return reader.cancel(reason)
    },
  })
  const filename = `listings-${calendarDate(Date.now(), ctx.config.timeZone)}.xlsx`
  return new Response(stream, {
    headers: { 'content-type': XLSX_CONTENT_TYPE, 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' },
  })
}
