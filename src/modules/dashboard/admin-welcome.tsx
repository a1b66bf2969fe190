import { ROLE_LABELS } from '../../shared/constants'
import { can } from '../../platform/policy/permissions'
import { Island } from '../../platform/pages/island'
import type { ShellUser } from '../../platform/pages/shell'
import type { AdminStats } from './service'

// SPEC section 2 "Admin listings": the welcome line and the capabilities by role.
const CAPABILITIES = {
  MASTER_ADMIN: [
    'Manage all brokers across all cities',
    'Manage module administrators',
    'View global analytics and reports',
    'Manage geographic data',
    'Access audit logs and system monitoring',
  ],
  MODULE_ADMIN: [
    'Manage brokers in the assigned city',
    'View city-scoped analytics and reports',
    'Access audit logs for the assigned city',
    'Export data for the assigned city',
  ],
} as const

const number = (n: number) => n.toLocaleString('en-US')

/** The admin home's welcome line, stat cards and capabilities (SPEC "Admin listings"), without the shell. */
export function AdminWelcome({ user, stats }: { user: ShellUser; stats: AdminStats }) {
  const isMaster = can(user.role, 'manage:listing:any')
  const cards: { label: string; value: number | string; desc?: string; key: string }[] = [
    { key: 'active_brokers', label: 'Active Brokers', value: stats.activeBrokers },
    { key: 'total_listings', label: 'Total Listings', value: stats.totalListings },
    { key: 'this_month', label: 'This Month', value: stats.thisMonth },
    isMaster
      ? { key: 'cities', label: 'Cities', value: stats.cities }
      : // A module admin's one city: its name, and its live listings (Total Listings counts every status).
        stats.city
        ? { key: 'your_city', label: 'Your City', value: stats.city.name, desc: `${number(stats.city.activeListings)} active ${stats.city.activeListings === 1 ? 'listing' : 'listings'}` }
        : { key: 'your_city', label: 'Your City', value: '—', desc: 'No city assigned' },
  ]
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold">{`Welcome back, ${user.full_name}!`}</h1>
        {user.city_name && (
          <span className="badge badge-outline" data-city-badge>
            {`${user.city_name}, ${user.state_name}`}
          </span>
        )}
      </div>
      <p className="mt-1 text-base-content/70">
        {`You have ${isMaster ? 'global' : 'city-level'} administrative access (${ROLE_LABELS[user.role]}).`}
      </p>
      <div className="stats stats-vertical mt-6 w-full bg-base-100 shadow sm:stats-horizontal">
        {cards.map((c) => (
          <div key={c.key} className="stat" data-admin-stat={c.key}>
            <div className="stat-title">{c.label}</div>
            {typeof c.value === 'number' ? (
              <div className="stat-value text-primary">{number(c.value)}</div>
            ) : (
              <div className="stat-value truncate text-2xl leading-10 text-primary sm:text-3xl" title={c.value}>
                {c.value}
              </div>
            )}
            {c.desc && <div className="stat-desc">{c.desc}</div>}
          </div>
        ))}
      </div>
      {/* Issue 30: places the city's listings use often enough, to add as its localities or dismiss. */}
      {!isMaster && stats.city && <Island name="LocalityOffers" props={{ cityName: stats.city.name }} />}
      <div className="card mt-6 bg-base-100 shadow-sm">
        <div className="card-body">
          <h2 className="card-title text-lg">What you can do</h2>
          <ul className="list-inside list-disc space-y-1 text-base-content/80">
            {CAPABILITIES[isMaster ? 'MASTER_ADMIN' : 'MODULE_ADMIN'].map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </div>
      </div>
    </>
  )
}
