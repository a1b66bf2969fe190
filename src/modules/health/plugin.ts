import type { AppContext } from '../../platform/context'
import { healthRoutes } from './api'

/** Liveness and readiness (GET /api/health, /api/health/ready): what load balancers and process managers ask. */
export const healthFeature = (ctx: AppContext) => ({ plugin: healthRoutes(ctx) })
