// Where a stored listing photo is served (issue 34): one place, so the listings' answers, the photos API and the
// screens agree. Names are content hashes (`<32 hex>.webp`), so the address changes when the picture does.

/** A stored photo's name: the first 128 bits of its WebP's SHA-256, hex. Nothing else ever reaches the disk or a URL. */
export const PHOTO_NAME = /^[a-f0-9]{32}\.webp$/

/**
 * Beside the static assets, not under /api: a file for <img>, not an operation of the API (its path parameter is a
 * name, not an id), answered only to whoever may see a listing it belongs to.
 */
export const photoUrl = (name: string) => `/photos/${name}`
