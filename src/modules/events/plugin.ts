import type { AppContext } from '../../platform/context'
import { eventsApi } from './api'

/**
 * The signed-in user's event stream (GET /api/events): the events the other features registered. Composed after them
 * (src/app.ts), so its document lists them all.
 */
export const eventsFeature = (ctx: AppContext) => ({ plugin: eventsApi(ctx) })
