// Copy shown on public pages, in one place.

export const SITE_NAME = 'Brokernet'

/** The theme's primary colour, oklch(50% 0.15 242) in sRGB (styles/app.css): the installed app's bar and icons. */
export const THEME_COLOR = '#0069b0'
/** The installed app's manifest (issue 33; src/modules/pwa/). */
export const MANIFEST_URL = '/manifest.webmanifest'

/** Marketing claims of SPEC section 1: copy, not data. */
export const MARKETING_STATS = [
  { value: '500+', label: 'Verified Brokers' },
  { value: '50+', label: 'Cities' },
  { value: '15+', label: 'Countries' },
  { value: '99%', label: 'Satisfaction Rate' },
] as const

export const SUPPORT = {
  email: 'support@brokernet.example',
  phone: '+91 22 4000 1234',
  hours: 'Monday to Saturday, 9:00 to 18:00 IST',
  address: 'Brokernet Support Desk, Bandra Kurla Complex, Mumbai 400051, India',
} as const

export const PUBLIC_NAV = [
  { href: '/', label: 'Home' },
  { href: '/about', label: 'About' },
] as const
