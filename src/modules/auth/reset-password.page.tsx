import { createElement } from 'react'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { renderPage } from '../../platform/pages/render'
import { AuthCard } from './auth-card'
import { ResetPasswordBody } from './model'

export function ResetPasswordPage({ token }: { token: string }) {
  return (
    <AuthCard current="/reset-password" title="Reset your password" subtitle="Choose a new password for your account.">
      <Island name="ResetPasswordForm" props={{ token, rules: formRules(ResetPasswordBody) }} />
    </AuthCard>
  )
}

export const view = (token: string) => renderPage(createElement(ResetPasswordPage, { token }), { title: 'Reset password' })
