import { t } from 'elysia'
import { DuplicatesAnswer } from '../listings/model'

export const MAX_PHOTOS_PER_LISTING = 10

export const Photo = t.Object({
  id: t.Integer(),
  position: t.Integer({ description: '0 is the cover' }),
  url: t.String({ description: 'The 1,600 px WebP (longest side), at a content-hashed address served with `Cache-Control: immutable`' }),
  width: t.Integer(),
  height: t.Integer(),
  thumb_url: t.String({ description: 'The 320 px WebP thumbnail' }),
  thumb_width: t.Integer(),
  thumb_height: t.Integer(),
})
export type Photo = typeof Photo.static

export const PhotoList = t.Object({
  photos: t.Array(Photo, { description: 'In order, the cover first' }),
  max: t.Integer({ description: 'How many photos a listing may hold' }),
})

/** What an upload answers: the photos, and the ACTIVE listings one of the new photos is already on. */
export const UploadAnswer = t.Object({
  ...PhotoList.properties,
  duplicates: t.Array(DuplicatesAnswer.properties.duplicates.items, {
    description:
      'Duplicate control (issue 34): other ACTIVE listings the caller sees that show one of the photos just added (the same picture, resized or recompressed: a perceptual hash within 8 of 64 bits), reason `same_photo`; `similarity` is 1 − the bits apart / 64. Advice: the photos are added anyway.',
  }),
})
export type UploadAnswer = typeof UploadAnswer.static
export type PhotoList = typeof PhotoList.static

export const ListingPhotoParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
export const PhotoParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), photoId: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
export const PhotoFileParams = t.Object({ name: t.String({ pattern: '^[a-f0-9]{32}\\.webp$', description: 'A stored photo’s content-hashed name' }) })

export const UploadBody = t.Object({
  photos: t.Files({
    minItems: 1,
    maxItems: MAX_PHOTOS_PER_LISTING,
    description: 'One or more photos: JPEG, PNG, WebP or HEIC/HEIF, judged by their bytes; at most 15 MB each (the request at most 16 MB)',
  }),
})

export const OrderBody = t.Object({
  ids: t.Array(t.Integer({ minimum: 1 }), { maxItems: MAX_PHOTOS_PER_LISTING, description: 'Every photo of the listing, by id, in the order wanted; the first is the cover' }),
})
