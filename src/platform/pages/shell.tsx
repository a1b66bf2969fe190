import { createElement, type ReactElement, type ReactNode } from 'react'
import type { PageUser } from '../http/page-auth'
import { ROLE_LABELS } from '../../shared/constants'
import { SITE_NAME } from '../../shared/site'
import { Island } from './island'
import type { IslandElement } from './island-element'
import { navFor } from './nav'
import { can } from '../policy/permissions'
import { renderPage, type PageOptions } from './render'

// The dashboard's shell (sidebar, breadcrumbs, user menu) and the pages it frames for every feature. Loaded on the first
// page request, not at start (./dashboard-page.ts imports it; docs/decisions/004-lazy-start.md).

/** The signed-in user as the shell shows them, with the badges features put beside their navigation items (by address). */
export type ShellUser = PageUser & { badges?: Record<string, IslandElement> }

type Props = { user: ShellUser; current: string; section: string; children: ReactNode }

/** The dashboard shell: sidebar by role, breadcrumbs, user menu. The phone drawer and the menu work without script. */
export function DashboardLayout({ user, current, section, children }: Props) {
  const items = navFor(user.role)
  const place = [user.city_name, user.state_name].filter(Boolean).join(', ')
  return (
    <div className="drawer lg:drawer-open">
      <input id="dashboard-drawer" type="checkbox" className="drawer-toggle" aria-label="Toggle navigation" />
      <div className="drawer-content flex min-h-screen flex-col">
        <header className="navbar sticky top-0 z-30 border-b border-base-300 bg-base-100 px-4">
          {/* A <label> may not carry aria-label: its name is text for screen readers only. */}
          <label htmlFor="dashboard-drawer" className="btn btn-ghost btn-square lg:hidden">
            <span className="sr-only">Open navigation</span>
            <svg xmlns="http://www.w3.org/2000/svg" className="h-6 w-6" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
              <path strokeLinecap="round" strokeLinejoin="round" strokeWidth={2} d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </label>
          <nav className="breadcrumbs flex-1 text-sm" aria-label="Breadcrumb">
            <ul>
              <li>
                <a href="/dashboard">Dashboard</a>
              </li>
              {section !== 'Dashboard' && <li aria-current="page">{section}</li>}
            </ul>
          </nav>
          {/* Alerts (issue 32): the numbers of the Matches and My Listings badges, in sight on a phone too. */}
          {user.badges?.['/dashboard/matches'] && (
            <Island
              name="AlertBell"
              props={{
                initialMatches: badgeNumber(user.badges['/dashboard/matches']),
                expiringHref: items.some((i) => i.href === '/dashboard/my-listings') ? '/dashboard/my-listings?expiring=soon' : null,
              }}
            />
          )}
          {/* The group is the "User menu"; its button is named by what it shows, the user's name (on a phone, for screen readers only). */}
          <details className="dropdown dropdown-end" data-user-menu aria-label="User menu">
            <summary className="btn btn-ghost gap-2 normal-case">
              <span className="avatar avatar-placeholder" aria-hidden="true">
                <span className="w-8 rounded-full bg-primary text-primary-content">
                  <span>{user.full_name.charAt(0).toUpperCase()}</span>
                </span>
              </span>
              <span className="sr-only sm:not-sr-only">{user.full_name}</span>
            </summary>
            <div className="dropdown-content z-40 mt-2 w-72 rounded-box border border-base-300 bg-base-100 p-4 shadow-lg">
              <p className="font-semibold">{user.full_name}</p>
              <p className="text-sm text-base-content/70 break-all">{user.email}</p>
              <span className="badge badge-primary badge-sm mt-2">{ROLE_LABELS[user.role]}</span>
              {place && <p className="mt-2 text-sm text-base-content/70">{place}</p>}
              <div className="divider my-2" />
              {/* Issue 35: a broker's own page, their record as the network sees it (admins keep no such record). */}
              {can(user.role, 'manage:deal:own') && (
                <a href="/dashboard/profile" className="btn btn-ghost btn-sm w-full justify-start" data-my-profile>
                  My profile
                </a>
              )}
              <form method="post" action="/logout">
                <button type="submit" className="btn btn-ghost btn-sm w-full justify-start">
                  Sign out
                </button>
              </form>
            </div>
          </details>
        </header>
        <main className="flex-1 p-4 sm:p-6">{children}</main>
      </div>
      <div className="drawer-side z-40">
        <label htmlFor="dashboard-drawer" className="drawer-overlay">
          <span className="sr-only">Close navigation</span>
        </label>
        <aside className="min-h-full w-64 border-r border-base-300 bg-base-100">
          <a href="/" className="flex h-16 items-center gap-2 px-4 text-xl font-bold text-primary">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            {SITE_NAME}
          </a>
          <ul className="menu w-full gap-1 p-2">
            {items.map((item) => (
              <li key={item.href}>
                <a href={item.href} className={current === item.href ? 'menu-active' : undefined} aria-current={current === item.href ? 'page' : undefined}>
                  {item.label}
                  {user.badges?.[item.href] && <Island {...user.badges[item.href]!} />}
                </a>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </div>
  )
}

/** The number a badge was rendered with (its `initial` prop), 0 if it has none. */
const badgeNumber = (badge: IslandElement) => {
  const initial = (badge.props as { initial?: unknown }).initial
  return typeof initial === 'number' ? initial : 0
}

/** 'Access Denied' and the reason, inside the shell (the server also refuses the data behind the page). */
export function AccessDenied({ message, title = 'Access Denied' }: { message: string; title?: string }) {
  return (
    <div role="alert" className="card mx-auto mt-10 max-w-lg bg-base-100 shadow">
      <div className="card-body items-center text-center">
        <h1 className="card-title text-2xl text-error">{title}</h1>
        <p>{message}</p>
        <a href="/dashboard" className="btn btn-primary btn-sm mt-2">
          Back to Dashboard
        </a>
      </div>
    </div>
  )
}

/** A signed-in user whose account is inactive: no shell, a way to sign out (403). */
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

// The rendering half of dashboardPage (./dashboard-page.ts).

export const accountInactive = () => renderPage(createElement(AccountInactive), { title: 'Account Inactive', status: 403 })

/** A role the page does not allow: the page's denial inside the shell (403). */
export const deniedPage = (user: ShellUser, title: string, guard: { current: string; section: string; denied: string }) =>
  renderPage(
    createElement(DashboardLayout, { user, current: guard.current, section: guard.section, children: createElement(AccessDenied, { message: guard.denied }) }),
    { title, status: 403 },
  )

export const shellPage = (body: ReactElement, title: string, options: Omit<PageOptions, 'title'> = {}) => renderPage(body, { title, ...options })
