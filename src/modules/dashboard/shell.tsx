import { createElement, type ReactElement } from 'react'
import { renderPage } from '../../platform/pages/render'
import { AccessDenied, DashboardLayout, type ShellUser } from './layout'
import { AccountInactive } from './page'

// The rendering half of dashboardPage (./index.ts), loaded on the first page request, not at start.

export const accountInactive = () => renderPage(createElement(AccountInactive), { title: 'Account Inactive', status: 403 })

/** A role the page does not allow: the page's denial inside the shell (403). */
export const deniedPage = (user: ShellUser, title: string, guard: { current: string; section: string; denied: string }) =>
  renderPage(
    createElement(DashboardLayout, { user, current: guard.current, section: guard.section, children: createElement(AccessDenied, { message: guard.denied }) }),
    { title, status: 403 },
  )

export const shellPage = (body: ReactElement, title: string) => renderPage(body, { title })
