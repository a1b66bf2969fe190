import type { ReactNode } from 'react'
import { formRules } from '../../pages/form-rules'
import { Island } from '../../pages/island'
import { PublicLayout } from '../public/layout'
import { LoginBody } from './model'

function AuthCard({ current, title, subtitle, children }: { current: string; title: string; subtitle: string; children: ReactNode }) {
  return (
    <PublicLayout current={current}>
      <div className="flex justify-center bg-base-200 px-4 py-12 sm:py-20">
        <div className="card w-full max-w-md bg-base-100 shadow-xl">
          <div className="card-body">
            <h1 className="text-center text-2xl font-bold">{title}</h1>
            <p className="mb-4 text-center text-base-content/70">{subtitle}</p>
            {children}
          </div>
        </div>
      </div>
    </PublicLayout>
  )
}

export function LoginPage({ redirectTo }: { redirectTo: string }) {
  return (
    <AuthCard current="/login" title="Sign in to Brokernet" subtitle="Welcome back. Sign in to reach your dashboard.">
      <Island name="LoginForm" props={{ rules: formRules(LoginBody), redirectTo }} />
    </AuthCard>
  )
}

/** Routes that the accounts work fills in; until then they say plainly what is coming and where to go. */
export function PendingAuthPage({ current, title, text }: { current: string; title: string; text: string }) {
  return (
    <AuthCard current={current} title={title} subtitle={text}>
      <div className="flex flex-col gap-2">
        <a className="btn btn-primary" href="/login">Go to Login</a>
        <a className="btn btn-ghost" href="/">Back to Home</a>
      </div>
    </AuthCard>
  )
}
