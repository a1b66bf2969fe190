import { createElement } from 'react'
import { Icon, type IconName } from '../../../islands/shared/icons'
import { renderPage } from '../../platform/pages/render'
import { MARKETING_STATS, SUPPORT } from '../../shared/site'
import { PublicLayout } from './layout'

const FEATURES = [
  { icon: 'shield', title: 'Verified Brokers', text: 'Every member registers with an identity card and is approved by an administrator before joining.' },
  { icon: 'building', title: 'Organised by City', text: 'City administrators look after their own brokers and listings, so the network stays local and relevant.' },
  { icon: 'clipboard', title: 'Requirements & Availabilities', text: 'Post what your clients need and what you have on offer, for sale or rent, and find the match.' },
  { icon: 'search', title: 'Powerful Search', text: 'Filter by type, zone, budget, city and date, or search by entry ID, broker or details.' },
  { icon: 'chart', title: 'Analytics & Reports', text: 'Administrators follow listing trends, top brokers and activity, and export reports.' },
  { icon: 'download', title: 'Excel Export', text: 'Take the listings you filtered to your desk as a spreadsheet in one click.' },
] as const satisfies readonly { icon: IconName; title: string; text: string }[]

export function LandingPage() {
  return (
    <PublicLayout current="/">
      <section className="bg-gradient-to-br from-primary to-secondary text-primary-content">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:py-28">
          <h1 className="text-4xl font-extrabold leading-tight sm:text-5xl">The Broker Network for Property Professionals</h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg opacity-90">
            Connect with verified brokers in your city and beyond. Share client requirements, publish availabilities, and close deals
            faster.
          </p>
          <div className="mt-10 flex flex-col justify-center gap-4 sm:flex-row">
            <a href="/register" className="btn btn-lg bg-base-100 text-primary hover:bg-base-200 border-0">
              Join the Network
            </a>
            <a href="/about" className="btn btn-lg btn-outline border-primary-content text-primary-content hover:bg-primary-content hover:text-primary">
              Learn More
            </a>
          </div>
        </div>
      </section>

      <section aria-label="Network in numbers" className="border-b border-base-300 bg-base-100">
        <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-6 px-4 py-12 text-center md:grid-cols-4">
          {MARKETING_STATS.map((s) => (
            <div key={s.label} className="flex flex-col-reverse">
              <dt className="text-sm text-base-content/70">{s.label}</dt>
              <dd className="text-4xl font-extrabold text-primary">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="bg-base-200">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 className="text-center text-3xl font-bold">Everything a broker network needs</h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-base-content/70">
            Built for brokers who work together, and for the administrators who keep the network trustworthy.
          </p>
          <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((f) => (
              <article key={f.title} className="card bg-base-100 shadow-sm">
                <div className="card-body">
                  <div className="flex h-12 w-12 items-center justify-center rounded-xl bg-primary/10 text-primary">
                    <Icon name={f.icon} className="h-7 w-7" />
                  </div>
                  <h3 className="card-title">{f.title}</h3>
                  <p className="text-base-content/70">{f.text}</p>
                </div>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="bg-base-100">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center">
          <h2 className="text-3xl font-bold">Ready to grow your business?</h2>
          <p className="mt-3 text-base-content/70">
            Register with your identity card today. Approval typically takes 1-2 business days. Questions? Write to{' '}
            <a className="link link-primary" href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a>.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-4 sm:flex-row">
            <a href="/register" className="btn btn-primary btn-lg">Register Now</a>
            <a href="/login" className="btn btn-outline btn-lg">Sign In</a>
          </div>
        </div>
      </section>
    </PublicLayout>
  )
}

export const view = () => renderPage(createElement(LandingPage), { title: 'Brokernet' })
