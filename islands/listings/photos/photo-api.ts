import type { Photo, PhotoList, UploadAnswer } from '../../../src/modules/photos/model'
import { sendJson, fetchJson } from '../../shared/query'

export type { Photo, PhotoList, UploadAnswer }

export const photosPath = (listingId: number) => `/api/listings/${listingId}/photos`
export const listPhotos = (listingId: number) => fetchJson<PhotoList>(photosPath(listingId))
export const reorderPhotos = (listingId: number, ids: number[]) => sendJson<PhotoList>(`${photosPath(listingId)}/order`, 'PUT', { ids })
export const chooseCover = (listingId: number, photoId: number) => sendJson<PhotoList>(`${photosPath(listingId)}/${photoId}/cover`, 'POST')
export const removePhoto = (listingId: number, photoId: number) => sendJson<void>(`${photosPath(listingId)}/${photoId}`, 'DELETE')

/** A photo's upload key (issue 34): made once per photo, sent with each attempt, so a retry is never stored twice. */
export const newUploadKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')

/** A failed attempt: `retry` when trying again may work (the connection, the server busy or away), not a refusal. */
export class UploadFailed extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message)
  }
}

/**
 * One photo sent on its own request, its progress told as it goes (fetch cannot tell an upload's progress; XHR can),
 * with its `Idempotency-Key`. Resolves with the listing's photos; rejects with an UploadFailed carrying the server's
 * `detail` (or a network failure's words) and whether to try again.
 */
export function uploadPhoto(listingId: number, file: File, onProgress: (fraction: number) => void, key?: string): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', photosPath(listingId))
    if (key) xhr.setRequestHeader('Idempotency-Key', key)
    xhr.responseType = 'json'
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total)
    xhr.onload = () => {
      if (xhr.status === 201) return resolve(xhr.response as UploadAnswer)
      const detail = (xhr.response as { detail?: unknown } | null)?.detail
      reject(new UploadFailed(typeof detail === 'string' ? detail : `The photo could not be added (${xhr.status}).`, xhr.status === 0 || xhr.status === 429 || xhr.status >= 500))
    }
    xhr.onerror = () => reject(new UploadFailed('The connection dropped: try again.', true))
    xhr.ontimeout = xhr.onerror
    const body = new FormData()
    body.append('photos', file, file.name)
    xhr.send(body)
  })
}
