// Issue 33, push alerts: the notifications screen's address and words, one place each.

export const NOTIFICATIONS_PAGE = '/dashboard/notifications'

export const KIND_LABELS = {
  match: ['New matches', 'A listing that matches one of yours is posted or changed to match'],
  saved_search: ['Saved searches', 'A new listing one of your INSTANT saved searches lets through'],
  expiring: ['Listings ending soon', 'One of your listings ends within 3 days'],
  registration: ['Registrations to review', 'A broker in your scope registers and waits for approval'],
  deal: ['Co-broking', 'A request for your listing, an answer to yours, or a step in one of your deals'],
} as const

export const PUSH_TEXT = {
  title: 'Notifications',
  intro: 'Alerts on your phone or computer the moment something happens, even with Brokernet closed.',
  thisDevice: 'This device',
  on: 'Alerts are on for this device.',
  off: 'Alerts are off for this device.',
  turnOn: 'Turn on alerts here',
  turnOff: 'Turn off alerts here',
  unsupported: "This browser can't take push alerts. On a phone, install Brokernet first (Add to Home screen), then turn them on here.",
  denied: 'This browser blocks notifications from Brokernet: allow them in its site settings, then try again.',
  devices: 'Your devices',
  noDevices: 'No device takes alerts yet.',
  remove: 'Remove',
  kinds: 'Which alerts',
  quiet: 'Quiet hours',
  quietHint: 'Alerts that come during quiet hours are held and arrive together in one summary when they end.',
  quietOn: 'Hold alerts during quiet hours',
  from: 'From',
  to: 'To',
  zone: 'Time zone',
  useDeviceZone: (zone: string) => `Use this device's (${zone})`,
  held: (n: number) => (n === 1 ? '1 alert is held until your quiet hours end.' : `${n} alerts are held until your quiet hours end.`),
  save: 'Save',
  saved: 'Notification settings saved',
} as const
