/** A number as brokers write it: `45000`, `45,000`, Indian grouping `1,20,000`, `4.5`, `.5`. */
export const NUM = String.raw`(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?|\.\d+`

export const toNumber = (s: string) => Number(s.replace(/,/g, ''))

/** A value written as a range: a REQ keeps its upper bound (the most the client pays), an AVL its lower (the ask). */
export type Ranged = { low: number; high: number; start: number; end: number }

export const pick = (r: Pick<Ranged, 'low' | 'high'>, postType: 'REQ' | 'AVL') => (postType === 'REQ' ? r.high : r.low)

/** Rounds away floating-point noise: 1.2 × 10,000,000 is 12,000,000, not 11,999,999.999999998. */
export const exact = (n: number) => Math.round(n * 100) / 100
