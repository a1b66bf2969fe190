import type { AppContext } from '../../platform/context'
import { dashboardApi } from './api'

/** The dashboard's own figures: an admin's welcome, a broker's "N new since your last visit" (the page is the listings'). */
export const dashboardFeature = (ctx: AppContext) => ({ plugin: dashboardApi(ctx) })
