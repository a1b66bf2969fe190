import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import type { SystemStatus } from '../../src/modules/system/model'
import { useDisplayTimeZone } from '../audit/useDisplayTimeZone'
import { ApiError } from '../shared/api'
import { LoadError } from '../shared/LoadError'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { backupWarning, counted, formatDuration, formatSize, formatTime, STATUS_BADGE, STATUS_LABEL, TRIGGER_LABEL } from './system-format'

type Props = { initial: SystemStatus }

const KEY = ['system']
/** While a backup runs the screen looks every 2 seconds; otherwise every 30. */
const POLL_RUNNING_MS = 2000
const POLL_IDLE_MS = 30_000

/**
 * The master admin's view of the installation (issue 19): what runs, how big the database is, whether it is backed
 * up (with Backup now), whether mail is stuck, and how the live parts (event streams, caches) are doing.
 */
export default function SystemScreen({ initial }: Props) {
  const timeZone = useDisplayTimeZone()
  const queryClient = useQueryClient()
  const [renderedAt] = useState(() => Date.now())
  const query = useQuery({
    queryKey: KEY,
    queryFn: () => fetchJson<SystemStatus>('/api/system'),
    initialData: initial,
    initialDataUpdatedAt: renderedAt,
    refetchInterval: (q) => (q.state.data?.backups.runs.some((r) => r.status === 'RUNNING') ? POLL_RUNNING_MS : POLL_IDLE_MS),
  })
  const backupNow = useMutation({
    mutationFn: () => sendJson<{ id: number }>('/api/system/backups', 'POST'),
    meta: { handled: true },
    onSuccess: () => {
      toast.success('Backup started')
      void queryClient.invalidateQueries({ queryKey: KEY })
    },
    onError: (error) => {
      toast.error(error instanceof ApiError && error.status === 409 ? error.message : 'The backup could not be started')
      void queryClient.invalidateQueries({ queryKey: KEY })
    },
  })

  const s = query.data
  const running = s.backups.runs.find((r) => r.status === 'RUNNING')
  const warning = backupWarning(s.backups.age_s, s.backups.every_s)
  const last = s.backups.last_good

  return (
    <div className="space-y-6" data-system-screen>
      {query.isError && <LoadError title="Could not refresh" message="The latest figures could not be loaded; showing the last ones." onRetry={() => void query.refetch()} />}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <Card title="Server">
          <Facts
            rows={[
              ['Version', s.version],
              ['Up for', formatDuration(s.uptime_s)],
              ['Processes', String(s.processes)],
            ]}
          />
        </Card>
        <Card title="Database">
          <Facts
            rows={[
              ['Backend', s.database.backend === 'sqlite' ? 'SQLite' : 'PostgreSQL'],
              ['Size', formatSize(s.database.bytes)],
              ['Where', <span className="break-all font-mono text-xs">{s.database.location}</span>],
            ]}
          />
        </Card>
        <Card title="Live">
          <Facts
            rows={[
              ['Open event streams', String(s.event_streams)],
              ['Cache hit ratio', s.cache.hit_ratio === null ? 'no lookups yet' : `${(s.cache.hit_ratio * 100).toFixed(1)} %`],
              ['Cache lookups', `${counted(s.cache.hits, 'hit', 'hits')}, ${counted(s.cache.misses, 'miss', 'misses')}`],
            ]}
          />
        </Card>
      </div>

      <section className="card bg-base-100 shadow-sm" aria-labelledby="backups-heading">
        <div className="card-body gap-4">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 id="backups-heading" className="card-title">
                Backups
              </h2>
              <p className="text-sm text-base-content/70">
                {s.backups.every ? `Every ${s.backups.every}, keeping the newest ${s.backups.keep}` : 'None scheduled (BACKUP_EVERY is not set)'} in{' '}
                <span className="break-all font-mono text-xs">{s.backups.dir}</span>
              </p>
            </div>
            <button type="button" className="btn btn-primary" onClick={() => backupNow.mutate()} disabled={Boolean(running) || backupNow.isPending}>
              {(running || backupNow.isPending) && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
              {running ? 'Backup running…' : 'Backup now'}
            </button>
          </div>
          <p data-last-backup>
            {last?.finished_at
              ? `Last backup: ${formatTime(last.finished_at, timeZone)} (${formatDuration(s.backups.age_s ?? 0)} ago), ${formatSize(last.bytes)}`
              : 'No backup has been written yet.'}
          </p>
          {warning && (
            <div role="alert" className="alert alert-warning">
              <span>{warning}</span>
            </div>
          )}
          {s.backups.runs.length > 0 && (
            <ul className="divide-y divide-base-200" aria-label="Recent backups">
              {s.backups.runs.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
                  <span className={`badge ${STATUS_BADGE[r.status]}`}>{STATUS_LABEL[r.status]}</span>
                  <span>{formatTime(r.started_at, timeZone)}</span>
                  <span className="text-base-content/70">{TRIGGER_LABEL[r.trigger]}</span>
                  {r.bytes !== null && <span className="text-base-content/70">{formatSize(r.bytes)}</span>}
                  {r.file && <span className="w-full break-all font-mono text-xs text-base-content/70">{r.file}</span>}
                  {r.error && <span className="w-full break-words text-error">{r.error}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      <section className="card bg-base-100 shadow-sm" aria-labelledby="mail-heading">
        <div className="card-body gap-3">
          <h2 id="mail-heading" className="card-title">
            Mail outbox
          </h2>
          <p data-outbox>
            {`${s.outbox.pending} waiting to be sent, ${s.outbox.failed} given up`}
          </p>
          {s.outbox.last_failures.length === 0 ? (
            <p className="text-sm text-base-content/70">No recent delivery failures.</p>
          ) : (
            <ul className="divide-y divide-base-200" aria-label="Recent delivery failures">
              {s.outbox.last_failures.map((f) => (
                <li key={f.id} className="py-2 text-sm">
                  <div className="flex flex-wrap gap-x-3">
                    <span className="font-medium">{f.subject}</span>
                    <span className="text-base-content/70">
                      {formatTime(f.created_at, timeZone)}, {counted(f.attempts, 'attempt', 'attempts')}
                      {f.status === 'FAILED' ? ', given up' : ', will be tried again'}
                    </span>
                  </div>
                  {f.error && <p className="break-words text-error">{f.error}</p>}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
    </div>
  )
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card bg-base-100 shadow-sm">
      <div className="card-body gap-2">
        <h2 className="card-title text-lg">{title}</h2>
        {children}
      </div>
    </section>
  )
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-base-content/70">{term}</dt>
          <dd className="min-w-0">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
