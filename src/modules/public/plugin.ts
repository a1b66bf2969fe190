import { publicPages } from './pages'

/** The public site (SPEC section 2 "Public routes"): the landing and about pages. */
export const publicFeature = () => ({ plugin: publicPages })
