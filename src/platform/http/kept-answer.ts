import { COMPRESSION, compress, negotiateEncoding, sentAsIs, wholeAnswerHeaders, withVary, type Answering, type Encoding } from './compression'

const JSON_TYPE = 'application/json'

/**
 * A JSON answer kept in a cache as it is sent (issue 36, docs/decisions/050-warm-path.md): its bytes, and each
 * compressed copy made once, the first time a client asks for that encoding. A warm read is then a lookup and a write
 * of bytes: no serialising, encoding or compressing per request. What the answer depends on (the caller's scope, the
 * query) is the cache's key; when it goes stale is the cache's business (db/snapshot-cache.ts).
 *
 * The answer is sent as compression (./compression.ts) would send it: `Vary: Accept-Encoding` and the client's
 * preferred encoding from `minBytes` on, as it is below that; the compression hook leaves it alone.
 */
export class KeptAnswer {
  /** Blobs, not byte arrays: a Response made of a Blob shares its bytes, one made of an array copies them. */
  private readonly body: Blob
  private readonly copies: Partial<Record<Encoding, Blob>> = {}
  readonly size: number

  /**
   * The Blob is made from the text itself: one copy of its UTF-8 bytes, where `new Blob([encoder.encode(text)])` made
   * two (the encoded array, then the Blob's own copy of it). Fresh memory is dear here: each new 4 KB page a large
   * allocation touches is a page fault, about 20 µs on the 2-core machine (a 22 KB page of listings took 4-5 of them
   * for each copy), and a busy process makes about 80 pages again per write (docs/decisions/080-write-path-under-load.md).
   */
  constructor(text: string) {
    this.body = new Blob([text])
    this.size = this.body.size
  }

  /**
   * The memory it may come to hold, for a cache's weight limit: its bytes and, at most, a compressed copy per encoding
   * (JSON compresses to well under a quarter; a copy is made only from `minBytes` on).
   */
  get weight(): number {
    return this.size * 1.5 + 200
  }

  /**
   * The answer to this request, in the encoding it accepts (a compressed copy's first request waits for it). It is
   * made whole here, headers and all, and the request's `set` emptied, as the compression hook makes a JSON answer:
   * Elysia otherwise made a second Response of every kept answer (its body read as a stream, each header of `set`
   * copied in one by one), which cost a warm read more than its lookup (issue 36). An answer that cannot be made
   * whole (a cookie to set) carries its type, and Elysia adds `set`.
   */
  response(request: Request, set: Answering): Response | Promise<Response> {
    const headers = wholeAnswerHeaders(set, JSON_TYPE) ?? new Headers({ 'content-type': JSON_TYPE })
    if (this.size < COMPRESSION.minBytes) return sentAsIs(new Response(this.body, { headers }))
    headers.set('vary', withVary(headers.get('vary')))
    const encoding = negotiateEncoding(request.headers.get('accept-encoding'))
    if (!encoding) return sentAsIs(new Response(this.body, { headers }))
    headers.set('content-encoding', encoding)
    const copy = this.copies[encoding]
    return copy ? sentAsIs(new Response(copy, { headers })) : this.compressed(encoding, headers)
  }

  private async compressed(encoding: Encoding, headers: Headers): Promise<Response> {
    const copy = (this.copies[encoding] ??= new Blob([compress(await this.body.bytes(), encoding)]))
    return sentAsIs(new Response(copy, { headers }))
  }
}
