import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { geographyApi } from './api'
import { geographyPages } from './pages'

/** Countries, states and cities, each city's match tolerance and listing expiry; the Geographic page. */
export const geographyFeature = (ctx: AppContext) => ({ plugin: new Elysia({ name: 'geography' }).use(geographyPages(ctx)).use(geographyApi(ctx)) })
