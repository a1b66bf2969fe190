import { createElement } from 'react'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { renderPage } from '../../platform/pages/render'
import { AuthCard } from './auth-card'
import { ForgotPasswordBody } from './model'

export function ForgotPasswordPage() {
  return (
    <AuthCard current="/forgot-password" title="Forgot your password?" subtitle="Enter your email and we will send you a link to reset it.">
      <Island name="ForgotPasswordForm" props={{ rules: formRules(ForgotPasswordBody) }} />
    </AuthCard>
  )
}

export const view = () => renderPage(createElement(ForgotPasswordPage), { title: 'Forgot password' })
