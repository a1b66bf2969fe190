import type { Change } from '../../../db/change-feed'
import type { AffectedBy } from '../../../db/snapshot-cache'
import type { Dialect } from '../../../db/sql'
import type { ListingFilters } from './model'
import { ftsQuery, inScope, listingScope, searchParts, shownTo, type Viewer } from './store/where'
import { textMatches } from './search-judge'
import { fold, words } from './words'
import { searchFoldsAccents } from './store'

/** A listing as the change feed records it (migration 0011): its place, the filter fields and its searchable text. */
type FeedListing = {
  id: number
  owner_user_id: number
  city_id: number
  state_id: number | null
  country_id: number | null
  post_type: string
  sale_or_rent: string
  status: string
  location: string | null
  property_type: string
  budget: number | null
  date: string
  text: string
  /** Issue 35 (absent in rows from before it: NETWORK). */
  visibility?: string
  circle_id?: number | null
}

// `fold` and `words` (./words) fold case and accents the way the search index's tokenizer does (unicode61,
// remove_diacritics 2), or further.
const tokenCache = new WeakMap<FeedListing, string[]>()

/** A search of single words (no "MUM-0001"): FTS5 judges it exactly on the feed's one-string text. */
const exactSearch = (search: string) => searchParts(search).every((parts) => parts.length === 1)

const matchCache = new WeakMap<FeedListing, Map<string, boolean>>()

/**
 * Could this listing match the search? For single words, exactly as the index says (`textMatches`: FTS5 on the feed's
 * text). A word made of parts must match them in sequence within one field, which the one-string text cannot tell: there
 * every part must begin some word of the listing's text, looser than the index, so it errs on the side of "yes" (an
 * answer is sometimes dropped for nothing, never kept when wrong); text outside ASCII always counts as a match there.
 */
function mayMatchSearch(search: string, l: FeedListing): boolean {
  const query = ftsQuery(search)
  if (query === null) return true // no words: SQL has no search clause either
  if (exactSearch(search)) {
    let known = matchCache.get(l)
    if (!known) matchCache.set(l, (known = new Map()))
    let hit = known.get(query)
    if (hit === undefined) known.set(query, (hit = asciiMatch(search, l) ?? textMatches(query, l.text)))
    return hit
  }
  const typed = words(search)
  if (/[^\x00-\x7f]/.test(search) || /[^\x00-\x7f]/.test(l.text)) return true
  let tokens = tokenCache.get(l)
  if (!tokens) tokenCache.set(l, (tokens = words(l.text)))
  return typed.every((w) => tokens.some((t) => t.startsWith(w)))
}

/**
 * The same judgement without FTS5 where both sides are ASCII: there FTS5's tokens are the runs of letters and digits,
 * lower-cased, exactly `words`, and each word searched must begin one of them (the first 8 words, as `ftsQuery`).
 * Tens of times cheaper than asking FTS5, for every cached search at every change. Null outside ASCII.
 */
function asciiMatch(search: string, l: FeedListing): boolean | null {
  if (/[^\x00-\x7f]/.test(search) || /[^\x00-\x7f]/.test(l.text)) return null
  let tokens = tokenCache.get(l)
  if (!tokens) tokenCache.set(l, (tokens = words(l.text)))
  return searchParts(search)
    .slice(0, 8)
    .every(([w]) => tokens.some((t) => t.startsWith(w!)))
}

/** The listing passes the filters of SPEC section 3, as `filterWhere` and `searchWhere` write them in SQL. */
export function listingMatches(f: ListingFilters, l: FeedListing): boolean {
  if (f.post_type && l.post_type !== f.post_type) return false
  if (f.sale_or_rent && l.sale_or_rent !== f.sale_or_rent) return false
  if (f.location && l.location !== f.location) return false
  if (f.status ? l.status !== f.status : l.status === 'EXPIRED') return false
  if (f.property_type?.trim() && fold(l.property_type) !== fold(f.property_type.trim())) {
    // SQL compares with NOCASE (ASCII only): outside ASCII, fold and compare conservatively.
    if (!/[^\x00-\x7f]/.test(l.property_type + f.property_type)) return false
  }
  if (f.city_id) {
    if (l.city_id !== f.city_id) return false
  } else if (f.state_id) {
    if (l.state_id !== f.state_id) return false
  } else if (f.country_id && l.country_id !== f.country_id) return false
  if (f.date_from && l.date < f.date_from) return false
  if (f.date_to && l.date > f.date_to) return false
  if (f.min_budget !== undefined && f.min_budget > 0 && (l.budget === null || l.budget < f.min_budget)) return false
  if (f.max_budget !== undefined && (l.budget === null || l.budget > f.max_budget)) return false
  if (f.search && !mayMatchSearch(f.search, l)) return false
  return true
}

