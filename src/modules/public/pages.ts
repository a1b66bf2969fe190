import { Elysia } from 'elysia'

const page = { detail: { hide: true } }

/** The public marketing site (SPEC section 2 "Public routes"): each ./<screen>.page.tsx, loaded on its first request. */
export const publicPages = new Elysia({ name: 'public-pages' })
  .get('/', async () => (await import('./landing.page')).view(), page)
  .get('/about', async () => (await import('./about.page')).view(), page)
