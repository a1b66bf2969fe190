import { Elysia, t } from 'elysia'
import { createElement } from 'react'
import type { AppContext } from '../../http/context'
import { renderPage } from '../../pages/render'
import { listCountries } from '../geography/service'
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage } from './page'
import { safeRedirectPath } from './redirect'

const page = { detail: { hide: true } }

/** Sign-in, registration and password pages. */
export const authPages = (ctx: AppContext) =>
  new Elysia({ name: 'auth-pages' })
  .get(
    '/login',
    ({ query }) => renderPage(createElement(LoginPage, { redirectTo: safeRedirectPath(query.redirect) }), { title: 'Login' }),
    { ...page, query: t.Object({ redirect: t.Optional(t.String()) }) },
  )
  .get(
    '/register',
    // Countries are read per request, so the first view's select is complete and current.
    () => renderPage(createElement(RegisterPage, { countries: listCountries(ctx.db).map(({ id, name }) => ({ id, name })) }), { title: 'Register' }),
    page,
  )
  .get('/forgot-password', () => renderPage(createElement(ForgotPasswordPage), { title: 'Forgot password' }), page)
  .get(
    '/reset-password',
    ({ query, redirect }) => {
      // SPEC: with no token the user is sent to /forgot-password.
      if (!query.token) return redirect('/forgot-password', 302)
      return renderPage(createElement(ResetPasswordPage, { token: query.token }), { title: 'Reset password' })
    },
    { ...page, query: t.Object({ token: t.Optional(t.String()) }) },
  )
