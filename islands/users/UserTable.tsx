import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table'
import { createContext, use } from 'react'
import type { User } from '../../src/modules/users/model'
import { formatJoined, initialOf, KIND_TEXT, type ManagedRole } from './user-format'

/** What a row's buttons do; the island provides them, so the column definitions can stay constant. */
export type RowActions = {
  viewIdCard: (user: User) => void
  edit: (user: User) => void
  toggleActive: (user: User) => void
}
const ActionsContext = createContext<RowActions | null>(null)

// No client-side sorting, filtering or paging: the server does all three, so the table needs only the core.
const features = tableFeatures({})
const column = createColumnHelper<typeof features, User>()

const person = (title: string) =>
  column.accessor('full_name', {
    header: title,
    cell: ({ row }) => {
      const u = row.original
      return (
        <div className="flex items-center gap-3">
          <div className="avatar avatar-placeholder">
            <div className="w-10 rounded-full bg-primary/10 text-primary">
              <span className="font-semibold">{initialOf(u.full_name)}</span>
            </div>
          </div>
          <div className="min-w-0">
            <p className="font-medium">{u.full_name}</p>
            <p className="text-xs text-base-content/60">{u.id_card_number ? `ID: ${u.id_card_number}` : 'No ID card'}</p>
          </div>
        </div>
      )
    },
  })

const contact = column.accessor('email', {
  header: 'Contact',
  cell: ({ row }) => (
    <div className="min-w-0">
      <p className="break-all">{row.original.email}</p>
      <p className="text-sm text-base-content/60">{row.original.phone ?? '—'}</p>
    </div>
  ),
})

const location = (title: string, emptyText: string | null) =>
  column.accessor('city_name', {
    header: title,
    cell: ({ row }) => {
      const u = row.original
      if (!u.city_name) return emptyText ? <span className="font-medium text-orange-600">{emptyText}</span> : <span className="text-base-content/50">—</span>
      return (
        <div>
          <p>{u.city_name}</p>
          {u.state_name && <p className="text-sm text-base-content/60">{u.state_name}</p>}
        </div>
      )
    },
  })

const status = column.accessor('is_active', {
  header: 'Status',
  cell: ({ row }) => {
    const u = row.original
    return (
      <div className="flex flex-wrap gap-1">
        <span className={`badge badge-sm ${u.is_active ? 'badge-success' : 'badge-ghost'}`}>{u.is_active ? 'Active' : 'Inactive'}</span>
        {u.registration_status === 'PENDING' && <span className="badge badge-sm badge-warning">Pending</span>}
        {u.registration_status === 'REJECTED' && <span className="badge badge-sm badge-error">Rejected</span>}
      </div>
    )
  },
})

const joined = column.accessor('created_at', { header: 'Joined', cell: ({ getValue }) => <span className="whitespace-nowrap">{formatJoined(getValue())}</span> })

const actions = column.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <Actions user={row.original} /> })

const COLUMNS = {
  BROKER: column.columns([person('Broker'), contact, location('Location', null), status, joined, actions]),
  MODULE_ADMIN: column.columns([person('Module Admin'), contact, location('Assigned City', 'No city assigned'), status, joined, actions]),
}

function Actions({ user }: { user: User }) {
  const act = use(ActionsContext)!
  // Only approved accounts are switched on and off here; registrations are decided under User Approvals.
  const canToggle = user.registration_status === 'APPROVED'
  return (
    <div className="flex flex-wrap gap-1">
      {(user.id_card_number || user.id_card_document_url) && (
        <button type="button" className="btn btn-ghost btn-xs" aria-label={`View ID card of ${user.full_name}`} onClick={() => act.viewIdCard(user)}>
          View ID Card
        </button>
      )}
      <button type="button" className="btn btn-ghost btn-xs" aria-label={`Edit ${user.full_name}`} onClick={() => act.edit(user)}>
        Edit
      </button>
      {canToggle && (
        <button
          type="button"
          className={`btn btn-ghost btn-xs ${user.is_active ? 'text-error' : 'text-info'}`}
          aria-label={`${user.is_active ? 'Deactivate' : 'Activate'} ${user.full_name}`}
          onClick={() => act.toggleActive(user)}
        >
          {user.is_active ? 'Deactivate' : 'Activate'}
        </button>
      )}
      {user.registration_status === 'PENDING' && (
        <a className="btn btn-ghost btn-xs" href="/dashboard/approvals">
          Review
        </a>
      )}
    </div>
  )
}

type Props = { kind: ManagedRole; users: User[]; actions: RowActions; busy?: boolean }

/** The people of one page, as the server sent them, with their row actions. */
export function UserTable({ kind, users, actions: rowActions, busy }: Props) {
  const table = useTable({ features, columns: COLUMNS[kind], data: users, getRowId: (u) => String(u.id) })
  return (
    <ActionsContext value={rowActions}>
      <div className={`overflow-x-auto transition-opacity ${busy ? 'opacity-60' : ''}`}>
        <table className="table" aria-label={KIND_TEXT[kind].many} aria-busy={busy || undefined}>
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
              <tr key={row.id} className="hover:bg-base-200/50" data-user-email={row.original.email}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ActionsContext>
  )
}
