import type { AppContext } from '../../platform/context'
import { metricsRoutes } from './api'

/** GET /metrics (docs/decisions/021-metrics.md): what the platform and the features count, every process together. */
export const metricsFeature = (ctx: AppContext) => ({ plugin: metricsRoutes(ctx) })
