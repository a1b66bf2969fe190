// Outline icons (24×24, stroke) drawn inline: no icon font, no emoji that a system may lack.
const PATHS = {
  shield: 'M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6l7-3zm-3 9l2 2 4-4',
  building: 'M4 21V5a2 2 0 012-2h8a2 2 0 012 2v16M16 9h2a2 2 0 012 2v10M8 7h4M8 11h4M8 15h4M3 21h18',
  clipboard: 'M9 4h6a1 1 0 011 1v1H8V5a1 1 0 011-1zM8 5H6a2 2 0 00-2 2v12a2 2 0 002 2h12a2 2 0 002-2V7a2 2 0 00-2-2h-2M8 12h8M8 16h5',
  search: 'M11 4a7 7 0 100 14 7 7 0 000-14zm10 17l-5-5',
  chart: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  download: 'M12 4v11m0 0l-4-4m4 4l4-4M4 20h16',
  warning: 'M12 9v4m0 4h.01M10.3 3.9L2.4 18a2 2 0 001.7 3h15.8a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z',
  filter: 'M3 5h18l-7 8v5l-4 2v-7L3 5z',
  phone: 'M5 4h4l2 5-2.5 1.5a11 11 0 005 5L15 13l5 2v4a2 2 0 01-2 2A16 16 0 013 6a2 2 0 012-2z',
  chat: 'M21 12a8 8 0 01-11.6 7.1L4 20l1-4.6A8 8 0 1121 12z',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  mail: 'M3 6h18v12H3V6zm0 0l9 7 9-7',
  bell: 'M6 9a6 6 0 1112 0c0 5 2 7 2 7H4s2-2 2-7zm4 11h4',
} as const

export type IconName = keyof typeof PATHS

export function Icon({ name, className = 'h-6 w-6' }: { name: IconName; className?: string }) {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  )
}
