/**
 * Text as search folds it: accents off (NFKD, marks dropped), lower case, split on anything not a letter or digit. The
 * cache's search judge (affects.ts) and duplicate control's word overlap (duplicates.ts) compare words this way.
 */
export const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
export const words = (s: string) => fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean)
