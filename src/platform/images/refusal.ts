// The two ways processPhoto fails. A refusal is the file's fault and says what to fix; the photo feature answers it
// with its status and `detail`. Unavailable is ours (busy, or the image library could not start): 503, try again.

export type RefusalCode =
  /** More than MAX_UPLOAD_BYTES (413). */
  | 'too-large'
  /** Not a JPEG, PNG, WebP or HEIC/HEIF (AVIF) image, judged by its bytes: SVG, GIF, PDF, HTML, video… (415). */
  | 'unsupported-type'
  /** An accepted type holding an animation or image sequence (422). */
  | 'animated'
  /** Its header announces more pixels, or a longer side, than MAX_PIXELS / MAX_SIDE: refused before decoding (422). */
  | 'too-many-pixels'
  /** Truncated, damaged or not what its first bytes claim: it does not decode completely (422). */
  | 'undecodable'

const STATUS: Record<RefusalCode, 413 | 415 | 422> = {
  'too-large': 413,
  'unsupported-type': 415,
  animated: 422,
  'too-many-pixels': 422,
  undecodable: 422,
}

export class ImageRefused extends Error {
  readonly status: 413 | 415 | 422
  constructor(
    readonly code: RefusalCode,
    /** A sentence for the person who uploaded the file; never the decoder's own text or the file's bytes. */
    readonly detail: string,
  ) {
    super(detail)
    this.name = 'ImageRefused'
    this.status = STATUS[code]
  }
}

export class ImagesUnavailable extends Error {
  readonly status = 503 as const
  constructor(
    readonly detail: string,
    /** What went wrong for the log (a start failure's message), not for the client. */
    readonly reason?: string,
  ) {
    super(detail)
    this.name = 'ImagesUnavailable'
  }
}
