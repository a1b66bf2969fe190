import { sql } from 'drizzle-orm'

/**
 * The property type as matching compares it (issue 15): lower case, without spaces and the punctuation people type
 * between words (`-`, `.`, `/`, `_`, `,`), and these equivalences, wherever they occur in the type:
 * - a BHK or RK home is the same whether or not it says Apartment or Flat: `2 BHK`, `2BHK Apartment`, `2 bhk flat`;
 * - `Office Space` is an `Office`, `Retail Shop` a `Shop`.
 * Anything else compares as written: `Villa` never meets `Row House`.
 *
 * Written once, as SQL: the database computes it for every row (a generated column, indexed), so every writer agrees
 * and a query compares keys without code. One nesting of replace() calls, each input read once: the first version, a
 * CASE repeating the squeezed text in every branch, cost 10 µs a row, which the inbox pays twice per entry.
 * `propertyKey` below is the same rule for tests and help text.
 */
const EQUIVALENT: [string, string][] = [
  ['bhkapartment', 'bhk'],
  ['bhkflat', 'bhk'],
  ['rkapartment', 'rk'],
  ['rkflat', 'rk'],
  ['officespace', 'office'],
  ['retailshop', 'shop'],
]
const SQUEEZED = `lower(${[' ', '-', '.', '/', '_', ','].reduce((e, ch) => `replace(${e}, '${ch}', '')`, 'property_type')})`
export const PROPERTY_KEY_SQL = sql.raw(EQUIVALENT.reduce((e, [from, to]) => `replace(${e}, '${from}', '${to}')`, SQUEEZED))

/** The same key in JavaScript (ASCII letters lowered, as SQLite's lower() does). */
export function propertyKey(type: string): string {
  const squeezed = type.replace(/[ \-./_,]/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase())
  return EQUIVALENT.reduce((k, [from, to]) => k.split(from).join(to), squeezed)
}
