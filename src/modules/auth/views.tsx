import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { renderPage } from '../../platform/pages/render'
import { listCountries } from '../geography/service'
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage } from './page'

// Page renderers, imported by the page routes on their first request (docs/decisions/004-lazy-start.md).

export const loginPage = (redirectTo: string) => renderPage(createElement(LoginPage, { redirectTo }), { title: 'Login' })

// Countries are read per request, so the first view's select is complete and current.
export const registerPage = async (ctx: AppContext) =>
  renderPage(createElement(RegisterPage, { countries: (await listCountries(ctx.db)).map(({ id, name }) => ({ id, name })) }), { title: 'Register' })

export const forgotPasswordPage = () => renderPage(createElement(ForgotPasswordPage), { title: 'Forgot password' })

export const resetPasswordPage = (token: string) => renderPage(createElement(ResetPasswordPage, { token }), { title: 'Reset password' })
