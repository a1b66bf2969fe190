import { currencyFor } from '../../shared/currency'
import { formatMoney } from '../../shared/money'

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

/** A reason in words, given how to write an amount. */
type Reason = (money: (n: number) => string) => string

/**
 * The score of `other` as a match for `mine` (0–100), telling `say` each reason when given. Both are known to match
 * (the SQL above said so); this only weighs and explains. Ranking thousands of candidates needs the numbers only:
 * the words (money and sizes formatted) are made for the few that are shown or announced.
 */
export function weighMatch(mine: MatchSide, other: MatchSide, tolerance: number, now: number, say?: (reason: Reason) => void): number {
  const [req, avl] = mine.post_type === 'REQ' ? [mine, other] : [other, mine]
  let score = 0
  const { budget: wanted, size: wantedSize } = req
  const { budget: asking, size } = avl
  if (wanted !== null && asking !== null) {
    if (asking <= wanted) {
      score += POINTS.budget
      say?.((money) => `Asking ${money(asking)} within budget ${money(wanted)}`)
    } else {
      // Over the budget but within the tolerance: fewer points the further over, down to a third at the edge.
      const over = (asking - wanted) / wanted
      const share = tolerance > 0 ? Math.min(1, over / (tolerance / 100)) : 1
      score += Math.round(POINTS.budget * (1 - (2 / 3) * share))
      say?.((money) => `Asking ${money(asking)}, ${Math.max(1, Math.round(over * 100))} % over budget ${money(wanted)} (within the city's ${tolerance} %)`)
    }
  }
  if (wantedSize !== null && size !== null) {
    if (size >= wantedSize) {
      score += POINTS.size
      say?.(() => `${sqft(size)} ≥ ${wantedSize.toLocaleString('en-US')} wanted`)
    } else {
      const short = (wantedSize - size) / wantedSize
      score += Math.round(POINTS.size * (1 - (2 / 3) * Math.min(1, short / (1 - SIZE_FLOOR_PERCENT / 100))))
      say?.(() => `${sqft(size)}, ${Math.max(1, Math.round(short * 100))} % under ${wantedSize.toLocaleString('en-US')} wanted`)
    }
  }
  if (sameText(mine.locality, other.locality)) {
    score += POINTS.locality
    say?.(() => `Same locality: ${other.locality!.trim()}`)
  } else if (mine.location && mine.location === other.location) {
    score += POINTS.zone
    say?.(() => `Same zone: ${other.location}`)
  }
  const days = Math.max(0, Math.floor((now - other.created_at) / DAY_MS))
  if (days < FRESH_DAYS) {
    score += Math.round(POINTS.fresh * (1 - days / FRESH_DAYS))
    say?.(() => (days === 0 ? 'Posted today' : days === 1 ? 'Posted yesterday' : `Posted ${days} days ago`))
  }
  return Math.min(100, score)
}

/** The score and its reasons in words; `country` gives the currency of the amounts. */
export function scoreMatch(mine: MatchSide, other: MatchSide, tolerance: number, country: string | null, now = Date.now()): { score: number; reasons: string[] } {
  const currency = currencyFor(country)
  const money = (n: number) => formatMoney(n, currency)
  const reasons: string[] = []
  const score = weighMatch(mine, other, tolerance, now, (r) => reasons.push(r(money)))
  return { score, reasons }
}
