import type { ReactNode } from 'react'
import { PUBLIC_NAV, SITE_NAME, SUPPORT } from '../../shared/site'

function Logo() {
  return (
    <a href="/" className="flex items-center gap-2 text-xl font-bold text-primary" aria-label={`${SITE_NAME} home`}>
      <img src="/favicon.svg" alt="" width={32} height={32} className="h-8 w-8" />
      <span>{SITE_NAME}</span>
    </a>
  )
}

/** Shared header: Home, About, Login, Register; on a phone a menu that opens without script (<details>). */
export function PublicHeader({ current }: { current: string }) {
  const link = (href: string) => `${current === href ? 'text-primary font-semibold' : 'text-base-content/80'} hover:text-primary`
  return (
    <header className="sticky top-0 z-40 border-b border-base-300 bg-base-100/95 backdrop-blur">
      <nav className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4" aria-label="Main">
        <Logo />
        <div className="hidden items-center gap-6 md:flex">
          {PUBLIC_NAV.map((item) => (
            <a key={item.href} href={item.href} className={link(item.href)} aria-current={current === item.href ? 'page' : undefined}>
              {item.label}
            </a>
          ))}
          <a href="/login" className={link('/login')}>
            Login
          </a>
          <a href="/register" className="btn btn-primary btn-sm">
            Register
          </a>
        </div>
        <details className="dropdown dropdown-end md:hidden" data-mobile-menu>
          <summary className="btn btn-ghost btn-square list-none" aria-label="Toggle menu">
            <svg xmlns="http://www.w3.org/2000/svg" className="h-6 w-6" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
              <path strokeLinecap="round" strokeLinejoin="round" strokeWidth={2} d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </summary>
          <ul className="menu dropdown-content z-50 mt-2 w-56 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg">
            {PUBLIC_NAV.map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={current === item.href ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/login">Login</a>
            </li>
            <li>
              <a href="/register" className="font-semibold text-primary">
                Register
              </a>
            </li>
          </ul>
        </details>
      </nav>
    </header>
  )
}

export function PublicFooter() {
  return (
    <footer className="bg-neutral text-neutral-content">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-2 lg:grid-cols-3">
        <div>
          <p className="text-lg font-bold">{SITE_NAME}</p>
          <p className="mt-2 text-sm opacity-80">
            The verified network where real-estate brokers share requirements and availabilities, city by city.
          </p>
        </div>
        <nav aria-label="Quick links">
          <p className="font-semibold">Quick Links</p>
          <ul className="mt-2 space-y-1 text-sm opacity-90">
            <li><a className="link link-hover" href="/">Home</a></li>
            <li><a className="link link-hover" href="/about">About</a></li>
            <li><a className="link link-hover" href="/login">Login</a></li>
            <li><a className="link link-hover" href="/register">Register</a></li>
            <li><a className="link link-hover" href="/swagger">API documentation</a></li>
          </ul>
        </nav>
        <div>
          <p className="font-semibold">Support</p>
          <ul className="mt-2 space-y-1 text-sm opacity-90">
            <li>Email: <a className="link link-hover" href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a></li>
            <li>Phone: <a className="link link-hover" href={`tel:${SUPPORT.phone.replace(/\s/g, '')}`}>{SUPPORT.phone}</a></li>
            <li>{SUPPORT.hours}</li>
          </ul>
        </div>
      </div>
      <div className="border-t border-neutral-content/20 py-4 text-center text-xs opacity-70">
        © {new Date().getFullYear()} {SITE_NAME}. All rights reserved.
      </div>
    </footer>
  )
}

/**
 * Header, content, footer; the page is at least the window's height (dvh: a phone's own toolbars counted), so the
 * footer ends at the bottom of the window on a short page. `fill`: the content's one child stretches over the room
 * left (the auth pages' grey backdrop), instead of leaving a white band above the footer.
 */
export function PublicLayout({ current, fill = false, children }: { current: string; fill?: boolean; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-base-100">
      <PublicHeader current={current} />
      <main className={fill ? 'flex flex-1 flex-col *:flex-1' : 'flex-1'}>{children}</main>
      <PublicFooter />
    </div>
  )
}
