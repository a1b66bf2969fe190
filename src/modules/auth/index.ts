import { Elysia, t } from 'elysia'
import type { AppContext } from '../../platform/context'
import { safeRedirectPath } from './redirect'

const page = { detail: { hide: true } }
const views = () => import('./views')

/** Sign-in, registration and password pages (rendered by ./views, loaded on the first page request). */
export const authPages = (ctx: AppContext) =>
  new Elysia({ name: 'auth-pages' })
  .get('/login', async ({ query }) => (await views()).loginPage(safeRedirectPath(query.redirect)), {
    ...page,
    query: t.Object({ redirect: t.Optional(t.String()) }),
  })
  .get('/register', async () => (await views()).registerPage(ctx), page)
  .get('/forgot-password', async () => (await views()).forgotPasswordPage(), page)
  .get(
    '/reset-password',
    async ({ query, redirect }) => {
      // SPEC: with no token the user is sent to /forgot-password.
      if (!query.token) return redirect('/forgot-password', 302)
      return (await views()).resetPasswordPage(query.token)
    },
    { ...page, query: t.Object({ token: t.Optional(t.String()) }) },
  )
