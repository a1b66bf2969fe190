/**
 * The network's property types (issue 30): what the listing form suggests, the listing filters offer and saved searches
 * keep. The field stays free text; a listing with one of these is found by the type filter, which compares the text.
 * Read from WhatsApp, a type is written as one of these where the message means one (`2BHK` is a `2 BHK Apartment`,
 * an office an `Office Space`, a kothi an `Independent House`, a booth a `Retail Shop`), and as read otherwise
 * (`Bungalow`, `SCO`, `Hotel`).
 */
export const PROPERTY_TYPES = [
  'Studio',
  '1 RK',
  '1 BHK Apartment',
  '2 BHK Apartment',
  '3 BHK Apartment',
  '4 BHK Apartment',
  'Penthouse',
  'Villa',
  'Independent House',
  'Row House',
  'Office Space',
  'Retail Shop',
  'Showroom',
  'Plot',
  'Land',
  'Warehouse',
] as const

const AS_THE_NETWORK: Record<string, string> = {
  Office: 'Office Space',
  Shop: 'Retail Shop',
  // Chandigarh's booth is a small shop, and North India's kothi an independent house.
  Booth: 'Retail Shop',
  House: 'Independent House',
}

/** A type as the parser reads it (`2 BHK`, `Office`, `House`) to the network's (`2 BHK Apartment`, `Office Space`, `Independent House`). */
export function networkType(type: string): string {
  const bhk = /^(\d(?:\.5)?) BHK$/.exec(type)
  if (bhk) return `${bhk[1]} BHK Apartment`
  return AS_THE_NETWORK[type] ?? type
}
