import { Elysia } from 'elysia'
import { createElement } from 'react'
import type { AppContext } from '../../http/context'
import { formRules } from '../../pages/form-rules'
import { dashboardPage } from '../dashboard'
import { AccessDenied } from '../dashboard/layout'
import { listCountries } from '../geography/service'
import { ApprovalsPage } from './approvals-page'
import { UserManagementPage } from './management-page'
import { CreateUserBody, UpdateUserBody } from './model'
import { listPending, listUsers } from './read'
import { viewerOf } from '../../http/page-auth'

const hidden = { detail: { hide: true } }
const generic = createElement(AccessDenied, { message: "You don't have permission to access this page." })
const FIRST_PAGE = { page: 1, per_page: 50 }

/** The approvals and people screens; first views complete from the server, the API refuses the same users. */
export const usersPages = (ctx: AppContext) => {
  const { db } = ctx
  const management = (kind: 'BROKER' | 'MODULE_ADMIN') => (user: Parameters<Parameters<typeof dashboardPage>[2]>[0]) =>
    createElement(UserManagementPage, {
      user,
      kind,
      initial: listUsers(db, viewerOf(user), { ...FIRST_PAGE, role: kind }),
      countries: listCountries(db).map(({ id, name }) => ({ id, name })),
      rules: { create: formRules(CreateUserBody), update: formRules(UpdateUserBody) },
    })
  return new Elysia({ name: 'users-pages' })
    .get(
      '/dashboard/approvals',
      dashboardPage(ctx, 'User Approvals', (user) => createElement(ApprovalsPage, { user, initial: listPending(db, viewerOf(user)) }), {
        roles: ['MASTER_ADMIN', 'MODULE_ADMIN'],
        current: '/dashboard/approvals',
        section: 'User Approvals',
        denied: generic,
      }),
      hidden,
    )
    .get(
      '/dashboard/brokers',
      dashboardPage(ctx, 'Brokers', management('BROKER'), { roles: ['MASTER_ADMIN', 'MODULE_ADMIN'], current: '/dashboard/brokers', section: 'Brokers', denied: generic }),
      hidden,
    )
    .get(
      '/dashboard/admins',
      dashboardPage(ctx, 'Module Admins', management('MODULE_ADMIN'), {
        roles: ['MASTER_ADMIN'],
        current: '/dashboard/admins',
        section: 'Module Admins',
        denied: createElement(AccessDenied, { message: 'Only Master Admins can manage Module Admins.' }),
      }),
      hidden,
    )
}
