import { currencyFor, formatMoney } from '../../shared/currency'

// The matching contract of issue 15, in one place: which listings match (as SQL, decided by the database), and how a
// match scores and is explained (here, in words a broker reads). README "Matching" and the screen's help repeat it.

/** A listing as far as matching needs it. */
export type MatchSide = {
  id: number
  post_type: 'REQ' | 'AVL'
  budget: number | null
  size: number | null
  location: string | null
  locality: string | null
  created_at: number
}

/** An availability may be at least this share of a requirement's size, in percent. */
export const SIZE_FLOOR_PERCENT = 85
export const DEFAULT_TOLERANCE = 10
export const MAX_TOLERANCE = 30
/** The points of each part of a score (they add up to 100). */
export const POINTS = { budget: 35, size: 20, locality: 30, zone: 15, fresh: 15 } as const
/** A listing this many days old or older earns no freshness points. */
export const FRESH_DAYS = 30

/** The contract in words, for the matches screen's help and the API description. */
export const MATCH_RULES = [
  'A requirement (REQ) meets availabilities (AVL), and an availability meets requirements, of the same city and the same sale or rent.',
  'The property types agree, ignoring case and spacing; "2 BHK", "2 BHK Apartment" and "2 BHK Flat" are one type, as are "Office" and "Office Space", "Shop" and "Retail Shop".',
  `Budget: the asking price is at most the requirement's budget plus the city's tolerance (${DEFAULT_TOLERANCE} % unless an administrator set another, up to ${MAX_TOLERANCE} %).`,
  `Size: the availability has at least ${SIZE_FLOOR_PERCENT} % of the size the requirement asks for.`,
  'A budget or size missing on either side neither excludes nor scores.',
  'Only ACTIVE listings match: one put on hold, closed or suspended leaves every match at once, and returns when it is active again.',
  `Score out of 100: budget fit up to ${POINTS.budget}, size fit up to ${POINTS.size}, the same locality ${POINTS.locality} (else the same zone ${POINTS.zone}), freshness up to ${POINTS.fresh} (new today, nothing after ${FRESH_DAYS} days).`,
]

/** Column (or `?`) expressions for one side of the rule. */
type Cols = { budget: string; size: string }

/**
 * The budget and size rules between a requirement and an availability, as SQL over their columns; `tolerance` is an
 * SQL expression in percent. Integer arithmetic on both sides of each comparison: 110,000 is within 100,000 + 10 %
 * exactly, with no floating point left over to decide the edge.
 */
export const fitSql = (req: Cols, avl: Cols, tolerance: string) =>
  `(${req.budget} is null or ${avl.budget} is null or ${avl.budget} * 100 <= ${req.budget} * (100 + ${tolerance}))` +
  ` and (${req.size} is null or ${avl.size} is null or ${avl.size} * 100 >= ${req.size} * ${SIZE_FLOOR_PERCENT})`

/**
 * Two listings `a` and `b` (table aliases) still match, with `c` the city of `a`: the whole rule, for entries read
 * back from the inbox (either may have changed since they were announced).
 */
export const pairMatchesSql = (a: string, b: string, c: string) => {
  const cols = (x: string) => ({ budget: `${x}.budget`, size: `${x}.size` })
  return `${a}.status = 'ACTIVE' and ${b}.status = 'ACTIVE' and ${a}.city_id = ${b}.city_id and ${a}.sale_or_rent = ${b}.sale_or_rent
    and ${a}.post_type <> ${b}.post_type and ${a}.property_key = ${b}.property_key
    and case when ${a}.post_type = 'REQ' then ${fitSql(cols(a), cols(b), `${c}.match_tolerance`)}
      else ${fitSql(cols(b), cols(a), `${c}.match_tolerance`)} end`
}

const DAY_MS = 86_400_000
const sameText = (x: string | null, y: string | null) => !!x?.trim() && !!y?.trim() && x.trim().toLowerCase() === y.trim().toLowerCase()
const sqft = (n: number) => `${n.toLocaleString('en-US')} sq ft`

/**
 * The score of `other` as a match for `mine` (0–100) and its reasons. Both are known to match (the SQL above said so);
 * this only weighs and explains. `country` gives the currency of the amounts.
 */
export function scoreMatch(mine: MatchSide, other: MatchSide, tolerance: number, country: string | null, now = Date.now()): { score: number; reasons: string[] } {
  const [req, avl] = mine.post_type === 'REQ' ? [mine, other] : [other, mine]
  const money = (n: number) => formatMoney(n, currencyFor(country))
  const reasons: string[] = []
  let score = 0
  if (req.budget !== null && avl.budget !== null) {
    if (avl.budget <= req.budget) {
      score += POINTS.budget
      reasons.push(`Asking ${money(avl.budget)} within budget ${money(req.budget)}`)
    } else {
      // Over the budget but within the tolerance: fewer points the further over, down to a third at the edge.
      const over = (avl.budget - req.budget) / req.budget
      const share = tolerance > 0 ? Math.min(1, over / (tolerance / 100)) : 1
      score += Math.round(POINTS.budget * (1 - (2 / 3) * share))
      reasons.push(`Asking ${money(avl.budget)}, ${Math.max(1, Math.round(over * 100))} % over budget ${money(req.budget)} (within the city's ${tolerance} %)`)
    }
  }
  if (req.size !== null && avl.size !== null) {
    if (avl.size >= req.size) {
      score += POINTS.size
      reasons.push(`${sqft(avl.size)} ≥ ${req.size.toLocaleString('en-US')} wanted`)
    } else {
      const short = (req.size - avl.size) / req.size
      score += Math.round(POINTS.size * (1 - (2 / 3) * Math.min(1, short / (1 - SIZE_FLOOR_PERCENT / 100))))
      reasons.push(`${sqft(avl.size)}, ${Math.max(1, Math.round(short * 100))} % under ${req.size.toLocaleString('en-US')} wanted`)
    }
  }
  if (sameText(mine.locality, other.locality)) {
    score += POINTS.locality
    reasons.push(`Same locality: ${other.locality!.trim()}`)
  } else if (mine.location && mine.location === other.location) {
    score += POINTS.zone
    reasons.push(`Same zone: ${other.location}`)
  }
  const days = Math.max(0, Math.floor((now - other.created_at) / DAY_MS))
  if (days < FRESH_DAYS) {
    score += Math.round(POINTS.fresh * (1 - days / FRESH_DAYS))
    reasons.push(days === 0 ? 'Posted today' : days === 1 ? 'Posted yesterday' : `Posted ${days} days ago`)
  }
  return { score: Math.min(100, score), reasons }
}
