import { Elysia } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail } from '../../shared/schema'
import { recordAudit } from '../audit/service'
import { BackupStarted, SystemStatus } from './model'
import { systemStatus } from './service'

const tags = ['System']

/** The installation itself, for the master admin: health, backups, mail and caches (issue 19). */
export const systemApi = (ctx: AppContext) =>
  new Elysia({ name: 'system-api', prefix: '/api/system' })
    .use(authGuard(ctx))
    .get('/', () => systemStatus(ctx), {
      permission: 'read:system:any',
      response: { 200: SystemStatus, 401: Detail, 403: Detail },
      detail: { tags, summary: 'Version, uptime, database, backups, mail outbox, event streams and caches' },
    })
    .post(
      '/backups',
      async ({ user, set }) => {
        const started = await ctx.backups.start('MANUAL', user.id)
        if ('busy' in started) {
          set.status = 409
          return { detail: `A backup is already running (started ${new Date(started.busy.startedAt).toISOString()})` }
        }
        await recordAudit(ctx.db, { actor: { id: user.id, fullName: user.fullName }, action: 'backup.create', entityType: 'backup', entityId: started.id })
        set.status = 202
        return started
      },
      {
        permission: 'manage:system:any',
        response: { 202: BackupStarted, 401: Detail, 403: Detail, 409: Detail },
        detail: {
          tags,
          summary: 'Backup now: starts a backup into BACKUP_DIR',
          description:
            'Answers at once with the run; the backup goes on in a child process (GET /api/system shows it RUNNING, then OK or FAILED). 409 while another backup runs.',
        },
      },
    )
