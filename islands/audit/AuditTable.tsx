import { createContext, use, type ReactNode } from 'react'
import type { AuditEvent } from '../../src/modules/audit/model'
import { DataTable, tableColumns, type TableLook } from '../shared/table/DataTable'
import { actionLabel, actionTone, actorLabel, entityShown, formatTime, summaryInWords } from './audit-format'
import { useDisplayTimeZone } from './useDisplayTimeZone'

/** What the table needs from the island: the View button's action. Kept out of the columns so they stay constant. */
const ViewContext = createContext<((event: AuditEvent) => void) | null>(null)

// The server filters, orders and pages the trail.
const column = tableColumns<AuditEvent>()

export function EventTime({ iso }: { iso: string }) {
  const timeZone = useDisplayTimeZone()
  return (
    <time dateTime={iso} title={iso} className="whitespace-nowrap">
      {formatTime(iso, timeZone)}
    </time>
  )
}

/** What changed, in words and the reader's time zone (the raw summary, as exported, on hover). */
function Summary({ event }: { event: AuditEvent }) {
  const timeZone = useDisplayTimeZone()
  return (
    <p className="line-clamp-2 max-w-xl break-words text-sm" title={event.summary}>
      {summaryInWords(event, timeZone)}
    </p>
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
  column.accessor('entity_type', { header: 'Entity', cell: ({ row }) => <span className="whitespace-nowrap">{entityShown(row.original)}</span> }),
  column.accessor('summary', { header: 'Summary', cell: ({ row }) => <Summary event={row.original} /> }),
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

type Props = { events: AuditEvent[]; onView: (event: AuditEvent) => void; busy?: boolean; empty?: ReactNode }

/** A table at every width, scrolling sideways in its box when the screen is narrower than it. */
const LOOK: TableLook<AuditEvent> = { scroll: 'overflow-x-auto', table: 'table', tr: () => 'hover:bg-base-200/50', td: () => 'align-top' }
const rowId = (e: AuditEvent) => String(e.id)
const rowData = (e: AuditEvent) => ({ 'data-audit-id': e.id })

/** One page of the trail, newest first, as the server sent it. Read-only: the only action is View. */
export function AuditTable({ events, onView, busy, empty }: Props) {
  return (
    <ViewContext value={onView}>
      <DataTable data={events} columns={COLUMNS} getRowId={rowId} label="Audit events" busy={busy} empty={empty} look={LOOK} rowData={rowData} />
    </ViewContext>
  )
}