/** The viewer may see the listing (as `visibleTo` says in SQL). */
export const listingVisible = (v: Viewer, l: FeedListing): boolean =>
  inScope(listingScope(v), { ownerUserId: l.owner_user_id, cityId: l.city_id, status: l.status, visibility: l.visibility })

/**
 * A change of another owner's CIRCLE listing, for a broker: whether they see it depends on circles the feed does not
 * carry, so their cached answers are recomputed rather than adjusted (issue 35; such listings are few).
 */
const unsure = (v: Viewer, c: Change) => {
  if (listingScope(v).kind !== 'all-but-others-hidden') return false
  const maybe = (row: Record<string, unknown> | null) => !!row && shownTo(v.id, { ownerUserId: row.owner_user_id as number, visibility: row.visibility as string | undefined }) === 'maybe'
  return maybe(c.before) || maybe(c.after)
}

const renamed = (c: Change) => c.topic === 'user' && !!c.before && !!c.after && c.before.full_name !== c.after.full_name

/**
 * Changes outside listings that alter listing answers: any change of places (rows show city, state and country names;
 * counts use the place tables), and an owner's new name, which rows show and searches match (`counted`: only searches
 * then, since a name does not decide who counts otherwise).
 */
const touchesListingRows = (c: Change, counted?: ListingFilters) =>
  c.topic === 'geography' || c.topic === 'circle' || (renamed(c) && (!counted || !!counted.search))

/** Both sides of a listing change, as far as one viewer and one set of filters see them. */
function sides(c: Change, v: Viewer, f: ListingFilters) {
  const seen = (row: Record<string, unknown> | null) => !!row && listingVisible(v, row as FeedListing) && listingMatches(f, row as FeedListing)
  return { before: seen(c.before), after: seen(c.after) }
}

const ascii = (s: unknown) => typeof s !== 'string' || !/[^\x00-\x7f]/.test(s)

/**
 * Whether `sides` says exactly what SQL would for this change: everything but a search with a word of parts (judged
 * loosely, as word prefixes) and a property type outside ASCII (compared loosely too). `tests/unit/listing-affects.test.ts` checks the
 * exact cases against SQL both ways. On PostgreSQL the judge (FTS5's tokenizer) is exact for ASCII only: its search
 * vector keeps accents that FTS5 folds ("café" is not "cafe" there), so a search or a listing text outside ASCII is
 * counted again (tests/unit/pg-layer.test.ts checks the ASCII cases against PostgreSQL).
 */
const judgedExactly = (c: Change, f: ListingFilters, dialect: Dialect) =>
  // The feed carries neither the duplicate mark, the hotsheet's time nor a review request: with those filters only counting again can tell.
  !opaque(f) &&
  (!f.search || (exactSearch(f.search) && (searchFoldsAccents(dialect) || (ascii(f.search) && ascii(c.before?.text) && ascii(c.after?.text))))) &&
  (!f.property_type || (ascii(f.property_type) && ascii(c.before?.property_type) && ascii(c.after?.property_type)))

/**
 * How a change moves a count of these filters: +1 a listing entering the set, -1 leaving it, 0 neither; null when only
 * a new count can tell (a search with a word of parts, a place or an owner's name changed). Counts are kept up to date with it rather than
 * recounted after every write (docs/decisions/005-change-feed.md).
 */
export const countDelta = (v: Viewer, f: ListingFilters, c: Change, dialect: Dialect = 'sqlite'): number | null => {
  if (c.topic !== 'listing') return touchesListingRows(c, f) ? null : 0
  if (!judgedExactly(c, f, dialect) || unsure(v, c)) return null
  const s = sides(c, v, f)
  return Number(s.after) - Number(s.before)
}

