import { t } from 'elysia'

/** "N new since your last visit" (issue 17's hotsheet) for the broker dashboard. */
export const DashboardVisit = t.Object({
  since: t.Union([t.String({ format: 'date-time' }), t.Null()], {
    description: 'Where the current visit counts news from: the end of the previous visit (null before the first visit). The list’s `changed_since` with this value shows them.',
  }),
  new_count: t.Integer({ description: 'Listings the caller may see, not their own, posted, repriced or back on the market since then' }),
})
export type DashboardVisit = typeof DashboardVisit.static
