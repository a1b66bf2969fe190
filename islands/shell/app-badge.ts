// The app icon's badge (issue 33), apart from ./app-worker.ts so that the matches' badge does not bring the rest.

/** The app icon's badge: unseen matches where the platform shows one (an installed app on most systems). */
export function setAppBadge(count: number) {
  const nav = navigator as Navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> }
  if (count > 0) nav.setAppBadge?.(count).catch(() => {})
  else nav.clearAppBadge?.().catch(() => {})
}