/** The zone chips after a change (the filters without a zone), or null when only a new count can tell. */
export const zonesAfter = <Z extends { total: number; zones: Record<string, number> }>(v: Viewer, f: ListingFilters, counts: Z, c: Change, dialect: Dialect = 'sqlite'): Z | null => {
  if (c.topic !== 'listing') return touchesListingRows(c, f) ? null : counts
  if (!judgedExactly(c, f, dialect) || unsure(v, c)) return null
  const s = sides(c, v, f)
  const zones = { ...counts.zones }
  const move = (row: Record<string, unknown> | null, by: number) => {
    const zone = row?.location as string | null | undefined
    if (zone && zone in zones) zones[zone]! += by
  }
  if (s.before) move(c.before, -1)
  if (s.after) move(c.after, +1)
  return { ...counts, total: counts.total + Number(s.after) - Number(s.before), zones }
}

/**
 * How a change moves a set of these filters, as a viewer sees it: one listing entering or leaving it, nothing
 * (`'none'`: an edit that keeps it in or out, a change of something rows do not show), or null when only reading the
 * set again can tell (as for counts).
 */
function setMove(v: Viewer, f: ListingFilters, c: Change, dialect: Dialect): { id: number; enters: boolean } | 'none' | null {
  if (c.topic !== 'listing') return touchesListingRows(c, f) ? null : 'none'
  if (!judgedExactly(c, f, dialect) || unsure(v, c)) return null
  const s = sides(c, v, f)
  if (s.before === s.after) return 'none'
  return { id: Number((c.after ?? c.before)!.id), enters: s.after }
}

/** The newest ids of a set, kept (db/snapshot-cache.ts): all of the set when `complete`, else its top `size`. */
export type IdWindow = { ids: number[]; complete: boolean }

/**
 * The window after a change: a listing entering the set takes its place among the ids (newest first), one leaving it
 * is taken out; null when only reading it again can tell (as for counts, or a listing entering an incomplete window
 * that a removal emptied: where it goes is unknown).
 */
export const windowAfter = (v: Viewer, f: ListingFilters, w: IdWindow, c: Change, size: number, dialect: Dialect = 'sqlite'): IdWindow | null => {
  const move = setMove(v, f, c, dialect)
  if (move === null) return null
  if (move === 'none') return w
  const { id } = move
  if (!move.enters) return { ids: w.ids.filter((x) => x !== id), complete: w.complete }
  const last = w.ids.at(-1)
  if ((!w.complete && last === undefined) || w.ids.includes(id)) return null
  // Below the window's oldest id, outside a window that is not all of the set: not among the newest.
  if (!w.complete && id < last!) return w
  const ids = [...w.ids]
  let at = ids.findIndex((x) => x < id)
  if (at < 0) at = ids.length
  ids.splice(at, 0, id)
  return ids.length > size ? { ids: ids.slice(0, size), complete: false } : { ids, complete: w.complete }
}

/**
 * A page beyond the kept windows, kept through writes: `ids`, a run of the set's members in the set's order (newest
 * first), and `above`, the place of the run's first id counted from the page's first place, 0 or less: the run begins
 * that many places before the page, a margin read with it (`DEEP_PAGE_MARGIN`), so that each listing entering above
 * moves the page onto an id already known. The page's places after the run (up to `limit`) are read when it is served
 * (`completeDeepPage` in ./store/read.ts): a short walk of the id index from the run's end, where reading the page from
 * its offset costs a walk to the offset (about 1.3 ms at 1M, for each deep page of each process after each write;
 * issue 36).
 */
export type DeepPage = { ids: number[]; above: number }

/**
 * How many of the set's ids just before a deep page are read with it: how many listings may enter above it before it
 * is read again from its offset (docs/decisions/082-deep-page-margin.md). 8 bytes each per kept deep page.
 */
export const DEEP_PAGE_MARGIN = 64

