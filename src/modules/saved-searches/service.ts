import { UniqueViolation } from '../../../db/faults'
import type { Queryable } from '../../../db/sql'
import type { Actor } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { conflict, fieldError, notFound } from '../../platform/errors'
import { recordAudit } from '../audit/service'
import type { ListingFilters } from '../listings/model'
import type { Viewer } from '../listings/store/where'
import { SAVED_SEARCH_LIMIT, type CreateSavedSearchBody, type SavedSearch, type SavedSearchList, type UpdateSavedSearchBody } from './model'
import { newCount } from './new-count'
import { lockUser } from '../users/store'
import { deleteSearch, insertSearch, markSearchSeen, nameUsed, searchCount, searchesOf, searchOf, updateSearch, type SavedSearchRow } from './store'

export type { SavedSearchRow } from './store'
export const NOT_FOUND = 'Saved search not found'
export const LIMIT_REACHED = `You can keep at most ${SAVED_SEARCH_LIMIT} saved searches: delete one to save another`
const nameTaken = (name: string) => `You already have a saved search named "${name}"`

const viewerOf = (a: Pick<Actor, 'id' | 'role' | 'cityId'>): Viewer => ({ id: a.id, role: a.role, cityId: a.cityId })
const actorOf = (a: Actor) => ({ id: a.id, fullName: a.fullName })
const iso = (ms: number) => new Date(ms).toISOString()

/** The filters that narrow something, in a stable order: what is stored, compared and counted. */
export function storedFilters(f: ListingFilters): ListingFilters {
  return Object.fromEntries(
    Object.entries(f)
      .filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== false)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ) as ListingFilters
}

export const filtersOf = (row: Pick<SavedSearchRow, 'filters'>): ListingFilters => JSON.parse(row.filters)

const answer = (row: SavedSearchRow, newCount: number): SavedSearch => ({
  id: row.id,
  name: row.name,
  filters: filtersOf(row),
  alert: row.alert,
  new_count: newCount,
  seen_at: iso(row.seen_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
})

/** What the audit trail keeps of a saved search. */
const auditView = (r: Pick<SavedSearchRow, 'name' | 'filters' | 'alert'>) => ({ name: r.name, filters: JSON.parse(r.filters), alert: r.alert })

const withCount = async (ctx: AppContext, actor: Pick<Actor, 'id' | 'role' | 'cityId'>, row: SavedSearchRow) =>
  answer(row, await newCount(ctx.db, ctx.counts, viewerOf(actor), filtersOf(row), row.seen_at))

/** The caller's saved searches, oldest first, each with its new count. */
export async function listSavedSearches(ctx: AppContext, actor: Pick<Actor, 'id' | 'role' | 'cityId'>): Promise<SavedSearchList> {
  const rows = await searchesOf(ctx.db, actor.id)
  return { saved_searches: await Promise.all(rows.map((r) => withCount(ctx, actor, r))), limit: SAVED_SEARCH_LIMIT }
}

/** One of the caller's saved searches; someone else's is a 404, as one that does not exist. */
async function ownRow(db: Queryable, actor: Pick<Actor, 'id'>, id: number): Promise<SavedSearchRow> {
  const row = await searchOf(db, actor.id, id)
  if (!row) throw notFound(NOT_FOUND)
  return row
}

/** The name as kept: trimmed, and not empty once trimmed (the schema counted the spaces). */
function cleanName(name: string): string {
  const trimmed = name.trim()
  if (!trimmed) throw fieldError('name', 'Name is required')
  return trimmed
}

/** 409 when another of the user's searches (not `exceptId`) has this name in any case. */
async function assertNameFree(db: Queryable, userId: number, name: string, exceptId = 0): Promise<void> {
  if (await nameUsed(db, userId, name, exceptId)) throw conflict(nameTaken(name))
}

/** Two requests racing for one name: the unique index refused the second. */
const nameRace = (e: unknown, name: string) =>
  e instanceof UniqueViolation && e.constraint === 'saved_searches_user_name_unique' ? conflict(nameTaken(name)) : e

export async function createSavedSearch(ctx: AppContext, actor: Actor, body: CreateSavedSearchBody, now = Date.now()): Promise<SavedSearch> {
  const name = cleanName(body.name)
  const filters = JSON.stringify(storedFilters(body.filters))
  const alert = body.alert ?? 'OFF'
  try {
    const row = await ctx.db.tx(async (tx) => {
      // PostgreSQL: the user's row locked, so two requests at the 20th search are counted one after the other (SQLite
      // writes one transaction at a time anyway).
      await lockUser(tx, actor.id)
      if ((await searchCount(tx, actor.id)) >= SAVED_SEARCH_LIMIT) throw conflict(LIMIT_REACHED)
      await assertNameFree(tx, actor.id, name)
      const created = await insertSearch(tx, { user_id: actor.id, name, filters, alert, seen_at: now, alerted_at: alert === 'OFF' ? null : now, created_at: now, updated_at: now })
      await recordAudit(tx, { actor: actorOf(actor), action: 'saved_search.create', entityType: 'saved_search', entityId: created.id, cityId: actor.cityId, after: auditView(created) }, now)
      return created
    })
    return answer(row, 0)
  } catch (e) {
    throw nameRace(e, name)
  }
}

/**
 * A partial change. New filters are a new search: it counts from now (seen). Turning an alert on starts it from now, so
 * the first mail carries only what comes after.
 */
export async function updateSavedSearch(ctx: AppContext, actor: Actor, id: number, body: UpdateSavedSearchBody, now = Date.now()): Promise<SavedSearch> {
  const name = body.name === undefined ? undefined : cleanName(body.name)
  try {
    const row = await ctx.db.tx(async (tx) => {
      const before = await ownRow(tx, actor, id)
      if (name !== undefined) await assertNameFree(tx, actor.id, name, id)
      const filters = body.filters === undefined ? before.filters : JSON.stringify(storedFilters(body.filters))
      const alert = body.alert ?? before.alert
      const seenAt = filters === before.filters ? before.seen_at : now
      const alertedAt = alert === before.alert ? before.alerted_at : alert === 'OFF' ? null : now
      const after = await updateSearch(tx, id, { name: name ?? before.name, filters, alert, seen_at: seenAt, alerted_at: alertedAt, updated_at: now })
      await recordAudit(tx, { actor: actorOf(actor), action: 'saved_search.update', entityType: 'saved_search', entityId: id, cityId: actor.cityId, before: auditView(before), after: auditView(after) }, now)
      return after
    })
    return withCount(ctx, actor, row)
  } catch (e) {
    throw nameRace(e, name ?? '')
  }
}

export async function deleteSavedSearch(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.tx(async (tx) => {
    const before = await ownRow(tx, actor, id)
    await deleteSearch(tx, id)
    await recordAudit(tx, { actor: actorOf(actor), action: 'saved_search.delete', entityType: 'saved_search', entityId: id, cityId: actor.cityId, before: auditView(before) })
  })
}

/** Opened: its new count starts again from now. */
export async function markSeen(ctx: AppContext, actor: Pick<Actor, 'id'>, id: number, now = Date.now()): Promise<void> {
  if (!(await markSearchSeen(ctx.db, actor.id, id, now))) throw notFound(NOT_FOUND)
}
