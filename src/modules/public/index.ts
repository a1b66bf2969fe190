import { Elysia } from 'elysia'

const page = { detail: { hide: true } }
const views = () => import('./views')

/** The public marketing site (SPEC section 2 "Public routes"), rendered by ./views, loaded on the first page request. */
export const publicPages = new Elysia({ name: 'public-pages' })
  .get('/', async () => (await views()).landingPage(), page)
  .get('/about', async () => (await views()).aboutPage(), page)
