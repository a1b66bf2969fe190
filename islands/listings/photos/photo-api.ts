import type { Photo, PhotoList, UploadAnswer } from '../../../src/modules/photos/model'
import { sendJson, fetchJson } from '../../shared/query'

export type { Photo, PhotoList, UploadAnswer }

export const photosPath = (listingId: number) => `/api/listings/${listingId}/photos`
export const listPhotos = (listingId: number) => fetchJson<PhotoList>(photosPath(listingId))
export const reorderPhotos = (listingId: number, ids: number[]) => sendJson<PhotoList>(`${photosPath(listingId)}/order`, 'PUT', { ids })
export const chooseCover = (listingId: number, photoId: number) => sendJson<PhotoList>(`${photosPath(listingId)}/${photoId}/cover`, 'POST')
export const removePhoto = (listingId: number, photoId: number) => sendJson<void>(`${photosPath(listingId)}/${photoId}`, 'DELETE')

/**
 * One photo sent on its own request, its progress told as it goes (fetch cannot tell an upload's progress; XHR can).
 * Resolves with the listing's photos; rejects with the server's `detail` (or a network failure's words) to retry by.
 */
export function uploadPhoto(listingId: number, file: File, onProgress: (fraction: number) => void): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', photosPath(listingId))
    xhr.responseType = 'json'
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total)
    xhr.onload = () => {
      if (xhr.status === 201) return resolve(xhr.response as UploadAnswer)
      const detail = (xhr.response as { detail?: unknown } | null)?.detail
      reject(new Error(typeof detail === 'string' ? detail : `The photo could not be added (${xhr.status}).`))
    }
    xhr.onerror = () => reject(new Error('The connection dropped: try again.'))
    xhr.ontimeout = xhr.onerror
    const body = new FormData()
    body.append('photos', file, file.name)
    xhr.send(body)
  })
}
