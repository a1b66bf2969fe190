import type { Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/context'
import { conflict, forbidden, invalid, notFound } from '../../platform/errors'
import { hammingDistance, ImageRefused, imageLimits, type ImagePool, type ProcessedPhoto } from '../../platform/images'
import { photoUrl, PHOTO_NAME } from '../../shared/photo-url'
import type { ListingParts, ListingWrite } from '../listings/after-write'
import { getListing, listingsByIds, visibleIds, type Viewer } from '../listings/store/read'
import { setCover } from '../listings/store'
import type { PhotoStore } from '../../platform/photo-store'
import { MAX_PHOTOS_PER_LISTING, type Photo, type PhotoList, type UploadAnswer } from './model'
import { deletePhoto, deletePhotosOf, hashesBesides, insertPhoto, storedUploads, listingsOfFile, photosOf, photosOfOwner, setOrder, unreferenced, type PhotoRow } from './store'

/** Hashes this close are the same picture: recompressed and resized copies differ in 0–2 bits, other photos in ~32. */
const SAME_PHOTO_BITS = 8

const toPhoto = (p: PhotoRow): Photo => ({
  id: p.id,
  position: p.position,
  url: photoUrl(p.large),
  width: p.largeWidth,
  height: p.largeHeight,
  thumb_url: photoUrl(p.thumb),
  thumb_width: p.thumbWidth,
  thumb_height: p.thumbHeight,
})

/** A file's name as the person chose it, safe to repeat in an answer: no control characters, at most 60 of the rest. */
const shownName = (name: string) => name.replace(/[\p{Cc}\p{Cf}]/gu, '').slice(0, 60)

/**
 * Listing photos (issue 34): checked and re-encoded by the image pool (src/platform/images, in a process of its own),
 * stored by their content (./files.ts), listed in order with the first as the cover, which is kept in the listing's
 * row for cards and rows (listings/store.ts `setCover`). Who may see a listing may see its photos; who may change it
 * may change them.
 */
export type { PhotoRow }

export class PhotoService {
  /** A deleted listing's file names, from its transaction to its commit. */
  private readonly leaving = new WeakMap<ListingWrite, string[]>()

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'config' | 'logger'>,
    private readonly images: ImagePool,
    readonly files: PhotoStore,
  ) {}

  private get db(): Queryable {
    return this.ctx.db
  }

  async list(viewer: Viewer, listingId: number): Promise<PhotoList> {
    await getListing(this.db, viewer, listingId)
    return this.answer(listingId)
  }

  private async answer(listingId: number): Promise<PhotoList> {
    return { photos: (await photosOf(this.db, listingId)).map(toPhoto), max: MAX_PHOTOS_PER_LISTING }
  }

  /** The listing, when the actor may change it: not visible is 404, visible but not theirs 403. */
  private async changeable(actor: Viewer, listingId: number) {
    const listing = await getListing(this.db, actor, listingId)
    if (!listing.is_editable) throw forbidden('Only the listing’s owner (or an admin of its city) can change its photos')
    return listing
  }

  /**
   * Adds photos after the ones there. Each is checked and turned into its two WebP sizes first (a refusal names the
   * file and changes nothing), then stored, then recorded in one transaction that checks the listing's and the
   * owner's limits again.
   */
  async add(actor: Viewer, listingId: number, uploads: File[], uploadKey?: string): Promise<UploadAnswer> {
    const listing = await this.changeable(actor, listingId)
    // Idempotency (issue 34): a retry of an upload that had in fact been stored answers what is stored, adding nothing.
    const keys = uploadKey ? uploads.map((_, i) => (uploads.length === 1 ? uploadKey : `${uploadKey}/${i}`)) : null
    const replay = async () => keys !== null && (await storedUploads(this.db, listingId, keys)) === keys.length
    if (await replay()) return { ...(await this.answer(listingId)), duplicates: [] }
    await this.withinLimits(listingId, listing.owner_user_id, uploads.length)
    const done: ProcessedPhoto[] = []
    // One at a time: the pool queues a few photos per process and refuses more (503), and each takes ~300 ms.
    for (const [i, upload] of uploads.entries()) {
      try {
        if (upload.size > imageLimits.MAX_UPLOAD_BYTES) throw new ImageRefused('too-large', 'This photo is larger than 15 MB: send a smaller one.')
        done.push(await this.images.process(new Uint8Array(await upload.arrayBuffer())))
      } catch (e) {
        if (e instanceof ImageRefused && uploads.length > 1) throw new ImageRefused(e.code, `Photo ${i + 1} (${shownName(upload.name)}): ${e.detail} No photo was added.`)
        throw e
      }
    }
    for (const p of done) {
      await this.files.save(p.large.name, p.large.bytes)
      await this.files.save(p.thumb.name, p.thumb.bytes)
    }
    const now = Date.now()
    let stored = false
    try {
      stored = await this.record(listingId, listing.owner_user_id, done, keys, now)
    } catch (e) {
      // Two attempts of the same upload at once: the other stored it (the key's unique index refused this one).
      if (await replay()) return { ...(await this.answer(listingId)), duplicates: [] }
      throw e
    }
    if (!stored) return { ...(await this.answer(listingId)), duplicates: [] }
    return { ...(await this.answer(listingId)), duplicates: await this.samePhotoElsewhere(actor, listingId, done.map((p) => p.phash)) }
  }

  /** Records processed photos in one transaction that checks the limits again; false when their keys were there. */
  private async record(listingId: number, ownerUserId: number, done: ProcessedPhoto[], keys: string[] | null, now: number): Promise<boolean> {
    return this.db.tx(async (tx) => {
      if (keys && (await storedUploads(tx, listingId, keys)) === keys.length) return false
      const existing = await photosOf(tx, listingId)
      await this.withinLimits(listingId, ownerUserId, done.length, tx)
      for (const [i, p] of done.entries())
        await insertPhoto(
          tx,
          {
            listingId,
            ownerUserId,
            large: p.large.name,
            largeWidth: p.large.width,
            largeHeight: p.large.height,
            thumb: p.thumb.name,
            thumbWidth: p.thumb.width,
            thumbHeight: p.thumb.height,
            bytes: p.large.bytes.byteLength + p.thumb.bytes.byteLength,
            phash: p.phash,
            createdAt: now,
          },
          existing.length + i,
          keys?.[i] ?? null,
        )
      if (existing.length === 0) await this.keepCover(tx, listingId)
      return true
    })
  }

  /**
   * Duplicate control (issue 34): the other ACTIVE listings the actor sees that show one of these photos, as the
   * duplicate warning lists them (reason `same_photo`). A scan of every other photo's 64-bit hash: about 50 ms for a
   * million photos' worth of hex in this process; a band index would take over beyond that.
   */
  private async samePhotoElsewhere(actor: Viewer, listingId: number, hashes: string[]): Promise<UploadAnswer['duplicates']> {
    const closest = new Map<number, number>()
    for (const other of await hashesBesides(this.db, listingId))
      for (const h of hashes) {
        const bits = hammingDistance(h, other.phash)
        if (bits <= SAME_PHOTO_BITS && bits < (closest.get(other.listingId) ?? 65)) closest.set(other.listingId, bits)
      }
    if (closest.size === 0) return []
    const listings = await listingsByIds(this.db, actor, [...closest.keys()])
    return [...closest.entries()]
      .sort(([a, x], [b, y]) => x - y || b - a)
      .flatMap(([id, bits]) => {
        const listing = listings.get(id)
        return listing && listing.status === 'ACTIVE' ? [{ listing, own: listing.owner_user_id === actor.id, similarity: Math.round((1 - bits / 64) * 100) / 100, reasons: ['same_photo' as const] }] : []
      })
      .slice(0, 10)
  }

  /** The listing's 10 and the owner's quota; `adding` more would pass one of them: 409 saying which. */
  private async withinLimits(listingId: number, ownerUserId: number, adding: number, db: Queryable = this.db): Promise<void> {
    const has = (await photosOf(db, listingId)).length
    if (has + adding > MAX_PHOTOS_PER_LISTING)
      throw conflict(`A listing holds at most ${MAX_PHOTOS_PER_LISTING} photos: this one has ${has}, so ${Math.max(0, MAX_PHOTOS_PER_LISTING - has)} more can be added.`)
    const quota = this.ctx.config.photoQuota
    const used = await photosOfOwner(db, ownerUserId)
    if (used + adding > quota)
      throw conflict(
        `Photo allowance reached: the owner’s listings hold ${used} of the ${quota} photos allowed. Remove photos from closed or old listings to add new ones.`,
      )
  }

  /** Sets the order; `ids` must be the listing's photos, each once. The first becomes the cover. */
  async reorder(actor: Viewer, listingId: number, ids: number[]): Promise<PhotoList> {
    await this.changeable(actor, listingId)
    await this.db.tx(async (tx) => {
      const have = (await photosOf(tx, listingId)).map((p) => p.id)
      const same = ids.length === have.length && new Set(ids).size === ids.length && ids.every((id) => have.includes(id))
      if (!same) throw invalid('Send every photo of the listing once, in the order wanted (the list changed? Reload it).')
      await setOrder(tx, listingId, ids)
      await this.keepCover(tx, listingId)
    })
    return this.answer(listingId)
  }

  /** Makes one photo the cover: it moves to the front, the others keep their order. */
  async chooseCover(actor: Viewer, listingId: number, photoId: number): Promise<PhotoList> {
    await this.changeable(actor, listingId)
    await this.db.tx(async (tx) => {
      const ids = (await photosOf(tx, listingId)).map((p) => p.id)
      if (!ids.includes(photoId)) throw notFound('Photo not found')
      await setOrder(tx, listingId, [photoId, ...ids.filter((id) => id !== photoId)])
      await this.keepCover(tx, listingId)
    })
    return this.answer(listingId)
  }

  async remove(actor: Viewer, listingId: number, photoId: number): Promise<void> {
    await this.changeable(actor, listingId)
    const gone = await this.db.tx(async (tx) => {
      const row = await deletePhoto(tx, listingId, photoId)
      if (!row) throw notFound('Photo not found')
      await setOrder(tx, listingId, (await photosOf(tx, listingId)).map((p) => p.id))
      await this.keepCover(tx, listingId)
      return row
    })
    await this.removeFiles([gone.large, gone.thumb])
  }

  /** The listing's row names its first photo's thumbnail (or none): what cards and rows show. */
  private async keepCover(tx: Queryable, listingId: number): Promise<void> {
    const first = (await photosOf(tx, listingId))[0]
    await setCover(tx, listingId, first ? { name: first.thumb, width: first.thumbWidth, height: first.thumbHeight } : null)
  }

  /**
   * Files no photo refers to any more, removed (a photo shared with another listing stays). After the rows' commit, so
   * a store that does not answer (S3 away) cannot undo a removal the person was told of: the file is left behind, named
   * in the log, and nothing serves it (no row names it).
   */
  private async removeFiles(names: string[]): Promise<void> {
    for (const name of await unreferenced(this.db, names))
      await this.files.remove(name).catch((e: Error) => this.ctx.logger.error({ photos: { file: name, error: e.message } }, 'removing a photo file failed; it stays in the store'))
  }

  /**
   * A stored file, for whoever may see a listing it belongs to; anyone else (and a name that is no photo's) gets
   * 404, as for the listing itself.
   */
  async file(viewer: Viewer, name: string): Promise<Blob> {
    if (!PHOTO_NAME.test(name)) throw notFound('Photo not found')
    const listings = await listingsOfFile(this.db, name)
    if (listings.length === 0 || (await visibleIds(this.db, viewer, listings)).length === 0) throw notFound('Photo not found')
    const blob = await this.files.read(name)
    if (!blob) throw notFound('Photo not found')
    return blob
  }

  /** A listing's photos for its public page (share-links/), which has judged the link itself. */
  photosForLink(listingId: number): Promise<PhotoRow[]> {
    return photosOf(this.db, listingId)
  }

  /** One of this listing's files, for its public page; null when the name is none of its photos'. */
  async fileForLink(listingId: number, name: string): Promise<Blob | null> {
    if (!PHOTO_NAME.test(name)) return null
    const own = (await photosOf(this.db, listingId)).some((p) => p.large === name || p.thumb === name)
    return own ? this.files.read(name) : null
  }

  /**
   * The listing's cover as a 1200 × 630 JPEG preview card (a public page's Open Graph image), made from its stored large
   * image in the image process; the last few kept in memory, as a preview fetcher may come back for each message.
   */
  async coverCard(listingId: number): Promise<Uint8Array | null> {
    const cover = (await photosOf(this.db, listingId))[0]
    if (!cover) return null
    const kept = this.cards.get(cover.large)
    if (kept) return kept
    const large = await this.files.read(cover.large)
    if (!large) return null
    const card = await this.images.card(new Uint8Array(await large.arrayBuffer()))
    if (this.cards.size >= 64) this.cards.delete(this.cards.keys().next().value!)
    this.cards.set(cover.large, card)
    return card
  }
  private readonly cards = new Map<string, Uint8Array>()

  /** What follows a listing write (listings/after-write.ts): a deleted listing's photos go with it. */
  readonly parts: ListingParts = {
    within: async (tx, w) => {
      if (w.after === null && w.before) this.leaving.set(w, await deletePhotosOf(tx, w.before.id))
    },
    committed: (w) => {
      const names = this.leaving.get(w)
      if (!names?.length) return
      this.removeFiles(names).catch((e: Error) => this.ctx.logger.error({ photos: { error: e.message } }, 'removing a deleted listing’s photo files failed'))
    },
  }
}
