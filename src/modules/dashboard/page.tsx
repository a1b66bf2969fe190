import type { PageUser } from '../../http/page-auth'
import { ROLE_LABELS } from '../../shared/constants'
import { DashboardLayout } from './layout'
import { navFor } from './nav'

/** The dashboard's welcome page; the role views of later sections replace its body. */
export function DashboardHome({ user }: { user: PageUser }) {
  const sections = navFor(user.role).filter((i) => i.href !== '/dashboard')
  return (
    <DashboardLayout user={user} current="/dashboard" section="Dashboard">
      <h1 className="text-2xl font-bold">Welcome, {user.full_name}</h1>
      <p className="mt-1 text-base-content/70">
        {ROLE_LABELS[user.role]}
        {user.city_name ? ` · ${user.city_name}, ${user.state_name}` : ''}
      </p>
      {sections.length > 0 && (
        <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {sections.map((s) => (
            <a key={s.href} href={s.href} className="card bg-base-100 shadow-sm transition hover:shadow-md">
              <div className="card-body">
                <h2 className="card-title">{s.label}</h2>
              </div>
            </a>
          ))}
        </div>
      )}
    </DashboardLayout>
  )
}

export function AccountInactive() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-base-200 p-4">
      <div role="alert" className="card max-w-md bg-base-100 shadow">
        <div className="card-body text-center">
          <h1 className="card-title justify-center text-2xl">Account Inactive</h1>
          <p>Your account is currently inactive. Please contact an administrator.</p>
          <form method="post" action="/logout" className="mt-2">
            <button className="btn btn-primary btn-sm">Sign out</button>
          </form>
        </div>
      </div>
    </div>
  )
}