/**
 * The page after a change: a listing entering or leaving the set above the run moves every place of the run down or
 * up one; one within it (its margin included) is put in or taken out; one below it moves nothing the run says (the
 * places after the run are read anyway). Ids that fall past the page's end are let go. Null when only reading it again
 * can tell (as for windows), when a listing enters above a run with no margin left (the page's first id is then one
 * the run does not hold), or when the run no longer reaches the page.
 */
export const deepPageAfter = (v: Viewer, f: ListingFilters, p: DeepPage, c: Change, limit: number, dialect: Dialect = 'sqlite'): DeepPage | null => {
  const move = setMove(v, f, c, dialect)
  if (move === null) return null
  if (move === 'none') return p
  const { id } = move
  const first = p.ids[0]
  const last = p.ids.at(-1)
  if (first === undefined || last === undefined) return null
  let { ids, above } = p
  if (id < last) return p
  if (move.enters) {
    if (id > first) {
      if (above >= 0) return null
      above++
    } else if (ids.includes(id)) return null
    else {
      const at = ids.findIndex((x) => x < id)
      ids = [...ids.slice(0, at), id, ...ids.slice(at)]
    }
    if (above + ids.length > limit) ids = ids.slice(0, limit - above)
  } else if (id > first) {
    // The run's first id goes into the margin (above the page), where it is still known.
    above--
  } else {
    if (!ids.includes(id)) return null
    ids = ids.filter((x) => x !== id)
  }
  // A run wholly above the page no longer says where the page starts.
  return ids.length === 0 || above + ids.length <= 0 ? null : { ids, above }
}

/** A total (or any count) of these filters: only a listing entering or leaving the set changes it. */
export const countAffectedBy =
  (v: Viewer, f: ListingFilters): AffectedBy =>
  (c) => {
    if (c.topic !== 'listing') return touchesListingRows(c, f)
    if (unsure(v, c)) return true
    const s = sides(c, v, f)
    return opaque(f) ? s.before || s.after : s.before !== s.after
  }

/**
 * Filters on what the change feed does not carry (the hotsheet's time, the duplicate mark, a pending review request,
 * the first posting):
 * `sides` judges the rest, so any change of a listing those let through may move it in or out.
 */
const opaque = (f: ListingFilters) => !!f.changed_since || !!f.possible_duplicates || !!f.review_requested || !!f.on_market_over_days

/**
 * One page of a list: a listing entering or leaving the set (the total and every page move), or an edit of one it
 * shows (`ids`: filled in when the page is computed). An edit of a listing on another page changes nothing here.
 */
export const pageAffectedBy =
  (v: Viewer, f: ListingFilters, ids: ReadonlySet<number>): AffectedBy =>
  (c) => {
    if (c.topic !== 'listing') return touchesListingRows(c)
    if (unsure(v, c)) return true
    const s = sides(c, v, f)
    if (s.before !== s.after || (opaque(f) && s.after)) return true
    return s.before && ids.has((c.after ?? c.before)!.id as number)
  }

/** The zone chips: the filters without a zone; a listing entering, leaving, or moving between zones. */
export const zonesAffectedBy =
  (v: Viewer, f: ListingFilters): AffectedBy =>
  (c) => {
    if (c.topic !== 'listing') return touchesListingRows(c, f)
    if (unsure(v, c)) return true
    const s = sides(c, v, f)
    return s.before !== s.after || (opaque(f) && (s.before || s.after)) || (s.before && c.before!.location !== c.after!.location)
  }

/**
 * Which kept listing rows (db/kept-rows.ts) a change makes wrong: the listing's own, or all of them when what every row
 * shows beside its own columns changed (a place's name, an owner's name).
 */
export const listingRowsDroppedBy = (c: Change): readonly number[] | 'all' => {
  if (c.topic === 'listing') return [c.before?.id, c.after?.id].filter((id) => id !== undefined && id !== null).map(Number)
  return c.topic === 'geography' || renamed(c) ? 'all' : []
}

/** A broker's own listings (`/my`): any change to a listing they own, before or after. */
export const ownListingsAffectedBy =
  (ownerId: number): AffectedBy =>
  (c) =>
    c.topic === 'listing' ? c.before?.owner_user_id === ownerId || c.after?.owner_user_id === ownerId : touchesListingRows(c)
