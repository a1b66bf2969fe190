import { createElement } from 'react'
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { can, permissionsOf } from '../../platform/policy/permissions'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { listCountries } from '../geography/service'
import { secondFactorPolicy, type SecondFactorPolicy } from '../second-factor/settings'
import { CreateUserBody, UpdateUserBody, type UserList } from './model'
import { listUsers } from './store/read'

type Props = {
  user: ShellUser
  kind: 'BROKER' | 'MODULE_ADMIN'
  initial: UserList
  countries: { id: number; name: string }[]
  rules: { create: ObjectSchema; update: ObjectSchema }
  /** Issue 29: whether module admins must use two-factor sign-in, on the Module Admins screen of whoever may set it. */
  policy?: SecondFactorPolicy
}

const SCREEN = {
  BROKER: {
    current: '/dashboard/brokers',
    section: 'Brokers',
    title: 'Broker Management',
    lead: (city: string | null) => (city ? `Brokers of ${city}: add, edit, activate and deactivate their accounts.` : 'Brokers across all cities: add, edit, activate and deactivate their accounts.'),
  },
  MODULE_ADMIN: {
    current: '/dashboard/admins',
    section: 'Module Admins',
    title: 'Module Admin Management',
    lead: () => 'City administrators: add them, assign their city, activate and deactivate their accounts.',
  },
} as const

/** SPEC "Broker Management" / "Module Admin Management": the shell, a heading, and the UserManager island. */
export function UserManagementPage({ user, kind, initial, countries, rules, policy }: Props) {
  const screen = SCREEN[kind]
  const actor = { id: user.id, permissions: permissionsOf(user.role), city_id: user.city_id, city_name: user.city_name, state_name: user.state_name }
  return (
    <DashboardLayout user={user} current={screen.current} section={screen.section}>
      <h1 className="text-2xl font-bold">{screen.title}</h1>
      <p className="mb-6 mt-1 text-base-content/70">{screen.lead(can(user.role, 'manage:user:any') ? null : user.city_name)}</p>
      {policy && (
        <div className="mb-6">
          <Island name="SecondFactorPolicy" props={{ initial: policy }} />
        </div>
      )}
      <Island name="UserManager" props={{ kind, actor, initial, countries, rules }} />
    </DashboardLayout>
  )
}

const FIRST_PAGE = { page: 1, per_page: 50 }

/** The Brokers or Module Admins screen with its first page of people, for the page routes (./pages.ts). */
export const view = async (ctx: AppContext, kind: 'BROKER' | 'MODULE_ADMIN', user: ShellUser) => {
  const [initial, countries, policy] = await Promise.all([
    listUsers(ctx.db, viewerOf(user), { ...FIRST_PAGE, role: kind }),
    listCountries(ctx.db),
    kind === 'MODULE_ADMIN' && can(user.role, 'manage:module-admin:any') ? secondFactorPolicy(ctx.db) : undefined,
  ])
  return createElement(UserManagementPage, {
    user,
    kind,
    initial,
    policy,
    countries: countries.map(({ id, name }) => ({ id, name })),
    rules: { create: formRules(CreateUserBody), update: formRules(UpdateUserBody) },
  })
}
