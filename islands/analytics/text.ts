// SPEC section 2 "Analytics & Reports" and section 8 "Analytics": every sentence of this screen, in one place.
export const TEXT = {
  title: 'Analytics & Reports',
  globalScope: 'Global analytics across all cities',
  cityScope: (city: string | null) => `Analytics for ${city || 'your city'}`,
  refresh: 'Refresh',
  export: 'Export Report',
  exporting: 'Exporting...',
  trendsTitle: 'Listing Trends',
  trendsEmpty: 'No data available for the selected period',
  customRange: 'Custom Range',
  distributionTitle: 'Listing Distribution',
  distributionEmpty: 'No data available',
  topBrokersTitle: 'Top Brokers by Listings',
  listings: (n: number) => `${n.toLocaleString('en-US')} listings`,
  failedTitle: 'Failed to Load Analytics',
  failed: 'There was an error loading the analytics data. Please try again.',
  retry: 'Retry',
} as const

/** The four stat cards, in order. */
export const STAT_CARDS = [
  { key: 'total_requirements', label: 'Requirements', series: 'requirements' },
  { key: 'total_availabilities', label: 'Availabilities', series: 'availabilities' },
  { key: 'active_brokers', label: 'Active Brokers', series: null },
  { key: 'new_posts_today', label: 'New Today', series: null },
] as const

export const PERIODS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 180, label: 'Last 6 months' },
  { days: 365, label: 'Last year' },
] as const

/**
 * Series colours, shared by the line chart (canvas, so concrete values) and the pie (SVG attributes):
 * Requirements blue, Availabilities green, as the stat cards' info and success tones.
 */
export const SERIES = {
  requirements: { label: 'Requirements', color: '#2563eb' },
  availabilities: { label: 'Availabilities', color: '#16a34a' },
} as const
