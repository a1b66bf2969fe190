import { Elysia, t } from 'elysia'
import { createElement } from 'react'
import { renderPage } from '../../pages/render'
import { LoginPage, PendingAuthPage } from './page'
import { safeRedirectPath } from './redirect'

const page = { detail: { hide: true } }

/** Sign-in, registration and password pages. */
export const authPages = new Elysia({ name: 'auth-pages' })
  .get(
    '/login',
    ({ query }) => renderPage(createElement(LoginPage, { redirectTo: safeRedirectPath(query.redirect) }), { title: 'Login' }),
    { ...page, query: t.Object({ redirect: t.Optional(t.String()) }) },
  )
  .get(
    '/register',
    () =>
      renderPage(
        createElement(PendingAuthPage, {
          current: '/register',
          title: 'Create your broker account',
          text: 'Registration with your identity card opens here shortly. Approval typically takes 1-2 business days.',
        }),
        { title: 'Register' },
      ),
    page,
  )
  .get(
    '/forgot-password',
    () =>
      renderPage(
        createElement(PendingAuthPage, {
          current: '/forgot-password',
          title: 'Forgot your password?',
          text: 'Password reset by email opens here shortly. Until then, ask your administrator to help you sign in.',
        }),
        { title: 'Forgot password' },
      ),
    page,
  )
  .get(
    '/reset-password',
    ({ query, redirect }) => {
      // SPEC: with no token the user is sent to /forgot-password.
      if (!query.token) return redirect('/forgot-password', 302)
      return renderPage(
        createElement(PendingAuthPage, {
          current: '/reset-password',
          title: 'Reset your password',
          text: 'Password reset opens here shortly. Until then, ask your administrator to help you sign in.',
        }),
        { title: 'Reset password' },
      )
    },
    { ...page, query: t.Object({ token: t.Optional(t.String()) }) },
  )
