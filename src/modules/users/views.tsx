import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { formRules } from '../../platform/pages/form-rules'
import type { ShellUser } from '../../platform/pages/shell'
import { listCountries } from '../geography/service'
import { ApprovalsPage } from './approvals-page'
import { UserManagementPage } from './management-page'
import { CreateUserBody, UpdateUserBody } from './model'
import { listPending, listUsers } from './read'
import { can } from '../../platform/policy/permissions'
import { secondFactorPolicy } from '../second-factor/settings'

// Page views, imported by the page routes on their first request (docs/decisions/004-lazy-start.md).

const FIRST_PAGE = { page: 1, per_page: 50 }

export const approvalsView = async (ctx: AppContext, user: ShellUser) =>
  createElement(ApprovalsPage, { user, initial: await listPending(ctx.db, viewerOf(user)) })

export const managementView = async (ctx: AppContext, kind: 'BROKER' | 'MODULE_ADMIN', user: ShellUser) => {
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
