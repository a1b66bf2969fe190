import type { ReactNode } from 'react'
import { PublicLayout } from '../public/layout'

type AuthCardProps = { current: string; title: string; subtitle: string; wide?: boolean; children: ReactNode }

/**
 * The public auth pages' frame (and the renew links'): one centred card, narrow for sign-in and password forms, wider
 * for registration.
 */
export function AuthCard({ current, title, subtitle, wide = false, children }: AuthCardProps) {
  return (
    <PublicLayout current={current} fill>
      <div className="flex items-start justify-center bg-base-200 px-4 py-12 sm:py-20">
        <div className={`card w-full ${wide ? 'max-w-2xl' : 'max-w-md'} bg-base-100 shadow-xl`}>
          <div className="card-body px-5 sm:px-8">
            <h1 className="text-center text-2xl font-bold">{title}</h1>
            <p className="mb-4 text-center text-base-content/70">{subtitle}</p>
            {children}
          </div>
        </div>
      </div>
    </PublicLayout>
  )
}
