import { Elysia, t } from 'elysia'
import type { AppContext } from '../../platform/context'
import { endSession } from '../../platform/http/auth'
import { elysiaCredentials } from '../../platform/http/credentials'
import { safeRedirectPath } from './redirect'

const page = { detail: { hide: true } }

/** Sign-in, registration and password pages (each ./<screen>.page.tsx, loaded on its first request), and sign-out. */
export const authPages = (ctx: AppContext) =>
  new Elysia({ name: 'auth-pages' })
    .get('/login', async ({ query }) => (await import('./login.page')).view(safeRedirectPath(query.redirect)), {
      ...page,
      query: t.Object({ redirect: t.Optional(t.String()) }),
    })
    .get('/register', async () => (await import('./register.page')).view(ctx), page)
    .get('/forgot-password', async () => (await import('./forgot-password.page')).view(), page)
    .get(
      '/reset-password',
      async ({ query, redirect }) => {
        // SPEC: with no token the user is sent to /forgot-password.
        if (!query.token) return redirect('/forgot-password', 302)
        return (await import('./reset-password.page')).view(query.token)
      },
      { ...page, query: t.Object({ token: t.Optional(t.String()) }) },
    )
    // A form post from the shell's user menu: works without script, and always lands on /login (SPEC "Sign out").
    .post(
      '/logout',
      async ({ cookie, headers, request, redirect }) => {
        await endSession(ctx, request, elysiaCredentials(headers, cookie))
        return redirect('/login', 303)
      },
      page,
    )
