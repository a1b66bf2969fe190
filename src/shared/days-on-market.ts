// Days on market (issue 35): whole days since a listing's property was first posted (`first_posted_at`). Worked out
// where it is shown, as the hotsheet's tag is: answers are cached until the data changes, the days run on the clock.

const DAY = 86_400_000

/** The "on market over" filter the list offers (the API takes any number of days). */
export const ON_MARKET_OVER_DAYS = 60

/** Whole days on the market at `now` (0 on the day of the first posting). */
export const daysOnMarket = (firstPostedAt: string, now = Date.now()): number => Math.max(0, Math.floor((now - Date.parse(firstPostedAt)) / DAY))

/** "32 days on market", "1 day on market", "On market today". */
export function daysOnMarketLabel(firstPostedAt: string, now = Date.now()): string {
  const days = daysOnMarket(firstPostedAt, now)
  return days === 0 ? 'On market today' : `${days} ${days === 1 ? 'day' : 'days'} on market`
}
