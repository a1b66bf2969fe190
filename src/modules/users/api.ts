import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail, fileAnswer } from '../../shared/schema'
import { ActivationBody, CreateUserBody, PendingApprovals, RejectQuery, UpdateUserBody, User, UserIdParams, UserList, UserListQuery } from './model'
import { getUser, listPending, listUsers } from './store/read'
import { approveUser, createUser, readIdCard, rejectUser, setUserActive, updateUser } from './service'
import type { PendingEvents } from './events'
import { pendingStream } from './stream'
import { dropEmptyFormFields } from '../../platform/http/form-data'
import { streamCaller } from '../../platform/http/sse'

const tags = ['Users']
const errors = { 401: Detail, 403: Detail, 404: Detail, 409: Detail }

/** People: lists, approvals, creation, edits, activation and identity documents (SPEC section 7 "Users"). */
export const usersApi = (ctx: AppContext, pending: PendingEvents) => {
  const { db } = ctx
  const describe = (id: number, actor: Parameters<typeof getUser>[1]) => getUser(db, actor, id)
  return new Elysia({ name: 'users-api', prefix: '/api/users' })
    .use(authGuard(ctx))
    .get('/', ({ query, user }) => listUsers(db, user, query), {
      permission: 'read:user:city',
      query: UserListQuery,
      response: { 200: UserList, ...errors },
      detail: {
        tags,
        summary: 'List users, newest first',
        description: 'A master admin sees everyone; a module admin only the brokers of their own city, whatever the filters say.',
      },
    })
    .get('/pending/approvals', ({ user }) => listPending(db, user), {
      permission: 'read:user:city',
      response: { 200: PendingApprovals, ...errors },
      detail: { tags, summary: 'Registrations waiting for approval in your scope, oldest first' },
    })
    .get('/pending/stream', ({ user, headers, cookie, request, server }) => pendingStream(ctx, pending, streamCaller(user, headers, cookie), request, server), {
      permission: 'read:user:city',
      detail: {
        tags,
        summary: 'Live count of pending registrations (server-sent events)',
        description:
          '`text/event-stream`: an event `pending` with `{"total": N}` on connect and whenever a registration in your scope is created, approved or rejected. When the session ends (sign-out anywhere, deactivation, password reset, expiry) a last `session_ended` event `{}` is sent and the stream closes within a second; a change of your city or role closes it without one (connect again).',
        responses: { 200: { description: 'The event stream; it stays open', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
      },
    })
    .get('/:id', ({ params, user }) => getUser(db, user, params.id), {
      permission: 'read:user:own',
      params: UserIdParams,
      response: { 200: User, ...errors },
      detail: { tags, summary: 'One user', description: 'Admins within their scope; a broker only themself.' },
    })
    .post(
      '/',
      async ({ body, user, set }) => {
        const created = await createUser(ctx, user, body)
        set.status = 201
        return describe(created.id, user)
      },
      {
        permission: 'manage:user:city',
        transform: dropEmptyFormFields,
        body: CreateUserBody,
        type: 'multipart/form-data',
        response: { 201: User, 413: Detail, 422: t.Any(), ...errors },
        detail: {
          tags,
          summary: 'Add a broker or a module admin (approved and active)',
          description:
            'Multipart. A module admin adds brokers only, always in their own city. `id_card_document`: JPEG, PNG or PDF judged by its bytes, at most 10 MB (413 `file too large`, 422 `file type not allowed`). 409 `email already registered` / `id card number already registered`.',
        },
      },
    )
    .patch('/:id', async ({ params, body, user }) => (await updateUser(ctx, user, params.id, body), describe(params.id, user)), {
      permission: 'manage:user:city',
      params: UserIdParams,
      body: UpdateUserBody,
      response: { 200: User, 422: t.Any(), ...errors },
      detail: { tags, summary: 'Edit name, phone, ID card number, or (master admin) city' },
    })
    .patch(
      '/:id/activation',
      async ({ params, body, user }) => (await setUserActive(ctx, user, params.id, body.is_active, body.reason), describe(params.id, user)),
      {
        permission: 'manage:user:city',
        params: UserIdParams,
        body: ActivationBody,
        response: { 200: User, 422: t.Any(), ...errors },
        detail: {
          tags,
          summary: 'Activate or deactivate a user',
          description: 'Deactivation ends all of their sessions at once. Nobody deactivates themself or the last active master admin.',
        },
      },
    )
    .get(
      '/:id/id-card',
      async ({ params, user }) => {
        const { file, type, filename } = await readIdCard(ctx, user, params.id)
        // A file on SQLite, the documents table's row on PostgreSQL: either way a Blob, sent with its length.
        const body = await file.read()
        if (!body) return new Response(JSON.stringify({ detail: 'The ID card document file is missing' }), { status: 404, headers: { 'content-type': 'application/json' } })
        return new Response(body, {
          headers: {
            'content-type': type,
            'content-disposition': `attachment; filename="${filename}"`,
            'x-content-type-options': 'nosniff',
            'cache-control': 'no-store',
          },
        })
      },
      {
        permission: 'read:user:city',
        params: UserIdParams,
        detail: {
          tags,
          summary: "A user's identity document (download)",
          description: 'Each view is written to the audit trail. 404 when the user has no document.',
          responses: fileAnswer('The document, as an attachment, in the type it was stored as', 'image/jpeg', 'image/png', 'application/pdf'),
        },
      },
    )
    .post('/:id/approve', async ({ params, user }) => (await approveUser(ctx, user, params.id), describe(params.id, user)), {
      permission: 'manage:user:city',
      params: UserIdParams,
      response: { 200: User, ...errors },
      detail: {
        tags,
        summary: 'Approve a registration',
        description: 'PENDING or REJECTED → APPROVED and active (a rejected user can be approved later); the user is told by mail. 409 when already approved.',
      },
    })
    .post('/:id/reject', async ({ params, query, user }) => (await rejectUser(ctx, user, params.id, query.reason), describe(params.id, user)), {
      permission: 'manage:user:city',
      params: UserIdParams,
      query: RejectQuery,
      response: { 200: User, ...errors },
      detail: {
        tags,
        summary: 'Reject a registration',
        description: 'PENDING → REJECTED and inactive, the reason kept; the user is told by mail. 409 when not pending.',
      },
    })
}
