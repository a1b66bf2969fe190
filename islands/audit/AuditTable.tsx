import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table'
import { createContext, use } from 'react'
import type { AuditEvent } from '../../src/modules/audit/model'
import { actionLabel, actionTone, actorLabel, entityLabel, formatTime } from './audit-format'
import { useDisplayTimeZone } from './useDisplayTimeZone'

/** What the table needs from the island: the View button's action. Kept out of the columns so they stay constant. */
const ViewContext = createContext<((event: AuditEvent) => void) | null>(null)

// The server filters, orders and pages the trail: the table needs only the core.
const features = tableFeatures({})
const column = createColumnHelper<typeof features, AuditEvent>()

export function EventTime({ iso }: { iso: string }) {
  const timeZone = useDisplayTimeZone()
  return (
    <time dateTime={iso} title={iso} className="whitespace-nowrap">
      {formatTime(iso, timeZone)}
    </time>
  )
}

export function ActionBadge({ action }: { action: string }) {
  return (
    <span className={`badge badge-sm whitespace-nowrap ${actionTone(action)}`} title={action} data-action={action}>
      {actionLabel(action)}
    </span>
  )
}

const COLUMNS = column.columns([
  column.accessor('created_at', { header: 'Time', cell: ({ getValue }) => <EventTime iso={getValue()} /> }),
  column.accessor('actor_name', {
    header: 'Actor',
    cell: ({ row }) => (
      <span className={row.original.actor_name ? 'font-medium' : 'text-base-content/60'} title={row.original.actor_user_id ? `User #${row.original.actor_user_id}` : undefined}>
        {actorLabel(row.original)}
      </span>
    ),
  }),
  column.accessor('action', { header: 'Action', cell: ({ getValue }) => <ActionBadge action={getValue()} /> }),
  column.accessor('entity_type', { header: 'Entity', cell: ({ row }) => <span className="whitespace-nowrap">{entityLabel(row.original)}</span> }),
  column.accessor('summary', {
    header: 'Summary',
    cell: ({ getValue }) => (
      <p className="line-clamp-2 max-w-xl break-words text-sm" title={getValue()}>
        {getValue()}
      </p>
    ),
  }),
  column.display({ id: 'view', header: () => <span className="sr-only">Details</span>, cell: ({ row }) => <ViewButton event={row.original} /> }),
])

function ViewButton({ event }: { event: AuditEvent }) {
  const view = use(ViewContext)!
  return (
    <button type="button" className="btn btn-ghost btn-xs" aria-label={`View event ${event.id}`} onClick={() => view(event)}>
      View
    </button>
  )
}

type Props = { events: AuditEvent[]; onView: (event: AuditEvent) => void; busy?: boolean }

/** One page of the trail, newest first, as the server sent it. Read-only: the only action is View. */
export function AuditTable({ events, onView, busy }: Props) {
  const table = useTable({ features, columns: COLUMNS, data: events, getRowId: (e) => String(e.id) })
  return (
    <ViewContext value={onView}>
      <div className={`overflow-x-auto transition-opacity ${busy ? 'opacity-60' : ''}`}>
        <table className="table" aria-label="Audit events" aria-busy={busy || undefined}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id}>{header.isPlaceholder ? null : <table.FlexRender header={header} />}</th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="hover:bg-base-200/50" data-audit-id={row.original.id}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className="align-top">
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ViewContext>
  )
}
