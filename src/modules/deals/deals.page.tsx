import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { NotFound } from '../../platform/errors'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { can } from '../../shared/permissions'
import { getListing } from '../listings/store/read'
import type { CobrokeRequest, Deal, DealWithThread } from './model'
import { getDeal, listDeals, listRequests, type Party } from './service'

const partyOf = (user: ShellUser): Party => ({ id: user.id, role: user.role, cityId: user.city_id, fullName: user.full_name })

export type DealsPageProps = { user: ShellUser; requests: CobrokeRequest[]; deals: Deal[] }

/** /dashboard/deals (issue 35): the DealsBoard island, its lists complete in the server's HTML. */
export function DealsPage({ user, requests, deals }: DealsPageProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/deals" section="Deals">
      <Island name="DealsBoard" props={{ viewerId: user.id, canAct: can(user.role, 'manage:deal:own'), initialRequests: requests, initialDeals: deals }} />
    </DashboardLayout>
  )
}

export const view = async (ctx: AppContext, user: ShellUser) => {
  const party = partyOf(user)
  return createElement(DealsPage, { user, requests: await listRequests(ctx, party), deals: await listDeals(ctx, party) })
}

export type DealPageProps = { user: ShellUser; deal: DealWithThread | null; entries: { listing: string | null; requester: string | null } }

/** /dashboard/deals/:id (issue 35): one deal's thread, stage, reveals and close (the DealThread island). */
export function DealPage({ user, deal, entries }: DealPageProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/deals" section="Deals">
      {deal ? (
        <Island name="DealThread" props={{ viewerId: user.id, canAct: can(user.role, 'manage:deal:own'), initial: deal, entries }} />
      ) : (
        <div className="card bg-base-100 shadow-sm" data-deal-missing>
          <div className="card-body items-center text-center">
            <h1 className="card-title">Deal not found</h1>
            <p className="text-base-content/70">It is not one of yours, or it does not exist.</p>
            <a className="btn btn-primary h-11 min-h-11" href="/dashboard/deals">
              All deals
            </a>
          </div>
        </div>
      )}
    </DashboardLayout>
  )
}

export const threadView = async (ctx: AppContext, user: ShellUser, id: number) => {
  const party = partyOf(user)
  const deal = await getDeal(ctx, party, id).catch((e) => {
    if (e instanceof NotFound) return null
    throw e
  })
  // The listings' entry IDs as this viewer may see them (gone or hidden: none).
  const entry = async (listingId: number | null) => (listingId === null ? null : ((await getListing(ctx.db, party, listingId).catch(() => null))?.entry_id ?? null))
  const entries = deal ? { listing: await entry(deal.listing_id), requester: await entry(deal.requester_listing_id) } : { listing: null, requester: null }
  return createElement(DealPage, { user, deal, entries })
}
