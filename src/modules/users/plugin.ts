import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { can } from '../../platform/policy/permissions'
import { PendingEvents } from './events'
import { usersApi } from './api'
import { usersPages } from './pages'
import { countPending } from './store/read'
import { followPending } from './stream'

/** People (SPEC section 7 "Users"): lists, approvals of registrations, edits, activation, identity documents. */
export function usersFeature(ctx: AppContext) {
  const pending = new PendingEvents(ctx.feed)
  ctx.features.stream({
    event: 'pending',
    description:
      '`pending` `{"total": N}` for master and module admins: the registrations waiting for approval in your scope, on connect and whenever one is created, approved or rejected (as `GET /api/users/pending/stream`).',
    topic: pending,
    follow: (user, send, end) => (can(user.role, 'read:user:city') ? followPending(ctx, pending, user, send, end) : null),
  })
  ctx.features.badge('/dashboard/approvals', async (user) => ({
    name: 'PendingBadge',
    props: { initial: can(user.role, 'read:user:city') ? await countPending(ctx.db, viewerOf(user)) : 0 },
  }))
  return { pending, plugin: new Elysia({ name: 'users' }).use(usersApi(ctx, pending)).use(usersPages(ctx)) }
}
