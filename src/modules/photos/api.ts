import { Elysia, t } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail, NoContent } from '../../shared/schema'
import { ListingPhotoParams, OrderBody, PhotoFileParams, PhotoList, PhotoParams, UploadAnswer, UploadBody } from './model'
import type { PhotoService } from './service'
import { invalid } from '../../platform/errors'

/** An upload's idempotency key (issue 34): what a client makes up per photo, random enough not to meet another's. */
const UPLOAD_KEY = /^[A-Za-z0-9_-]{8,100}$/
const uploadKeyOf = (request: Request): string | undefined => {
  const key = request.headers.get('idempotency-key')
  if (key === null) return undefined
  if (!UPLOAD_KEY.test(key)) throw invalid('Idempotency-Key must be 8 to 100 letters, digits, - or _')
  return key
}

const tags = ['Photos']
const errors = { 401: Detail, 403: Detail, 404: Detail, 409: Detail }
const refusals = { 413: Detail, 415: Detail, 422: t.Any(), 503: Detail }

/**
 * A year, and never looked at again: the address is the content's hash, so a changed photo has another. `private`:
 * each answer was judged for its viewer (the listing's scope), so no shared cache may hand it to someone else.
 */
export const IMMUTABLE = 'private, max-age=31536000, immutable'

/**
 * Listing photos (issue 34). Reading needs `read:listing` and the listing in the caller's scope (404 otherwise, as for
 * the listing); changing them `manage:listing` and a listing the caller may change (403 when they only see it).
 */
export const photosApi = (ctx: AppContext, photos: PhotoService) =>
  new Elysia({ name: 'photos-api' })
    .use(authGuard(ctx))
    .get('/api/listings/:id/photos', ({ params, user }) => photos.list(user, params.id), {
      permission: 'read:listing:own',
      params: ListingPhotoParams,
      response: { 200: PhotoList, ...errors },
      detail: { tags, summary: 'A listing’s photos, the cover first', description: 'Whoever may see the listing (404 otherwise, as for the listing).' },
    })
    .post(
      '/api/listings/:id/photos',
      async ({ params, body, user, set, request }) => {
        const answer = await photos.add(user, params.id, body.photos, uploadKeyOf(request))
        set.status = 201
        return answer
      },
      {
        permission: 'manage:listing:own',
        params: ListingPhotoParams,
        body: UploadBody,
        type: 'multipart/form-data',
        response: { 201: UploadAnswer, ...errors, ...refusals },
        detail: {
          tags,
          summary: 'Add photos to a listing (multipart, field `photos`, one or more files)',
          description:
            'Each file is judged by its bytes, never its name or declared type: JPEG, PNG, WebP and HEIC/HEIF are accepted; SVG, GIF, PDF and anything else get 415; an animation, a header announcing more than 64 megapixels or a side over 20,000 px (refused before decoding), or a file that does not decode whole (truncated, damaged) 422; a file over 15 MB 413 (the request may be 16 MB at most). Each photo is turned upright, re-encoded without any metadata (no EXIF, GPS position or camera serial is kept) to a 1,600 px and a 320 px WebP; the upload itself is not kept. A refusal names the file and adds none of them. A listing holds at most 10 photos, and one owner’s listings at most the installation’s quota (PHOTO_QUOTA, default 500): 409 saying so. An `Idempotency-Key` header (8 to 100 letters, digits, `-` or `_`; 422 otherwise) makes a retry safe: when the photos of an upload with the same key are already on the listing (the connection dropped after they were stored), the answer is the listing’s photos and nothing is added again. 503 with `Retry-After` when photos cannot be processed right now. The owner, or an admin of the listing’s city; another broker gets 403.',
        },
      },
    )
    .put('/api/listings/:id/photos/order', ({ params, body, user }) => photos.reorder(user, params.id, body.ids), {
      permission: 'manage:listing:own',
      params: ListingPhotoParams,
      body: OrderBody,
      response: { 200: PhotoList, 422: t.Any(), ...errors },
      detail: { tags, summary: 'Reorder a listing’s photos (every id once; the first is the cover)' },
    })
    .post('/api/listings/:id/photos/:photoId/cover', ({ params, user }) => photos.chooseCover(user, params.id, params.photoId), {
      permission: 'manage:listing:own',
      params: PhotoParams,
      response: { 200: PhotoList, ...errors },
      detail: { tags, summary: 'Make a photo the cover (it moves first; the others keep their order)' },
    })
    .delete(
      '/api/listings/:id/photos/:photoId',
      async ({ params, user, set }) => {
        await photos.remove(user, params.id, params.photoId)
        set.status = 204
      },
      {
        permission: 'manage:listing:own',
        params: PhotoParams,
        response: { 204: NoContent('Removed'), ...errors },
        detail: { tags, summary: 'Remove one photo' },
      },
    )
    .get(
      '/photos/:name',
      async ({ params, user }) => new Response(await photos.file(user, params.name), { headers: { 'content-type': 'image/webp', 'cache-control': IMMUTABLE } }),
      {
        permission: 'read:listing:own',
        params: PhotoFileParams,
        // A stored photo (either size) by its content-hashed name, to whoever may see a listing it belongs to; anyone
        // else gets 404, as for the listing (another broker, for a SUSPENDED or EXPIRED listing's photos). Not an
        // operation of the API document: a file, like the assets.
        detail: { hide: true },
      },
    )
