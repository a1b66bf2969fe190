import { PHOTO_NAME } from '../../shared/photo-url'
import { Unavailable } from '../errors'
import type { PhotoStore, S3Settings } from './types'

/** What a person reads when the bucket does not answer (the cause goes to the log, never to the client). */
export const S3_AWAY = 'Photo storage is not answering right now: try again in a minute.'

/**
 * An S3-compatible bucket through Bun's built-in client (`Bun.S3Client`: AWS Signature Version 4, no dependency, in the
 * compiled binary as it is). Every instance of a PostgreSQL deployment reads the same bucket. Each request has a
 * deadline of its own (`timeoutMs`): Bun's client takes no AbortSignal, so a request past it is left to finish on its
 * own and the caller is answered 503 at once; a hung bucket never holds an upload or an image open.
 */
export class S3PhotoStore implements PhotoStore {
  readonly kind = 's3'
  readonly client: Bun.S3Client
  constructor(
    readonly settings: S3Settings,
    private readonly onProblem: (message: string) => void = () => {},
  ) {
    this.client = new Bun.S3Client({
      bucket: settings.bucket,
      endpoint: settings.endpoint,
      region: settings.region,
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      sessionToken: settings.sessionToken,
      virtualHostedStyle: settings.virtualHostedStyle,
    })
  }

  key = (name: string) => this.settings.prefix + name

  async save(name: string, bytes: Uint8Array): Promise<void> {
    if (!PHOTO_NAME.test(name)) throw new Error(`not a photo name: ${name}`)
    // Written whatever is there: the same name is the same content, and a HEAD first would be a second round trip.
    await this.within(`writing ${name}`, () => this.client.write(this.key(name), bytes, { type: 'image/webp' }))
  }

  async read(name: string): Promise<Blob | null> {
    if (!PHOTO_NAME.test(name)) return null
    // Read whole (a large image is under 250 KB) before anything is answered: a bucket failing mid-stream would
    // otherwise break a response whose 200 was already sent.
    const bytes = await this.within(`reading ${name}`, () => this.client.file(this.key(name)).bytes(), { missing: null })
    return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/webp' }) : null
  }

  async remove(name: string): Promise<void> {
    if (!PHOTO_NAME.test(name)) return
    // S3 answers a DELETE of a missing key 204 as well: removing twice is fine.
    await this.within(`removing ${name}`, () => this.client.delete(this.key(name)))
  }

  /** Every photo name under the prefix (a backup's list), page by page. */
  async names(): Promise<string[]> {
    const names: string[] = []
    let continuationToken: string | undefined
    do {
      const page = await this.within('listing the photos', () => this.client.list({ prefix: this.settings.prefix, maxKeys: 1000, continuationToken }))
      for (const o of page.contents ?? []) {
        const name = o.key.slice(this.settings.prefix.length)
        if (o.key.startsWith(this.settings.prefix) && PHOTO_NAME.test(name)) names.push(name)
      }
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined
    } while (continuationToken)
    return names.sort()
  }

  /**
   * One request under the deadline. A missing key is `missing` when given (a read); anything else the bucket answers
   * (403 for a wrong secret, 503 SlowDown, a refused connection) or its silence is Unavailable: 503 for the client,
   * the cause for the log.
   */
  private async within<T, M = never>(what: string, request: () => Promise<T>, ifMissing?: { missing: M }): Promise<T | M> {
    let timer: Timer | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.settings.timeoutMs} ms`)), this.settings.timeoutMs)
    })
    try {
      return await Promise.race([request(), late])
    } catch (e) {
      const code = (e as { code?: string }).code
      if (ifMissing && code === 'NoSuchKey') return ifMissing.missing
      this.onProblem(`S3 ${what}: ${code ? `${code}: ` : ''}${(e as Error).message}`)
      throw new Unavailable(S3_AWAY, 30)
    } finally {
      clearTimeout(timer)
    }
  }
}
