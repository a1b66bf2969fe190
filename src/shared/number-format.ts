// Numbers written through one Intl.NumberFormat per locale and options, made when first needed and then kept.
// `toLocaleString(locale)` and `new Intl.NumberFormat` build an ICU formatter on every call: three amounts per listing
// row were a tenth of a listing page's hydration on a slow phone (docs/decisions/040-phone-speed.md). Nothing is built
// at start (ICU's number data loads on first use: docs/decisions/004-lazy-start.md).

/** Whole numbers (the default options). */
export const WHOLE: Intl.NumberFormatOptions = { maximumFractionDigits: 0 }

const formats = new Map<Intl.NumberFormatOptions, Map<string, Intl.NumberFormat>>()

/**
 * The formatter for a locale and options. `options` is a module-level constant (the cache is keyed by the object, so a
 * lookup serialises nothing); a new object each call would make a new formatter each call.
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = WHOLE): Intl.NumberFormat {
  let byLocale = formats.get(options)
  if (!byLocale) formats.set(options, (byLocale = new Map()))
  let f = byLocale.get(locale)
  if (!f) byLocale.set(locale, (f = new Intl.NumberFormat(locale, options)))
  return f
}

/**
 * 1000000 -> '1,000,000' for a whole number, as `toLocaleString('en-US')` writes it, without ICU: for text made when a
 * module loads (schemas' messages, API descriptions), which would otherwise load ICU's number data at every start.
 */
export const groupThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')

const PLAIN: Intl.NumberFormatOptions = {}
/** 1500000 -> '1,500,000', as `toLocaleString('en-US')` writes it (counts, sizes), from the cached formatter. */
export const grouped = (n: number) => numberFormat('en-US', PLAIN).format(n)
