import type { Queryable } from '../../../db/sql'
import { getListing } from '../listings/store/read'
import type { PushAlert, RaisePush } from '../notifications/kinds'

// Co-broking's push alerts (issue 35 on issue 33's): each request, answer and deal step reaches the other broker's
// devices, raised in the transaction of the step it tells of, as every alert is. What a push says is a title, one line
// and the screen to open: the listing's entry ID and the step, never a name, a contact, a price, a message's text or a
// revealed value (those are read in the deal itself, by its two brokers). The user's "Co-broking" switch and quiet
// hours apply (the notifications feature's `raise`).

/** Where a push opens: the deals screen for a request, the deal's thread for a deal. */
export const DEALS_SCREEN = '/dashboard/deals'
export const dealScreen = (dealId: number) => `${DEALS_SCREEN}/${dealId}`

/**
 * The entry ID of a listing as the broker a push tells sees it: null when they no longer do (the push then says "a
 * listing"), so an alert never names a listing its reader may not see.
 */
export async function entryAs(db: Queryable, brokerId: number, listingId: number | null): Promise<string | null> {
  if (listingId === null) return null
  const listing = await getListing(db, { id: Number(brokerId), role: 'BROKER', cityId: null }, Number(listingId)).catch(() => null)
  return listing?.entry_id ?? null
}

/** What a step says. `entry` is the listing's entry ID (null when it is gone). */
const TEXT = {
  request: (entry: string) => ['Co-broke request', `A broker has a client for your ${entry}`],
  countered: (entry: string) => ['Counter-offer', `Your co-broke request for ${entry} was countered with another split`],
  accepted: (entry: string) => ['Co-broke accepted', `Your co-broke for ${entry} was accepted: the split is locked and a deal is open`],
  declined: (entry: string) => ['Co-broke declined', `Your co-broke request for ${entry} was declined`],
  counterAccepted: (entry: string) => ['Counter-offer accepted', `Your counter-offer for ${entry} was accepted: a deal is open`],
  counterDeclined: (entry: string) => ['Counter-offer declined', `Your counter-offer for ${entry} was declined`],
  message: (entry: string) => ['New message in a deal', `A new message in your deal for ${entry}`],
  stage: (entry: string, stage: string) => ['Deal moved', `Your deal for ${entry} moved to ${stage}`],
  reveal: (entry: string) => ['Details revealed', `The other broker revealed details in your deal for ${entry}`],
  confirmed: (entry: string, outcome: string) => ['Deal outcome confirmed', `The other broker confirmed ${outcome} for your deal for ${entry}: confirm yours`],
  closed: (entry: string, outcome: string) => ['Deal closed', `Your deal for ${entry} is closed ${outcome}`],
  disputed: (entry: string) => ['Deal disputed', `Your deal for ${entry} is disputed: the outcomes differ; the admins of its city see it`],
  visit: (entry: string, when: string) => ['Site visit today', `The site visit of your deal for ${entry} is today, ${when}`],
} satisfies Record<string, (entry: string, extra: string) => [string, string]>

export type DealStep = keyof typeof TEXT

/** One step to tell one broker of: about a request (before a deal) or a deal. */
export type DealAlert = { to: number; step: DealStep; entry: string | null; extra?: string } & ({ request: number } | { deal: number })

/**
 * Raises co-broking alerts inside the step's transaction; answers the brokers it reaches (sent or held to quiet
 * hours' end). Without the notifications feature (an app composed without it) nobody is reached.
 */
export type DealPush = (tx: Queryable, alerts: readonly DealAlert[]) => Promise<ReadonlySet<number>>

export const dealPush =
  (raise: RaisePush | undefined): DealPush =>
  async (tx, alerts) => {
    if (!raise || alerts.length === 0) return new Set()
    return raise(
      tx,
      'deal',
      alerts.map((a): PushAlert => {
        const [title, body] = TEXT[a.step](a.entry ?? 'a listing', a.extra ?? '')
        return 'deal' in a
          ? { userId: a.to, title, body, url: dealScreen(a.deal), subject: { deal: a.deal } }
          : { userId: a.to, title, body, url: DEALS_SCREEN, subject: { cobroke_request: a.request } }
      }),
    )
  }
