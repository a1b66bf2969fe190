import type { Queryable } from '../../../db/sql'

/** One public link (`listing_shares`, issue 34). */
export type ShareRow = { id: number; token: string; listingId: number; sharerUserId: number; views: number; createdAt: number; revokedAt: number | null }

const COLUMNS = `id, token, listing_id as "listingId", sharer_user_id as "sharerUserId", views, created_at as "createdAt", revoked_at as "revokedAt"`
const fix = (r: ShareRow): ShareRow => ({
  ...r,
  id: Number(r.id),
  listingId: Number(r.listingId),
  sharerUserId: Number(r.sharerUserId),
  views: Number(r.views),
  createdAt: Number(r.createdAt),
  revokedAt: r.revokedAt === null ? null : Number(r.revokedAt),
})

export const shareByToken = async (db: Queryable, token: string): Promise<ShareRow | null> => {
  const r = await db.get<ShareRow>(`select ${COLUMNS} from listing_shares where token = ?`, [token])
  return r ? fix(r) : null
}

/** The sharer's live link to the listing, if there is one. */
export const liveShare = async (db: Queryable, sharerUserId: number, listingId: number): Promise<ShareRow | null> => {
  const r = await db.get<ShareRow>(`select ${COLUMNS} from listing_shares where sharer_user_id = ? and listing_id = ? and revoked_at is null order by id desc limit 1`, [sharerUserId, listingId])
  return r ? fix(r) : null
}

export async function insertShare(db: Queryable, token: string, listingId: number, sharerUserId: number, now: number): Promise<ShareRow> {
  // A write with its answer: through a transaction, which holds the connection that writes (SQLite reads elsewhere).
  const r = await db.tx((tx) => tx.get<ShareRow>(`insert into listing_shares (token, listing_id, sharer_user_id, views, created_at) values (?, ?, ?, 0, ?) returning ${COLUMNS}`, [token, listingId, sharerUserId, now]))
  return fix(r!)
}

export const sharesOf = async (db: Queryable, sharerUserId: number): Promise<ShareRow[]> =>
  (await db.all<ShareRow>(`select ${COLUMNS} from listing_shares where sharer_user_id = ? order by id desc limit 500`, [sharerUserId])).map(fix)

/** Revokes the sharer's own link; answers whether there was one to revoke. */
export const revokeShare = async (db: Queryable, id: number, sharerUserId: number, now: number): Promise<boolean> =>
  (await db.run('update listing_shares set revoked_at = ? where id = ? and sharer_user_id = ? and revoked_at is null', [now, id, sharerUserId])).changes > 0

export const countView = async (db: Queryable, id: number): Promise<void> => void (await db.run('update listing_shares set views = views + 1 where id = ?', [id]))

/** The live links other brokers made of the listing, revoked: its owner withdrew their consent (issue 34). */
export const revokeOnward = async (db: Queryable, listingId: number, ownerUserId: number, now: number): Promise<number> =>
  (await db.run('update listing_shares set revoked_at = ? where listing_id = ? and sharer_user_id <> ? and revoked_at is null', [now, listingId, ownerUserId])).changes

