// An S3-compatible service's side on loopback, for tests (issue 34): no real bucket is reachable here, and a mock of our
// own store would test nothing. It implements what S3 checks and answers, and nothing of our code:
// - AWS Signature Version 4 on every request (header form): the canonical request rebuilt from what arrived (method,
//   path, query sorted and encoded as AWS encodes it, the signed headers' values, x-amz-content-sha256), the string to
//   sign with the credential scope, the signing key derived from the secret (HMAC chain over date, region, "s3",
//   "aws4_request"), compared with the Authorization header's signature; x-amz-date within 15 minutes of now; the
//   scope's date the same day as x-amz-date and its region this service's; x-amz-content-sha256 equal to the body's
//   SHA-256 unless it is UNSIGNED-PAYLOAD (what Bun's client sends, and S3 accepts over any transport);
// - path-style buckets: PUT/GET/HEAD/DELETE of an object, ListObjectsV2 (`GET /<bucket>?list-type=2`, with prefix,
//   max-keys and continuation-token), with S3's status codes and XML errors (403 SignatureDoesNotMatch,
//   InvalidAccessKeyId, RequestTimeTooSkewed; 404 NoSuchKey, NoSuchBucket; 400 XAmzContentSHA256Mismatch,
//   AuthorizationHeaderMalformed; 503 SlowDown);
// - told to fail: `mode('slow-down')` answers every request 503 SlowDown, `mode('hang')` never answers, `stop()` closes
//   the port (connection refused) and `start()` opens it again on the same port, objects kept.
// Objects live in memory, per bucket. Written by hand from AWS's documentation of SigV4 ("Create a signed AWS API
// request") and S3's REST API; tests/unit/s3-service.test.ts checks it refuses what S3 would.

const utf8 = new TextEncoder()
const hex = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('hex')
const sha256Hex = (data: Uint8Array | string) => new Bun.CryptoHasher('sha256').update(data).digest('hex')
const hmac = (key: Uint8Array | string, data: string) => new Uint8Array(new Bun.CryptoHasher('sha256', key).update(data).digest().buffer as ArrayBuffer)

export const UNSIGNED = 'UNSIGNED-PAYLOAD'
const MAX_SKEW_MS = 15 * 60_000

/** AWS's URI encoding (RFC 3986 unreserved characters kept, everything else %XX in upper case); `/` kept in a path. */
export function awsEncode(text: string, keepSlash = false): string {
  let out = ''
  for (const byte of utf8.encode(text)) {
    const c = String.fromCharCode(byte)
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) out += c
    else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0')
  }
  return out
}

/** The signing key: HMAC-SHA256 chained from "AWS4" + secret over the scope's date, region, service and terminator. */
export const signingKey = (secret: string, date: string, region: string, service = 's3') => hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request')

