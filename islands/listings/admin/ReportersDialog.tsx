import { useQuery } from '@tanstack/react-query'
import { LoadError } from '../../shared/LoadError'
import { Modal } from '../../shared/Modal'
import { fetchJson } from '../../shared/query'
import { DataTable, TableEmpty, TableLoading, tableColumns, type TableLook } from '../../shared/table/DataTable'
import { profileUrl } from '../BrokerRecord'

/** GET /api/listing-reports/reporters: a broker whose reports were answered "still available" (issue 35). */
type Reporter = { user_id: number; full_name: string; reports: number; answered_still_available: number }

export const REPORTERS_TEXT = {
  button: 'Reports answered “still available”',
  title: 'Reports answered “still available”',
  intro:
    'Brokers whose reports of listings were answered “still available” by the listings’ brokers, most first. A broker whose reports keep being answered so may be reporting listings that are not wrong.',
  empty: 'No report has been answered “still available” yet.',
  failed: 'Failed to load the reporters',
} as const

const column = tableColumns<Reporter>()
const COLUMNS = [
  column.accessor('full_name', {
    header: 'Broker',
    cell: ({ row }) => (
      <a className="link link-primary inline-flex min-h-11 items-center [overflow-wrap:anywhere]" href={profileUrl(row.original.user_id)}>
        {row.original.full_name || `Broker ${row.original.user_id}`}
      </a>
    ),
  }),
  column.accessor('answered_still_available', { header: 'Answered “still available”', cell: ({ getValue }) => <span data-still-available-count>{getValue()}</span> }),
  column.accessor('reports', { header: 'Reports in all', cell: ({ getValue }) => getValue() }),
  column.display({
    id: 'share',
    header: 'Share',
    cell: ({ row }) => `${Math.round((100 * row.original.answered_still_available) / Math.max(1, row.original.reports))}%`,
  }),
]
const LOOK: TableLook<Reporter> = {
  box: '@container',
  scroll: 'overflow-x-auto',
  table: 'table @max-[36rem]:block',
  thead: '@max-[36rem]:sr-only',
  tbody: '@max-[36rem]:block',
  th: 'whitespace-nowrap',
  tr: () => '@max-[36rem]:grid @max-[36rem]:grid-cols-2 @max-[36rem]:gap-x-4 @max-[36rem]:gap-y-1 @max-[36rem]:border-b @max-[36rem]:border-base-content/5 @max-[36rem]:py-3',
  td: (id) => (id === 'full_name' ? '@max-[36rem]:col-span-2 @max-[36rem]:p-0' : '@max-[36rem]:p-0 @max-[36rem]:before:block @max-[36rem]:before:text-xs @max-[36rem]:before:text-base-content/70 @max-[36rem]:before:content-[attr(data-label)]'),
  labelCells: true,
}

/**
 * For the admins of a city (or the master admin): the brokers whose reports keep being answered "still available"
 * (issue 35), with how many of their reports were and how many they sent. Read when opened.
 */
export function ReportersDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title={REPORTERS_TEXT.title} size="lg" onClose={onClose}>
      <Reporters />
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}

function Reporters() {
  const query = useQuery({ queryKey: ['listing-reports', 'reporters'], queryFn: () => fetchJson<Reporter[]>('/api/listing-reports/reporters') })
  return (
    <div className="space-y-3" data-reporters>
      <p className="text-sm text-base-content/70">{REPORTERS_TEXT.intro}</p>
      {query.isError ? (
        <LoadError title={REPORTERS_TEXT.failed} onRetry={() => void query.refetch()} heading="h3" />
      ) : !query.data ? (
        <TableLoading label="Loading reporters" />
      ) : (
        <DataTable
          data={query.data}
          columns={COLUMNS}
          getRowId={(r) => String(r.user_id)}
          label="Brokers whose reports were answered still available"
          empty={<TableEmpty title="No reporters" text={REPORTERS_TEXT.empty} heading="h3" />}
          look={LOOK}
          rowData={(r) => ({ 'data-reporter': r.full_name })}
        />
      )}
    </div>
  )
}
