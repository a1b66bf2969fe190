import { createElement } from 'react'
import { renderPage } from '../../platform/pages/render'
import { SUPPORT } from '../../shared/site'
import { PublicLayout } from './layout'

const VALUES = [
  { title: 'Trust', text: 'Identities are verified before anyone posts. Every administrative action is recorded in an audit trail.' },
  { title: 'Collaboration', text: 'A requirement in one office is an availability in another. The network exists to connect them.' },
  { title: 'Locality', text: 'Property is local. Cities are run by administrators who know their market.' },
  { title: 'Ownership', text: 'Brokers own their listings: only they, and their city administrators, may change them.' },
] as const

const FEATURES = [
  'Requirements and availabilities for sale or rent, with budget, size, zone and locality',
  'Network-wide listings table with filters, search and Excel export',
  'My Listings: manage, suspend and reactivate your own posts',
  'Registration with identity-card verification and administrator approval',
  'City-level module administrators and a master administrator',
  'Analytics, top brokers and an audit trail for administrators',
] as const

export function AboutPage() {
  return (
    <PublicLayout current="/about">
      <section className="bg-base-200">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center">
          <h1 className="text-4xl font-extrabold">About Brokernet</h1>
          <p className="mt-4 text-lg text-base-content/70">A professional network of verified real-estate brokers, organised by city.</p>
        </div>
      </section>

      <section className="mx-auto max-w-4xl px-4 py-12">
        <h2 className="text-2xl font-bold">Our Mission</h2>
        <p className="mt-3 text-base-content/80">
          Brokers spend their days matching people with property. Brokernet gives them one trusted place to share what their clients
          need and what they have on offer, so that the right broker hears about the right property the same day, in their own city
          and across the network.
        </p>
      </section>

      <section className="bg-base-200">
        <div className="mx-auto max-w-4xl px-4 py-12">
          <h2 className="text-2xl font-bold">Our Values</h2>
          <div className="mt-6 grid gap-4 sm:grid-cols-2">
            {VALUES.map((v) => (
              <div key={v.title} className="card bg-base-100 shadow-sm">
                <div className="card-body">
                  <h3 className="card-title text-primary">{v.title}</h3>
                  <p className="text-base-content/70">{v.text}</p>
                </div>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-4xl px-4 py-12">
        <h2 className="text-2xl font-bold">What the platform offers</h2>
        <ul className="mt-4 space-y-2">
          {FEATURES.map((f) => (
            <li key={f} className="flex gap-3">
              <span className="text-success" aria-hidden="true">✓</span>
              <span>{f}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="bg-base-200" aria-labelledby="contact-heading">
        <div className="mx-auto max-w-4xl px-4 py-12">
          <h2 id="contact-heading" className="text-2xl font-bold">Contact Us</h2>
          <div className="card mt-6 bg-base-100 shadow-sm">
            <div className="card-body grid gap-4 sm:grid-cols-2">
              <div>
                <p className="font-semibold">Email</p>
                <a className="link link-primary" href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a>
              </div>
              <div>
                <p className="font-semibold">Phone</p>
                <a className="link link-primary" href={`tel:${SUPPORT.phone.replace(/\s/g, '')}`}>{SUPPORT.phone}</a>
              </div>
              <div>
                <p className="font-semibold">Hours</p>
                <p>{SUPPORT.hours}</p>
              </div>
              <div>
                <p className="font-semibold">Office</p>
                <p>{SUPPORT.address}</p>
              </div>
            </div>
          </div>
          <div className="mt-8 text-center">
            <a href="/register" className="btn btn-primary">Join the Network</a>
          </div>
        </div>
      </section>
    </PublicLayout>
  )
}

export const view = () => renderPage(createElement(AboutPage), { title: 'About' })
