import { sql } from 'drizzle-orm'

/**
 * The property type as matching compares it (issue 15): lower case, without spaces and the punctuation people type
 * between words (`-`, `.`, `/`, `_`, `,`), and these equivalences:
 * - a BHK or RK home is the same whether or not it says Apartment or Flat: `2 BHK`, `2BHK Apartment`, `2 bhk flat`;
 * - `Office Space` is an `Office`, `Retail Shop` a `Shop`.
 * Anything else compares as written: `Villa` never meets `Row House`.
 *
 * Written once, as SQL: the database computes it for every row (a generated column, indexed), so every writer agrees
 * and a query compares keys without code. `propertyKey` below is the same rule for tests and help text.
 */
const squeezed = `lower(${['-', '.', '/', '_', ','].reduce((e, ch) => `replace(${e}, '${ch}', '')`, "replace(property_type, ' ', '')")})`

export const PROPERTY_KEY_SQL = sql.raw(`(case
  when ${squeezed} glob '*[0-9]bhkapartment' or ${squeezed} glob '*[0-9]rkapartment' then substr(${squeezed}, 1, length(${squeezed}) - 9)
  when ${squeezed} glob '*[0-9]bhkflat' or ${squeezed} glob '*[0-9]rkflat' then substr(${squeezed}, 1, length(${squeezed}) - 4)
  when ${squeezed} = 'officespace' then 'office'
  when ${squeezed} = 'retailshop' then 'shop'
  else ${squeezed} end)`)

/** The same key in JavaScript (ASCII letters lowered, as SQLite's lower() does). */
export function propertyKey(type: string): string {
  const k = type
    .replace(/[ \-./_,]/g, '')
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
  if (/[0-9](bhk|rk)apartment$/.test(k)) return k.slice(0, -9)
  if (/[0-9](bhk|rk)flat$/.test(k)) return k.slice(0, -4)
  if (k === 'officespace') return 'office'
  if (k === 'retailshop') return 'shop'
  return k
}
