import { createElement } from 'react'
import type { AppContext } from '../../http/context'
import { viewerOf } from '../../http/page-auth'
import { formRules } from '../../pages/form-rules'
import type { ShellUser } from '../dashboard/layout'
import { listCountries } from '../geography/service'
import { ApprovalsPage } from './approvals-page'
import { UserManagementPage } from './management-page'
import { CreateUserBody, UpdateUserBody } from './model'
import { listPending, listUsers } from './read'

// Page views, imported by the page routes on their first request (docs/decisions/004-lazy-start.md).

const FIRST_PAGE = { page: 1, per_page: 50 }

export const approvalsView = (ctx: AppContext, user: ShellUser) => createElement(ApprovalsPage, { user, initial: listPending(ctx.db, viewerOf(user)) })

export const managementView = (ctx: AppContext, kind: 'BROKER' | 'MODULE_ADMIN', user: ShellUser) =>
  createElement(UserManagementPage, {
    user,
    kind,
    initial: listUsers(ctx.db, viewerOf(user), { ...FIRST_PAGE, role: kind }),
    countries: listCountries(ctx.db).map(({ id, name }) => ({ id, name })),
    rules: { create: formRules(CreateUserBody), update: formRules(UpdateUserBody) },
  })
