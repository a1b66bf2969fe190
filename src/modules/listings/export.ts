import type { AppContext } from '../../http/context'
import { calendarDate } from '../../shared/dates'
import type { ListingQuery } from './model'
import { listingBatches, type Viewer } from './read'

/** Placeholder until the streaming writer lands: refuses plainly rather than pretending. */
export function exportListings(ctx: AppContext, _viewer: Viewer, _query: ListingQuery): Response {
  void ctx
  return Response.json({ detail: `Export is not available yet (${calendarDate(Date.now(), 'UTC')})` }, { status: 501 })
}
void listingBatches
