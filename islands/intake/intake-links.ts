// The paste screen's addresses and the two words the listing screens show for it (a button, a menu item): apart from
// ./intake-text.ts, which holds the paste screen's and the share dialog's whole copy (4 KB), so that the listing
// screens' scripts do not carry it (docs/decisions/049-phone-last-kilobytes.md).

/** The "Paste from WhatsApp" screen (its route: src/modules/intake/pages.ts; its links: the broker's listing screens). */
export const PASTE_PAGE_PATH = '/dashboard/paste'
/** Android's "Share → Brokernet" posts the shared text here (the manifest's share_target; issue 33). */
export const SHARE_PATH = '/dashboard/paste/share'

export const INTAKE_LINK_TEXT = {
  /** The paste screen's name: its title and the listing screens' button to it. */
  title: 'Paste from WhatsApp',
  /** A listing's menu item that opens the share dialog. */
  share: 'Share',
} as const
