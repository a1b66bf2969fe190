import { createElement } from 'react'
import { BrokerRecordList } from '../../../islands/listings/BrokerRecord'
import type { AppContext } from '../../platform/context'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { BrokerRecord } from '../deals/model'
import { brokerRecord } from '../deals/service'

type Props = { user: ShellUser; record: BrokerRecord | null; own: boolean }

/**
 * /dashboard/profile/:id (and /dashboard/profile, one's own): a broker as the network sees them, with their record
 * (issue 35): verified since, deals closed through Brokernet, how fast and how often they answer co-broke requests.
 * Read on the server, no island: nothing on it changes while it is open.
 */
export function ProfilePage({ user, record, own }: Props) {
  return (
    <DashboardLayout user={user} current="/dashboard/listings" section={own ? 'My profile' : 'Broker'}>
      <section className="card mx-auto w-full max-w-xl bg-base-100 shadow-sm" aria-labelledby="profile-name" data-profile={record?.user_id ?? 'none'}>
        <div className="card-body gap-3 p-4 sm:p-6">
          {record ? (
            <>
              <h1 id="profile-name" className="card-title text-xl [overflow-wrap:anywhere]">
                {record.full_name}
              </h1>
              <h2 className="text-xs font-semibold uppercase tracking-wide text-base-content/70">{own ? 'Your record on Brokernet' : 'Record on Brokernet'}</h2>
              <BrokerRecordList record={record} />
              <a className="btn btn-outline min-h-11" href={`/dashboard/${own ? 'my-listings' : `listings?${new URLSearchParams({ search: record.full_name })}`}`}>
                {own ? 'My listings' : 'Their listings'}
              </a>
            </>
          ) : (
            <>
              <h1 id="profile-name" className="card-title text-xl">
                {own ? 'No broker’s record' : 'Broker not found'}
              </h1>
              <p className="text-sm text-base-content/70">{own ? 'Records are kept for brokers: their deals and co-broke requests.' : 'There is no broker with this number.'}</p>
            </>
          )}
        </div>
      </section>
    </DashboardLayout>
  )
}

/** The page of broker `id` (the user's own when null); not a broker: the card says so. */
export async function view(ctx: AppContext, user: ShellUser, id: number | null) {
  const wanted = id ?? user.id
  const record = await brokerRecord(ctx, wanted).catch(() => null)
  return createElement(ProfilePage, { user, record, own: wanted === user.id })
}
