import { createElement } from 'react'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { renderPage } from '../../platform/pages/render'
import { AuthCard } from './auth-card'
import { LoginBody } from './model'

export function LoginPage({ redirectTo }: { redirectTo: string }) {
  return (
    <AuthCard current="/login" title="Sign in to Brokernet" subtitle="Welcome back. Sign in to reach your dashboard.">
      <Island name="LoginForm" props={{ rules: formRules(LoginBody), redirectTo }} />
    </AuthCard>
  )
}

export const view = (redirectTo: string) => renderPage(createElement(LoginPage, { redirectTo }), { title: 'Login' })
