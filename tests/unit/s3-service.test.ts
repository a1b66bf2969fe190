// The stand-in S3 service (tests/support/s3-service.ts) refuses what S3 refuses: checked against AWS's own published
// Signature Version 4 example, against Bun's built-in client (what the app uses), and with requests signed by hand and
// then altered.
import { afterAll, describe, expect, test } from 'bun:test'
import { awsEncode, canonicalRequest, signingKey, startS3Service, stringToSign, UNSIGNED } from '../support/s3-service'

const s3 = startS3Service()
afterAll(() => s3.close())

const hmacHex = (key: Uint8Array, data: string) => new Bun.CryptoHasher('sha256', key).update(data).digest('hex')
const sha256Hex = (data: Uint8Array | string) => new Bun.CryptoHasher('sha256').update(data).digest('hex')
const client = (overrides: Partial<Bun.S3Options> = {}) =>
  new Bun.S3Client({ endpoint: s3.url, bucket: 'unit', region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, ...overrides })
const codeOf = async (p: Promise<unknown>) => p.then(() => 'none', (e: { code?: string }) => e.code ?? String(e))

/** A request signed by hand with the stand-in's key, as an S3 SDK would sign it; `alter` changes it after signing. */
async function signed(method: string, path: string, { at = new Date(), body = '', payloadHash = UNSIGNED as string, secret = s3.secretAccessKey } = {}) {
  const url = new URL(s3.url + path)
  const amzDate = at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
  const headers = new Headers({ host: url.host, 'x-amz-date': amzDate, 'x-amz-content-sha256': payloadHash })
  const names = ['host', 'x-amz-content-sha256', 'x-amz-date']
  const scope = `${amzDate.slice(0, 8)}/${s3.region}/s3/aws4_request`
  const signature = hmacHex(signingKey(secret, amzDate.slice(0, 8), s3.region), stringToSign(amzDate, scope, canonicalRequest(method, url, headers, names, payloadHash)))
  headers.set('authorization', `AWS4-HMAC-SHA256 Credential=${s3.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`)
  return { url, headers, body }
}
const send = (r: { url: URL; headers: Headers; body: string }, method: string, path?: string) =>
  fetch(path ? s3.url + path : r.url, { method, headers: r.headers, body: method === 'PUT' ? r.body : undefined })

describe('Signature Version 4 as AWS documents it', () => {
  test('AWS’s published example (GET /test.txt from examplebucket, 24 May 2013) gives its published signature', () => {
    // docs.aws.amazon.com, "Signature Calculations for the Authorization Header", Example: GET Object.
    const url = new URL('https://examplebucket.s3.amazonaws.com/test.txt')
    const empty = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    const headers = new Headers({ host: url.host, range: 'bytes=0-9', 'x-amz-content-sha256': empty, 'x-amz-date': '20130524T000000Z' })
    const canonical = canonicalRequest('GET', url, headers, ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'], empty)
    const toSign = stringToSign('20130524T000000Z', '20130524/us-east-1/s3/aws4_request', canonical)
    expect(hmacHex(signingKey('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', '20130524', 'us-east-1'), toSign)).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41')
  })

  test('AWS’s encoding: unreserved characters kept, the rest %XX in upper case, / only in paths', () => {
    expect(awsEncode('photos/a b+c~é')).toBe('photos%2Fa%20b%2Bc~%C3%A9')
    expect(awsEncode('photos/a b', true)).toBe('photos/a%20b')
  })
})

describe('with Bun’s client, as the app talks to it', () => {
  test('PUT, GET, HEAD, DELETE and ListObjectsV2 page by page; a missing key is NoSuchKey', async () => {
    s3.createBucket('unit')
    const c = client()
    for (const n of [1, 2, 3, 4, 5]) await c.write(`p/${n}.webp`, new Uint8Array([n, n, n]), { type: 'image/webp' })
    await c.write('other/x', 'x')
    expect([...(await c.file('p/3.webp').bytes())]).toEqual([3, 3, 3])
    expect(await c.exists('p/3.webp')).toBe(true)
    const first = await c.list({ prefix: 'p/', maxKeys: 2 })
    expect(first.contents?.map((o) => o.key)).toEqual(['p/1.webp', 'p/2.webp'])
    expect(first.isTruncated).toBe(true)
    const second = await c.list({ prefix: 'p/', maxKeys: 10, continuationToken: first.nextContinuationToken })
    expect(second.contents?.map((o) => o.key)).toEqual(['p/3.webp', 'p/4.webp', 'p/5.webp'])
    await c.delete('p/3.webp')
    expect(await c.exists('p/3.webp')).toBe(false)
    expect(await codeOf(c.file('p/3.webp').bytes())).toBe('NoSuchKey')
    expect(await codeOf(client({ bucket: 'nobody' }).file('x').bytes())).toBe('NoSuchBucket')
  })

  test('a wrong secret, an unknown key id, another region: refused (403/400) with S3’s error codes', async () => {
    expect(await codeOf(client({ secretAccessKey: 'not-the-secret' }).write('p/x', 'x'))).toBe('SignatureDoesNotMatch')
    expect(await codeOf(client({ accessKeyId: 'AKIAUNKNOWN000000000' }).file('p/1.webp').bytes())).toBe('InvalidAccessKeyId')
    expect(await codeOf(client({ region: 'eu-west-1' }).file('p/1.webp').bytes())).toBe('AuthorizationHeaderMalformed')
    expect(s3.refused.map((r) => [r.status, r.code])).toContainEqual([403, 'SignatureDoesNotMatch'])
  })

  test('told to fail: 503 SlowDown; stopped: connection refused; started again: the objects are there', async () => {
    const c = client()
    s3.mode('slow-down')
    expect(await codeOf(c.file('p/1.webp').bytes())).toBe('SlowDown')
    s3.mode('ok')
    await s3.stop()
    expect(await codeOf(c.file('p/1.webp').bytes())).not.toBe('none')
    s3.start()
    expect([...(await c.file('p/1.webp').bytes())]).toEqual([1, 1, 1])
  })
})

describe('requests signed by hand, then altered', () => {
  test('signed right: answered; the same signature on another key, or an old date, or a body unlike its hash: refused', async () => {
    s3.createBucket('unit')
    const get = await signed('GET', '/unit/p/1.webp')
    expect((await send(get, 'GET')).status).toBe(200)
    const moved = await send(get, 'GET', '/unit/p/2.webp')
    expect(moved.status).toBe(403)
    expect(await moved.text()).toContain('<Code>SignatureDoesNotMatch</Code>')
    const old = await send(await signed('GET', '/unit/p/1.webp', { at: new Date(Date.now() - 20 * 60_000) }), 'GET')
    expect(old.status).toBe(403)
    expect(await old.text()).toContain('<Code>RequestTimeTooSkewed</Code>')
    const stillFresh = await send(await signed('GET', '/unit/p/1.webp', { at: new Date(Date.now() - 10 * 60_000) }), 'GET')
    expect(stillFresh.status).toBe(200)
    const put = await signed('PUT', '/unit/p/9.webp', { body: 'the signed body', payloadHash: sha256Hex('the signed body') })
    expect((await send({ ...put, body: 'another body' }, 'PUT')).status).toBe(400)
    expect((await send(put, 'PUT')).status).toBe(200)
    const wrongSecret = await send(await signed('GET', '/unit/p/1.webp', { secret: 'guess' }), 'GET')
    expect(wrongSecret.status).toBe(403)
    const unsigned = await fetch(`${s3.url}/unit/p/1.webp`)
    expect(unsigned.status).toBe(403)
  })
})
