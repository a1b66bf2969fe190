import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { json } from '../../platform/http/json'
import { ErrorDetail as Detail, NoContent } from '../../shared/schema'
import { CreateSavedSearchBody, NEW_COUNT_CAP, SAVED_SEARCH_LIMIT, SavedSearch, SavedSearchIdParams, SavedSearchList, UpdateSavedSearchBody } from './model'
import { createSavedSearch, deleteSavedSearch, listSavedSearches, markSeen, updateSavedSearch } from './service'

const tags = ['Saved searches']
const errors = { 401: Detail, 403: Detail, 404: Detail }
const own = 'Only your own: anyone else’s is a 404.'

/**
 * Saved searches (issue 17): a user's named listing filters, each with how many listings are new in it since it was
 * last opened, and an optional alert. Every signed-in user keeps their own; nobody sees another's.
 */
export const savedSearchesApi = (ctx: AppContext) =>
  new Elysia({ name: 'saved-searches-api' }).use(authGuard(ctx)).group('/api/saved-searches', (app) =>
    app
      .get('/', async ({ user }) => json(await listSavedSearches(ctx, user)), {
        permission: 'read:saved-search:own',
        response: { 200: SavedSearchList, ...errors },
        detail: {
          tags,
          summary: 'Your saved searches, each with its new count',
          description: `\`new_count\`: the listings its filters let through, as the list shows them to you, posted or with news (price changed, back on market) since you last opened it (the list's \`changed_since\` at \`seen_at\`), counted up to ${NEW_COUNT_CAP}.`,
        },
      })
      .post('/', async ({ body, user, set }) => ((set.status = 201), createSavedSearch(ctx, user, body)), {
        permission: 'manage:saved-search:own',
        body: CreateSavedSearchBody,
        response: { 201: SavedSearch, 409: Detail, 422: t.Any(), ...errors },
        detail: {
          tags,
          summary: 'Save a search',
          description: `\`filters\` are those of GET /api/listings/ (without page and per_page), checked the same way. At most ${SAVED_SEARCH_LIMIT} per user and one name per user in any case (409 otherwise); the name is 1–60 characters once trimmed. It counts news from now.`,
        },
      })
      .patch('/:id', ({ params, body, user }) => updateSavedSearch(ctx, user, params.id, body), {
        permission: 'manage:saved-search:own',
        params: SavedSearchIdParams,
        body: UpdateSavedSearchBody,
        response: { 200: SavedSearch, 409: Detail, 422: t.Any(), ...errors },
        detail: {
          tags,
          summary: 'Rename a saved search, change its filters or its alert (partial)',
          description: `New filters count news from now; an alert turned on starts from now. ${own}`,
        },
      })
      .delete('/:id', async ({ params, user, set }) => (await deleteSavedSearch(ctx, user, params.id), (set.status = 204), undefined), {
        permission: 'manage:saved-search:own',
        params: SavedSearchIdParams,
        response: { 204: NoContent('Deleted'), ...errors },
        detail: { tags, summary: 'Delete a saved search', description: own },
      })
      .post('/:id/seen', async ({ params, user, set }) => (await markSeen(ctx, user, params.id), (set.status = 204), undefined), {
        permission: 'read:saved-search:own',
        params: SavedSearchIdParams,
        response: { 204: NoContent('Marked seen: its new count starts again from now'), ...errors },
        detail: { tags, summary: 'Mark a saved search opened', description: `Its \`seen_at\` becomes now, so its new count is 0 until news comes. ${own}` },
      }),
  )
