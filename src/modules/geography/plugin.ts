import type { AppContext } from '../../platform/context'
import { geographyRoutes } from './index'

/** Countries, states and cities, each city's match tolerance and listing expiry; the Geographic page. */
export const geographyFeature = (ctx: AppContext) => ({ plugin: geographyRoutes(ctx) })
