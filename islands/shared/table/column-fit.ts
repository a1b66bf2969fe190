// Which columns a table shows at the width its box has (a container query, so the sidebar and the phone both count),
// and the columns the user chose to show or hide against that fit (the Columns menu), remembered in this browser.

/** How wide a column may get (rem, padding included: its cells are cut to these widths) and its rank: 0 always shown, then 1, 2, … as the box widens. */
export type ColumnFit = { width: number; rank: number }

/** Under this width (rem) of the table's box, a table with cards shows them instead (DataTable's `card`). */
export const CARDS_BELOW = 40

// Literal class names (Tailwind finds them in this file): a column shown from a container width, in 1rem steps up to
// 80rem, then coarser.
const SHOW_FROM: Record<number, string> = {
  40: '@min-[40rem]:table-cell',
  41: '@min-[41rem]:table-cell',
  42: '@min-[42rem]:table-cell',
  43: '@min-[43rem]:table-cell',
  44: '@min-[44rem]:table-cell',
  45: '@min-[45rem]:table-cell',
  46: '@min-[46rem]:table-cell',
  47: '@min-[47rem]:table-cell',
  48: '@min-[48rem]:table-cell',
  49: '@min-[49rem]:table-cell',
  50: '@min-[50rem]:table-cell',
  51: '@min-[51rem]:table-cell',
  52: '@min-[52rem]:table-cell',
  53: '@min-[53rem]:table-cell',
  54: '@min-[54rem]:table-cell',
  55: '@min-[55rem]:table-cell',
  56: '@min-[56rem]:table-cell',
  57: '@min-[57rem]:table-cell',
  58: '@min-[58rem]:table-cell',
  59: '@min-[59rem]:table-cell',
  60: '@min-[60rem]:table-cell',
  61: '@min-[61rem]:table-cell',
  62: '@min-[62rem]:table-cell',
  63: '@min-[63rem]:table-cell',
  64: '@min-[64rem]:table-cell',
  65: '@min-[65rem]:table-cell',
  66: '@min-[66rem]:table-cell',
  67: '@min-[67rem]:table-cell',
  68: '@min-[68rem]:table-cell',
  69: '@min-[69rem]:table-cell',
  70: '@min-[70rem]:table-cell',
  71: '@min-[71rem]:table-cell',
  72: '@min-[72rem]:table-cell',
  73: '@min-[73rem]:table-cell',
  74: '@min-[74rem]:table-cell',
  75: '@min-[75rem]:table-cell',
  76: '@min-[76rem]:table-cell',
  77: '@min-[77rem]:table-cell',
  78: '@min-[78rem]:table-cell',
  79: '@min-[79rem]:table-cell',
  80: '@min-[80rem]:table-cell',
  84: '@min-[84rem]:table-cell',
  88: '@min-[88rem]:table-cell',
  92: '@min-[92rem]:table-cell',
  96: '@min-[96rem]:table-cell',
  100: '@min-[100rem]:table-cell',
  110: '@min-[110rem]:table-cell',
  120: '@min-[120rem]:table-cell',
}
const STEPS = Object.keys(SHOW_FROM).map(Number)

/**
 * The container width (rem) from which each column of a set is shown: columns join by rank (then by their order),
 * each once the widths of everything shown so far plus its own fit. Rank 0 is always shown (0).
 */
export function columnThresholds(ids: string[], fitOf: (id: string) => ColumnFit): Record<string, number> {
  const order = ids.map((id, i) => ({ id, i, ...fitOf(id) })).sort((a, b) => a.rank - b.rank || a.i - b.i)
  let used = 0
  const from: Record<string, number> = {}
  for (const c of order) {
    used += c.width
    from[c.id] = c.rank === 0 ? 0 : used
  }
  return from
}

/** The classes that show a column from a container width (rem) on: none when it fits wherever the table shows. */
export const showFromClass = (from: number) => {
  if (from <= CARDS_BELOW) return ''
  const step = STEPS.find((s) => s >= from)
  return step === undefined ? 'hidden' : `hidden ${SHOW_FROM[step]}`
}

/** Columns the user showed (true) or hid (false) against the automatic fit, remembered per table in this browser. */
export type Overrides = Record<string, boolean>

/**
 * Where the choices are kept. The prefix dates from when only the listing tables had a Columns menu: kept, so that
 * choices made before stay.
 */
const STORAGE_PREFIX = 'brokernet:listing-columns:'

export function readOverrides(key: string | undefined): Overrides {
  if (!key || typeof localStorage === 'undefined') return {}
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_PREFIX + key) ?? '{}')
    return parsed && typeof parsed === 'object' ? Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean')) : {}
  } catch {
    return {}
  }
}

export function writeOverrides(key: string | undefined, o: Overrides) {
  if (!key) return
  try {
    if (Object.keys(o).length) localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(o))
    else localStorage.removeItem(STORAGE_PREFIX + key)
  } catch {
    // Private mode or a full storage: the choice lasts as long as the page.
  }
}
