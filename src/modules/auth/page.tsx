import type { ReactNode } from 'react'
import type { GeoOption } from '../../../islands/geo/GeoSelect'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { PublicLayout } from '../public/layout'
import { ForgotPasswordBody, LoginBody, RegisterBody, ResetPasswordBody } from './model'

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

export function LoginPage({ redirectTo }: { redirectTo: string }) {
  return (
    <AuthCard current="/login" title="Sign in to Brokernet" subtitle="Welcome back. Sign in to reach your dashboard.">
      <Island name="LoginForm" props={{ rules: formRules(LoginBody), redirectTo }} />
    </AuthCard>
  )
}

export function RegisterPage({ countries }: { countries: GeoOption[] }) {
  return (
    <AuthCard
      current="/register"
      wide
      title="Create your broker account"
      subtitle="Join the verified network of real-estate brokers. An administrator reviews every registration."
    >
      <Island name="RegisterForm" props={{ rules: formRules(RegisterBody), countries }} />
    </AuthCard>
  )
}

export function ForgotPasswordPage() {
  return (
    <AuthCard current="/forgot-password" title="Forgot your password?" subtitle="Enter your email and we will send you a link to reset it.">
      <Island name="ForgotPasswordForm" props={{ rules: formRules(ForgotPasswordBody) }} />
    </AuthCard>
  )
}

export function ResetPasswordPage({ token }: { token: string }) {
  return (
    <AuthCard current="/reset-password" title="Reset your password" subtitle="Choose a new password for your account.">
      <Island name="ResetPasswordForm" props={{ token, rules: formRules(ResetPasswordBody) }} />
    </AuthCard>
  )
}
