import type { Queryable } from '../../../db/sql'

/** One stored photo of a listing (`listing_photos`, issue 34). */
export type PhotoRow = {
  id: number
  listingId: number
  ownerUserId: number
  position: number
  large: string
  largeWidth: number
  largeHeight: number
  thumb: string
  thumbWidth: number
  thumbHeight: number
  bytes: number
  phash: string
  createdAt: number
}

const COLUMNS = `id, listing_id as "listingId", owner_user_id as "ownerUserId", position, large, large_width as "largeWidth",
  large_height as "largeHeight", thumb, thumb_width as "thumbWidth", thumb_height as "thumbHeight", bytes, phash, created_at as "createdAt"`

// PostgreSQL's bigint columns come back as numbers (the schema's mode), SQLite's integers as numbers: rows as they are.
const fix = (r: PhotoRow): PhotoRow => ({ ...r, id: Number(r.id), listingId: Number(r.listingId), ownerUserId: Number(r.ownerUserId), createdAt: Number(r.createdAt) })

/** A listing's photos in their order, the cover first. */
export const photosOf = async (db: Queryable, listingId: number): Promise<PhotoRow[]> =>
  (await db.all<PhotoRow>(`select ${COLUMNS} from listing_photos where listing_id = ? order by position, id`, [listingId])).map(fix)

/** How many photos the listings of this owner hold in all (the quota). */
export const photosOfOwner = async (db: Queryable, ownerUserId: number): Promise<number> =>
  Number((await db.get<{ n: number | string }>('select count(*) as n from listing_photos where owner_user_id = ?', [ownerUserId]))!.n)

export type NewPhoto = Omit<PhotoRow, 'id' | 'position'>

export async function insertPhoto(tx: Queryable, p: NewPhoto, position: number, uploadKey: string | null = null): Promise<void> {
  await tx.run(
    `insert into listing_photos (listing_id, owner_user_id, position, large, large_width, large_height, thumb, thumb_width, thumb_height, bytes, phash, created_at, upload_key)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [p.listingId, p.ownerUserId, position, p.large, p.largeWidth, p.largeHeight, p.thumb, p.thumbWidth, p.thumbHeight, p.bytes, p.phash, p.createdAt, uploadKey],
  )
}

/** How many of these upload keys the listing's photos already carry (a retried upload that had arrived). */
export const storedUploads = async (db: Queryable, listingId: number, keys: readonly string[]): Promise<number> =>
  Number((await db.get<{ n: number | string }>(`select count(*) as n from listing_photos where listing_id = ? and upload_key in (${keys.map(() => '?').join(', ')})`, [listingId, ...keys]))!.n)

/** Sets the photos' order: `ids` in the order wanted, each given its index. */
export async function setOrder(tx: Queryable, listingId: number, ids: number[]): Promise<void> {
  for (const [position, id] of ids.entries()) await tx.run('update listing_photos set position = ? where id = ? and listing_id = ?', [position, id, listingId])
}

export async function deletePhoto(tx: Queryable, listingId: number, id: number): Promise<PhotoRow | null> {
  const row = await tx.get<PhotoRow>(`delete from listing_photos where id = ? and listing_id = ? returning ${COLUMNS}`, [id, listingId])
  return row ? fix(row) : null
}

/** Removes every photo of a listing (it was deleted); answers the file names they had. */
export async function deletePhotosOf(tx: Queryable, listingId: number): Promise<string[]> {
  const rows = await tx.all<{ large: string; thumb: string }>('delete from listing_photos where listing_id = ? returning large, thumb', [listingId])
  return rows.flatMap((r) => [r.large, r.thumb])
}

/** Of these file names, those no photo refers to any more. */
export async function unreferenced(db: Queryable, names: string[]): Promise<string[]> {
  if (names.length === 0) return []
  // A listing's photos are at most 20 names: placeholders, not a JSON list.
  const list = names.map(() => '?').join(', ')
  const used = await db.all<{ name: string }>(`select large as name from listing_photos where large in (${list}) union select thumb as name from listing_photos where thumb in (${list})`, [
    ...names,
    ...names,
  ])
  const kept = new Set(used.map((r) => r.name))
  return [...new Set(names)].filter((n) => !kept.has(n))
}

/** The listings a stored file (either size) belongs to: whoever may see one of them may see the file. */
export const listingsOfFile = async (db: Queryable, name: string): Promise<number[]> =>
  (await db.all<{ id: number | string }>('select listing_id as id from listing_photos where large = ? or thumb = ?', [name, name])).map((r) => Number(r.id))

/** Every other listing's photo hashes (duplicate control; a few bytes a photo, compared in the process). */
export const hashesBesides = async (db: Queryable, listingId: number): Promise<{ listingId: number; phash: string }[]> =>
  (await db.all<{ listingId: number | string; phash: string }>('select listing_id as "listingId", phash from listing_photos where listing_id <> ?', [listingId])).map((r) => ({
    listingId: Number(r.listingId),
    phash: r.phash,
  }))

// ---- the photos' files on PostgreSQL (`photo_files`; ./files.ts keeps them on disk under SQLite) -----------------

/** Writes a file whole under its name; a name there already is kept as it is (the same content). */
export async function insertPhotoFile(db: Queryable, name: string, bytes: Uint8Array, now: number): Promise<void> {
  await db.run('insert into photo_files (name, bytes, created_at) values (?, ?, ?) on conflict (name) do nothing', [name, bytes, now])
}

/** A file's bytes, or null when there is none of that name. */
export const photoFileBytes = async (db: Queryable, name: string): Promise<Uint8Array<ArrayBuffer> | null> =>
  (await db.get<{ bytes: Uint8Array<ArrayBuffer> }>('select bytes from photo_files where name = ?', [name]))?.bytes ?? null

export async function deletePhotoFile(db: Queryable, name: string): Promise<void> {
  await db.run('delete from photo_files where name = ?', [name])
}
