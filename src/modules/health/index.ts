import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/http/context'
import { HealthResponse } from './model'
import { checkHealth } from './service'

export const healthRoutes = ({ db }: AppContext) =>
  new Elysia({ name: 'health', prefix: '/api' }).get(
    '/health',
    async ({ set }) => {
      const report = await checkHealth(db)
      if (report.status !== 'ok') set.status = 503
      return report
    },
    {
      response: { 200: HealthResponse, 503: HealthResponse },
      detail: { tags: ['Health'], summary: 'Version and database status', security: [] },
    },
  )