/** The canonical request for a request as it arrived (the raw path and query of its URL, its headers). */
export function canonicalRequest(method: string, url: URL, headers: Headers, signedHeaders: string[], payloadHash: string): string {
  // The path as sent, each segment decoded and encoded again the AWS way (S3 does not encode twice).
  const path = url.pathname
    .split('/')
    .map((segment) => awsEncode(decodeURIComponent(segment)))
    .join('/')
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [awsEncode(k), awsEncode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${(headers.get(h) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('')
  return [method, path || '/', query, canonicalHeaders, signedHeaders.join(';'), payloadHash].join('\n')
}

export function stringToSign(amzDate: string, scope: string, canonical: string): string {
  return ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n')
}

/** YYYYMMDDTHHMMSSZ → epoch ms, or NaN. */
function parseAmzDate(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text)
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)

function s3Error(status: number, code: string, message: string, resource = '', method = 'GET'): Response {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>${crypto.randomUUID()}</RequestId></Error>`
  // A HEAD's answer has no body: S3 gives only the status.
  return new Response(method === 'HEAD' ? null : body, { status, headers: { 'content-type': 'application/xml' } })
}

type StoredObject = { bytes: Uint8Array<ArrayBuffer>; type: string; etag: string; modified: Date }

/** A request the service refused, or answered with a failure it was told to give. */
export type Refusal = { method: string; path: string; status: number; code: string }

export type S3Service = {
  /** `http://127.0.0.1:<port>`: S3_ENDPOINT. */
  url: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** S3_* settings for an app using `bucket` (created if new). */
  env: (bucket: string, extra?: Record<string, string>) => Record<string, string>
  /** The objects of a bucket: key → bytes (a copy of the map; the bytes are the stored ones). */
  objects: (bucket: string) => Map<string, Uint8Array<ArrayBuffer>>
  createBucket: (bucket: string) => void
  /** 'ok' answers; 'slow-down' answers every request 503 SlowDown; 'hang' never answers (until set back). */
  mode: (mode: 'ok' | 'slow-down' | 'hang') => void
  /** Requests that passed the signature check, in order (method and key), and those refused. */
  accepted: { method: string; path: string }[]
  refused: Refusal[]
  /** Closes the port: connections are refused (objects kept). */
  stop: () => Promise<void>
  /** Opens the same port again. */
  start: () => void
  close: () => Promise<void>
}

/**
 * `listPageSize`: the most keys one ListObjectsV2 page holds whatever max-keys asks (S3 may return fewer; a small one
 * makes a client follow continuation tokens with a few objects).
 */
export function startS3Service({ region = 'us-east-1', accessKeyId = 'AKIATESTSTANDIN00001', secretAccessKey = `stand-in-secret/${crypto.randomUUID()}`, listPageSize = 1000 } = {}): S3Service {
  const buckets = new Map<string, Map<string, StoredObject>>()
  const accepted: S3Service['accepted'] = []
  const refused: Refusal[] = []
  let mode: 'ok' | 'slow-down' | 'hang' = 'ok'
  const hanging: (() => void)[] = []

  function refuse(req: Request, path: string, status: number, code: string, message: string) {
    refused.push({ method: req.method, path, status, code })
    return s3Error(status, code, message, path, req.method)
  }

  /** SigV4 (header form): null when the request is signed right, else S3's refusal. */
  function checkSignature(req: Request, url: URL, body: Uint8Array): Response | null {
    const path = url.pathname
    const auth = req.headers.get('authorization')
    if (!auth) return refuse(req, path, 403, 'AccessDenied', 'Access Denied')
    const m = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(auth)
    if (!m) return refuse(req, path, 400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.')
    const [, keyId, scopeDate, scopeRegion, signed, signature] = m as unknown as [string, string, string, string, string, string]
    if (keyId !== accessKeyId) return refuse(req, path, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.')
    if (scopeRegion !== region) return refuse(req, path, 400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; the region '${scopeRegion}' is wrong; expecting '${region}'`)
    const signedHeaders = signed.split(';')
    // S3 requires host and x-amz-date (or date) and x-amz-content-sha256 to be signed, in sorted order.
    if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-content-sha256') || !signedHeaders.includes('x-amz-date') || [...signedHeaders].sort().join(';') !== signed)
      return refuse(req, path, 400, 'AuthorizationHeaderMalformed', 'The authorization header must sign host, x-amz-content-sha256 and x-amz-date, in order.')
    const amzDate = req.headers.get('x-amz-date') ?? ''
    const at = parseAmzDate(amzDate)
    if (Number.isNaN(at)) return refuse(req, path, 403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header')
    if (Math.abs(Date.now() - at) > MAX_SKEW_MS) return refuse(req, path, 403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.')
    if (amzDate.slice(0, 8) !== scopeDate) return refuse(req, path, 403, 'SignatureDoesNotMatch', 'The credential date does not match x-amz-date.')
    const payloadHash = req.headers.get('x-amz-content-sha256') ?? ''
    if (payloadHash !== UNSIGNED) {
      if (!/^[0-9a-f]{64}$/.test(payloadHash)) return refuse(req, path, 400, 'InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD or a SHA-256 hex digest')
      if (payloadHash !== sha256Hex(body)) return refuse(req, path, 400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.")
    }
    const scope = `${scopeDate}/${region}/s3/aws4_request`
    const expected = hex(hmac(signingKey(secretAccessKey, scopeDate, region), stringToSign(amzDate, scope, canonicalRequest(req.method, url, req.headers, signedHeaders, payloadHash))))
    if (!crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature)))
      return refuse(req, path, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.')
    return null
  }

  function list(req: Request, bucket: string, objects: Map<string, StoredObject>, url: URL): Response {
    if (url.searchParams.get('list-type') !== '2') return refuse(req, url.pathname, 400, 'InvalidArgument', 'Only ListObjectsV2 (list-type=2) is implemented here')
    const prefix = url.searchParams.get('prefix') ?? ''
    const maxKeys = Math.min(listPageSize, Number(url.searchParams.get('max-keys') ?? 1000))
    const after = url.searchParams.get('continuation-token') ? Buffer.from(url.searchParams.get('continuation-token')!, 'base64url').toString() : (url.searchParams.get('start-after') ?? '')
    const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort()
    const page = keys.slice(0, maxKeys)
    const truncated = keys.length > page.length
    const contents = page
      .map((k) => {
        const o = objects.get(k)!
        return `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${o.modified.toISOString()}</LastModified><ETag>${xmlEscape(o.etag)}</ETag><Size>${o.bytes.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`
      })
      .join('')
    const next = truncated ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString('base64url')}</NextContinuationToken>` : ''
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(bucket)}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`
    return new Response(body, { headers: { 'content-type': 'application/xml' } })
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url)
    const body = new Uint8Array(await req.arrayBuffer())
    if (mode === 'hang') return new Promise<Response>((resolve) => hanging.push(() => resolve(s3Error(503, 'SlowDown', 'Please reduce your request rate.', url.pathname, req.method))))
    const bad = checkSignature(req, url, body)
    if (bad) return bad
    if (mode === 'slow-down') return refuse(req, url.pathname, 503, 'SlowDown', 'Please reduce your request rate.')
    const [, bucketName = '', ...rest] = url.pathname.split('/')
    const key = rest.map(decodeURIComponent).join('/')
    const objects = buckets.get(bucketName)
    if (!objects) return refuse(req, url.pathname, 404, 'NoSuchBucket', 'The specified bucket does not exist')
    accepted.push({ method: req.method, path: url.pathname })
    if (!key) return req.method === 'GET' ? list(req, bucketName, objects, url) : refuse(req, url.pathname, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.')
    switch (req.method) {
      case 'PUT': {
        const etag = `"${new Bun.CryptoHasher('md5').update(body).digest('hex')}"`
        objects.set(key, { bytes: body, type: req.headers.get('content-type') ?? 'binary/octet-stream', etag, modified: new Date() })
        return new Response(null, { status: 200, headers: { etag } })
      }
      case 'GET':
      case 'HEAD': {
        const o = objects.get(key)
        if (!o) return refuse(req, url.pathname, 404, 'NoSuchKey', 'The specified key does not exist.')
        const headers = { 'content-type': o.type, etag: o.etag, 'last-modified': o.modified.toUTCString(), 'content-length': String(o.bytes.length) }
        return new Response(req.method === 'HEAD' ? null : o.bytes, { headers })
      }
      case 'DELETE':
        objects.delete(key)
        return new Response(null, { status: 204 })
      default:
        return refuse(req, url.pathname, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.')
    }
  }

  let server: ReturnType<typeof Bun.serve> | null = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handle })
  const port = server.port!
  const url = `http://127.0.0.1:${port}`
  const release = () => hanging.splice(0).forEach((answer) => answer())

  return {
    url,
    region,
    accessKeyId,
    secretAccessKey,
    env: (bucket, extra = {}) => {
      if (!buckets.has(bucket)) buckets.set(bucket, new Map())
      return { S3_BUCKET: bucket, S3_ENDPOINT: url, S3_REGION: region, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, ...extra }
    },
    objects: (bucket) => new Map([...(buckets.get(bucket) ?? new Map<string, StoredObject>()).entries()].map(([k, o]) => [k, o.bytes])),
    createBucket: (bucket) => void (buckets.has(bucket) || buckets.set(bucket, new Map())),
    mode: (next) => {
      mode = next
      if (next !== 'hang') release()
    },
    accepted,
    refused,
    stop: async () => {
      release()
      await server?.stop(true)
      server = null
    },
    start: () => {
      server ??= Bun.serve({ hostname: '127.0.0.1', port, fetch: handle })
    },
    close: async () => {
      release()
      await server?.stop(true)
      server = null
    },
  }
}
