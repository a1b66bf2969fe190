import { createContext, use, type ReactNode } from 'react'
import type { User } from '../../src/modules/users/model'
import { Email } from '../shared/Email'
import { DataTable, tableColumns, type TableLook } from '../shared/table/DataTable'
import { formatJoined, initialOf, KIND_TEXT, type ManagedRole } from './user-format'

/** What a row's buttons do; the island provides them, so the column definitions can stay constant. */
export type RowActions = {
  viewIdCard: (user: User) => void
  edit: (user: User) => void
  toggleActive: (user: User) => void
  /** Issue 29: reset a lost second factor; absent for anyone who may not (all but master admins). */
  resetSecondFactor?: (user: User) => void
}
const ActionsContext = createContext<RowActions | null>(null)

// No client-side sorting, filtering or paging: the server does all three.
const column = tableColumns<User>()

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
            <p className="font-medium break-words">{u.full_name}</p>
            <p className="text-xs whitespace-nowrap text-base-content/60">{u.id_card_number ? `ID: ${u.id_card_number}` : 'No ID card'}</p>
          </div>
        </div>
      )
    },
  })

const contact = column.accessor('email', {
  header: 'Contact',
  cell: ({ row }) => (
    <div className="min-w-0">
      <p className="break-words">
        <Email address={row.original.email} />
      </p>
      <p className="text-sm whitespace-nowrap text-base-content/60">{row.original.phone ?? '—'}</p>
    </div>
  ),
})

const location = (title: string, emptyText: string | null) =>
  column.accessor('city_name', {
    header: title,
    cell: ({ row }) => {
      const u = row.original
      if (!u.city_name) return emptyText ? <span className="font-medium text-warning">{emptyText}</span> : <span className="text-base-content/70">—</span>
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
      <div className="flex flex-wrap items-start gap-1 @min-[60rem]:flex-col">
        <span className={`badge badge-sm ${u.is_active ? 'badge-success' : 'badge-ghost'}`}>{u.is_active ? 'Active' : 'Inactive'}</span>
        {u.registration_status === 'PENDING' && <span className="badge badge-sm badge-warning">Pending</span>}
        {u.registration_status === 'REJECTED' && <span className="badge badge-sm badge-error">Rejected</span>}
        {u.has_second_factor && <span className="badge badge-sm badge-info whitespace-nowrap">Two-factor on</span>}
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

/** On a card (a phone, mostly) the buttons are finger-sized. */
const TAP = '@max-[60rem]:h-9 @max-[60rem]:px-3'

function Actions({ user }: { user: User }) {
  const act = use(ActionsContext)!
  // Only approved accounts are switched on and off here; registrations are decided under User Approvals.
  const canToggle = user.registration_status === 'APPROVED'
  // One line, always: on a phone's card the three buttons fit the width; the table keeps their column wide enough.
  return (
    <div className="flex flex-nowrap gap-1 whitespace-nowrap @max-[60rem]:-ml-2">
      {(user.id_card_number || user.id_card_document_url) && (
        <button type="button" className={`btn btn-ghost btn-xs ${TAP}`} aria-label={`View ID card of ${user.full_name}`} onClick={() => act.viewIdCard(user)}>
          View ID Card
        </button>
      )}
      <button type="button" className={`btn btn-ghost btn-xs ${TAP}`} aria-label={`Edit ${user.full_name}`} onClick={() => act.edit(user)}>
        Edit
      </button>
      {canToggle && (
        <button
          type="button"
          className={`btn btn-ghost btn-xs ${TAP} ${user.is_active ? 'text-error' : 'text-info'}`}
          aria-label={`${user.is_active ? 'Deactivate' : 'Activate'} ${user.full_name}`}
          onClick={() => act.toggleActive(user)}
        >
          {user.is_active ? 'Deactivate' : 'Activate'}
        </button>
      )}
      {user.has_second_factor && act.resetSecondFactor && (
        <button
          type="button"
          className={`btn btn-ghost btn-xs ${TAP}`}
          aria-label={`Reset 2FA (two-factor sign-in) of ${user.full_name}`}
          onClick={() => act.resetSecondFactor!(user)}
        >
          Reset 2FA
        </button>
      )}
      {user.registration_status === 'PENDING' && (
        <a className={`btn btn-ghost btn-xs ${TAP}`} href="/dashboard/approvals">
          Review
        </a>
      )}
    </div>
  )
}

type Props = { kind: ManagedRole; users: User[]; actions: RowActions; busy?: boolean; empty?: ReactNode }

/*
  One table, two layouts by the room it has (a container query, so the sidebar and the phone both count): from
  60rem a table (its narrowest is about 56rem: names wrap between words, emails after the @, actions never);
  below, each row is a card with labelled fields, so nothing is scrolled sideways and every row's actions are on
  screen. The scroll box is a last resort for data wider than that (a 40-letter word in a name).
*/
const LOOK: TableLook<User> = {
  box: '@container',
  scroll: 'overflow-x-auto',
  table: 'table @max-[60rem]:block',
  thead: '@max-[60rem]:sr-only',
  tbody: '@max-[60rem]:block',
  th: 'whitespace-nowrap @min-[60rem]:px-3',
  tr: () =>
    'hover:bg-base-200/50 @max-[60rem]:grid @max-[60rem]:grid-cols-2 @min-[36rem]:@max-[60rem]:grid-cols-6 @max-[60rem]:gap-x-4 @max-[60rem]:gap-y-3 @max-[60rem]:border-b @max-[60rem]:border-base-content/5 @max-[60rem]:px-4 @max-[60rem]:py-4 @max-[60rem]:last:border-b-0',
  td: (id) => `@min-[60rem]:px-3 ${CARD_CELL[id] ?? CARD_CELL.default}`,
  labelCells: true,
}
const rowId = (u: User) => String(u.id)
const rowData = (u: User) => ({ 'data-user-email': u.email })

/** The people of one page, as the server sent them, with their row actions. */
export function UserTable({ kind, users, actions: rowActions, busy, empty }: Props) {
  return (
    <ActionsContext value={rowActions}>
      <DataTable data={users} columns={COLUMNS[kind]} getRowId={rowId} label={KIND_TEXT[kind].many} busy={busy} empty={empty} look={LOOK} rowData={rowData} />
    </ActionsContext>
  )
}

/**
 * How each cell sits in the card layout: on a phone the person across the top, contact across, location and status
 * side by side, joined, then the actions across the bottom; from 36rem person and contact share the first line and
 * location, status and joined the second. Fields other than the person are labelled with their column's
 * header (data-label), which the table shows in its head instead.
 */
const LABELLED = "@max-[60rem]:block @max-[60rem]:border-0 @max-[60rem]:p-0 @max-[60rem]:min-w-0 @max-[60rem]:before:mb-0.5 @max-[60rem]:before:block @max-[60rem]:before:text-xs @max-[60rem]:before:font-medium @max-[60rem]:before:text-base-content/60 @max-[60rem]:before:content-[attr(data-label)]"
const CARD_CELL: Record<string, string> = {
  full_name: '@max-[60rem]:col-span-2 @min-[36rem]:col-span-3 @max-[60rem]:block @max-[60rem]:border-0 @max-[60rem]:p-0',
  email: `${LABELLED} @max-[60rem]:col-span-2 @min-[36rem]:col-span-3`,
  actions: '@max-[60rem]:col-span-2 @min-[36rem]:col-span-6 @max-[60rem]:block @max-[60rem]:border-0 @max-[60rem]:p-0',
  default: `${LABELLED} @min-[36rem]:col-span-2`,
}
