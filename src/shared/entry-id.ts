import type { PostType } from './constants'

/** Three upper-case letters for a city name ('Mumbai' → 'MUM', 'New York' → 'NEW'); 'XXX' when it has none. */
export function cityCode(cityName: string): string {
  const letters = cityName.normalize('NFKD').replace(/[^A-Za-z]/g, '').toUpperCase()
  return (letters + 'XXX').slice(0, 3)
}

/** The readable, unique listing code: post type, city, and the listing's row id (`REQ-MUM-000123`). */
export function formatEntryId(postType: PostType, cityName: string, id: number): string {
  return `${postType}-${cityCode(cityName)}-${String(id).padStart(6, '0')}`
}
