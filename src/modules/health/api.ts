import { Elysia } from 'elysia'
import { DatabaseUnavailable, NOT_ANSWERING } from '../../../db/faults'
import type { AppContext } from '../../platform/context'
import { HealthResponse, ReadinessResponse } from './model'
import { checkHealth, checkReadiness } from './service'

/**
 * Two questions a process manager or load balancer asks (issue 29): is this process alive (`/health`: 200 while it
 * serves at all, its database's state reported), and should it be sent requests (`/health/ready`: 503 while its
 * database is away, so the balancer sends them elsewhere; restarting the process would not bring the database back).
 */
export const healthRoutes = ({ db }: AppContext) =>
  new Elysia({ name: 'health', prefix: '/api' })
    .get('/health', () => checkHealth(db), {
      response: { 200: HealthResponse },
      detail: {
        tags: ['Health'],
        summary: 'Liveness: version and database status',
        description:
          "200 whenever the process answers, even with its database away (then `status` is `degraded` and `database.ok` false): a liveness probe that restarted the process would not bring the database back. Load balancers ask `/api/health/ready`.",
        security: [],
      },
    })
    .get(
      '/health/ready',
      async () => {
        const report = await checkReadiness(db)
        // The API's 503 (src/platform/http/errors.ts): `{detail}` and Retry-After. Not logged: a balancer asks often, and
        // an outage is logged once by the data layer.
        if (!report) throw new DatabaseUnavailable(NOT_ANSWERING, { reported: true })
        return report
      },
      {
        response: { 200: ReadinessResponse },
        detail: {
          tags: ['Health'],
          summary: 'Readiness: whether to send this instance requests',
          description:
            'One read of a small table: 200 when the database answers, 503 with `Retry-After` while it is away (answered at once, without waiting for it). Point a load balancer\'s health check here.',
          security: [],
        },
      },
    )
