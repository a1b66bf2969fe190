import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail, NoContent, text } from '../../shared/schema'
import { addToCircle, createCircle, listCircles, removeCircle, removeFromCircle } from './circles'

const tags = ['Circles']
const errors = { 401: Detail, 403: Detail, 404: Detail, 409: Detail }
const own = 'Only your own circles: anyone else’s is a 404.'

const Circle = t.Object({
  id: t.Integer(),
  name: t.String(),
  created_at: t.String({ format: 'date-time' }),
  members: t.Array(t.Object({ id: t.Integer(), full_name: t.String() })),
})
const CircleParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
const MemberParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), user_id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })

/**
 * A broker's circles (issue 35): named groups of brokers, each a visibility a listing may have (CIRCLE). Brokers only:
 * admins see every listing of their scope anyway.
 */
export const circlesApi = (ctx: AppContext) =>
  new Elysia({ name: 'circles-api' }).use(authGuard(ctx)).group('/api/circles', (app) =>
    app
      .get('/', async ({ user }) => listCircles(ctx, user), {
        permission: 'read:circle:own',
        response: { 200: t.Object({ circles: t.Array(Circle) }), ...errors },
        detail: { tags, summary: 'Your circles, each with its members', description: own },
      })
      .post('/', async ({ body, user, set }) => ((set.status = 201), createCircle(ctx, user, body.name)), {
        permission: 'manage:circle:own',
        body: t.Object({ name: text({ min: 1, max: 60, messages: { required: 'Name the circle', minLength: 'Name the circle', maxLength: 'A circle’s name is at most 60 characters' } }) }),
        response: { 201: Circle, 422: t.Any(), ...errors },
        detail: { tags, summary: 'Make a circle', description: 'Its name is unique among your circles (409 otherwise). Audited.' },
      })
      .delete('/:id', async ({ params, user, set }) => (await removeCircle(ctx, user, params.id), (set.status = 204), undefined), {
        permission: 'manage:circle:own',
        params: CircleParams,
        response: { 204: NoContent('Deleted'), ...errors },
        detail: { tags, summary: 'Delete a circle', description: `The listings shown to it are then yours only, until you give them another visibility. ${own} Audited.` },
      })
      .post('/:id/members', async ({ params, body, user }) => addToCircle(ctx, user, params.id, body), {
        permission: 'manage:circle:own',
        params: CircleParams,
        body: t.Object({
          user_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A broker’s id (a listing’s owner_user_id)' })),
          email: t.Optional(t.String({ maxLength: 254, description: 'Or their email' })),
        }),
        response: { 200: Circle, 422: t.Any(), ...errors },
        detail: { tags, summary: 'Add a broker to a circle', description: `An active broker, by id or email (404 when there is none). ${own} Audited.` },
      })
      .delete('/:id/members/:user_id', async ({ params, user }) => removeFromCircle(ctx, user, params.id, params.user_id), {
        permission: 'manage:circle:own',
        params: MemberParams,
        response: { 200: Circle, ...errors },
        detail: { tags, summary: 'Take a broker out of a circle', description: `They no longer see the listings shown to it. ${own} Audited.` },
      }),
  )
