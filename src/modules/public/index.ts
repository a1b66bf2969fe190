import { Elysia } from 'elysia'
import { renderPage } from '../../pages/render'
import { AboutPage } from './about'
import { LandingPage } from './page'
import { createElement } from 'react'

const page = { detail: { hide: true } }

/** The public marketing site (SPEC section 2 "Public routes"). */
export const publicPages = new Elysia({ name: 'public-pages' })
  .get('/', () => renderPage(createElement(LandingPage), { title: 'Brokernet' }), page)
  .get('/about', () => renderPage(createElement(AboutPage), { title: 'About' }), page)
