import { createElement } from 'react'
import { renderPage } from '../../platform/pages/render'
import { AboutPage } from './about'
import { LandingPage } from './page'

// Page renderers, imported by the page routes on their first request (docs/decisions/004-lazy-start.md).

export const landingPage = () => renderPage(createElement(LandingPage), { title: 'Brokernet' })
export const aboutPage = () => renderPage(createElement(AboutPage), { title: 'About' })
