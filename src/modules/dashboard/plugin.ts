import type { AppContext } from '../../platform/context'
import { dashboardRoutes } from './index'

/** The dashboard's own figures: an admin's welcome, a broker's "N new since your last visit"; and the user menu's sign-out. */
export const dashboardFeature = (ctx: AppContext) => ({ plugin: dashboardRoutes(ctx) })
