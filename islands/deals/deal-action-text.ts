// The two co-broking actions' names, which the listing and match screens show on another broker's listing: apart from
// ./deal-format.ts (the deals screens' words, labels and formats), so those screens' scripts do not carry the rest
// (docs/decisions/049-phone-last-kilobytes.md).
export const DEAL_ACTION_TEXT = {
  cobroke: 'I have a client for this',
  report: 'Report listing',
} as const
