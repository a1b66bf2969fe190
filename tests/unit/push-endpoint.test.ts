// Where the server may post push messages (src/platform/push/endpoint.ts, address.ts): the endpoint is an address a
// user sends us, so every way of pointing it at the server itself, its network or a cloud's metadata service is
// refused, by its spelling and by what its name resolves to; PUSH_ALLOW_HOSTS lets more through.
import { describe, expect, test } from 'bun:test'
import type { LookupAddress } from 'node:dns'
import { refusedAddress } from '../../src/platform/push/address'
import { allowList, checkEndpoint, checkEndpointUrl, checkedLookup, EndpointRefused, EndpointUnresolved, type Resolver } from '../../src/platform/push/endpoint'
import { authProblem, p256dhProblem } from '../../src/platform/push/keys'
import { loadConfig } from '../../src/platform/config'

const none = allowList([])
/** A resolver that answers from a table (and fails like getaddrinfo for a name it does not know). */
const stub =
  (table: Record<string, string[]>, calls: string[] = []): Resolver =>
  async (host) => {
    calls.push(host)
    const addresses = table[host]
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }))
  }

const refusal = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    if (e instanceof EndpointRefused) return e.message
    throw e
  }
  return null
}

describe('addresses', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
    ['64:ff9b::a00:1', 'non-global'], // NAT64 of 10.0.0.1
  ])('%s is refused (%s)', (address, kind) => {
    expect(refusedAddress(address)).toContain(kind)
  })

  test.each(['1.1.1.1', '8.8.8.8', '172.32.0.1', '100.128.0.1', '169.253.255.255', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '2002:808:808::1'])(
    '%s is public',
    (address) => {
      expect(refusedAddress(address)).toBeNull()
    },
  )
})

describe('an endpoint by its spelling', () => {
  test.each([
    ['https://127.0.0.1/push', 'not an IP address'],
    ['https://0x7f.1/push', 'not an IP address'],
    ['https://2130706433/push', 'not an IP address'],
    ['https://017700000001/push', 'not an IP address'],
    ['https://127.1/push', 'not an IP address'],
    ['https://[::1]/push', 'not an IP address'],
    ['https://[::ffff:127.0.0.1]/push', 'not an IP address'],
    ['https://[fd00:ec2::254]/latest/meta-data', 'not an IP address'],
    ['https://169.254.169.254/latest/meta-data', 'not an IP address'],
    ['https://8.8.8.8/push', 'not an IP address'],
    ['http://push.example.com/x', 'https'],
    ['ftp://push.example.com/x', 'https'],
    ['file:///etc/passwd', 'https'],
    ['javascript:alert(1)', 'https'],
    ['https://push.example.com:8443/x', 'default https port'],
    ['https://user:pass@push.example.com/x', 'user name or password'],
    ['https://push.example.com/x#y', 'fragment'],
    ['https://localhost/x', 'not a public host name'],
    ['https://push.localhost/x', 'not a public host name'],
    ['https://metadata/computeMetadata', 'not a public host name'],
    ['https://printer.local/x', 'not a public host name'],
    ['https://metadata.google.internal/x', 'not a public host name'],
    ['https://router.home.arpa/x', 'not a public host name'],
    ['not a url', 'not a URL'],
    ['', 'must be the push service URL'],
    [`https://push.example.com/${'a'.repeat(2100)}`, 'at most 2048'],
  ])('%s is refused', (endpoint, why) => {
    expect(refusal(() => checkEndpointUrl(endpoint, none))).toContain(why)
  })

  test('a value that is not text is refused', () => {
    for (const value of [undefined, null, 42, { href: 'https://push.example.com' }]) expect(refusal(() => checkEndpointUrl(value, none))).toContain('must be')
  })

  test.each([
    'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl',
    'https://web.push.apple.com/QGuQyavXutnMH',
    'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
    'https://PUSH.Example.COM./x',
  ])('%s passes', (endpoint) => {
    expect(checkEndpointUrl(endpoint, none).protocol).toBe('https:')
  })
})

describe('an endpoint by what its name resolves to', () => {
  const dns = stub({
    'push.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
    'loopback.example.com': ['127.0.0.1'],
    'rebind.example.com': ['93.184.216.34', '10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    'v6-metadata.example.com': ['fd00:ec2::254'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    'cgnat.example.com': ['100.64.1.1'],
    'empty.example.com': [],
  })

  test('a public name with only public addresses passes', async () => {
    expect((await checkEndpoint('https://push.example.com/x', none, dns)).hostname).toBe('push.example.com')
  })

  test.each([
    ['loopback.example.com', 'loopback address (127.0.0.1)'],
    ['rebind.example.com', 'private address (10.0.0.5)'],
    ['metadata.example.com', 'cloud metadata address (169.254.169.254)'],
    ['v6-metadata.example.com', 'cloud metadata address (fd00:ec2::254)'],
    ['mapped.example.com', 'loopback address (::ffff:127.0.0.1)'],
    ['cgnat.example.com', 'CGNAT'],
    ['empty.example.com', 'does not resolve'],
    ['nowhere.example.com', 'does not resolve'],
  ])('%s is refused: %s', async (host, why) => {
    const error = await checkEndpoint(`https://${host}/x`, none, dns).catch((e: Error) => e)
    expect(error).toBeInstanceOf(EndpointRefused)
    expect((error as Error).message).toContain(why)
  })

  test('a DNS failure other than "no such name" is not a refusal: it is for later', async () => {
    const flaky: Resolver = async () => {
      throw Object.assign(new Error('queryA ETIMEOUT'), { code: 'EAI_AGAIN' })
    }
    expect(await checkEndpoint('https://push.example.com/x', none, flaky).catch((e: Error) => e)).toBeInstanceOf(EndpointUnresolved)
  })

  test('the connection gets exactly the addresses just checked, looked up again at each connection', async () => {
    const calls: string[] = []
    const table: Record<string, string[]> = { 'push.example.com': ['93.184.216.34'] }
    const lookup = checkedLookup(new URL('https://push.example.com/x'), none, stub(table, calls))
    const ask = (all: boolean) =>
      new Promise<{ err: (Error & { code?: string }) | null; address: unknown }>((resolve) => lookup('push.example.com', { all }, (err, address) => resolve({ err, address })))
    expect(await ask(true)).toEqual({ err: null, address: [{ address: '93.184.216.34', family: 4 }] })
    expect(await ask(false)).toEqual({ err: null, address: '93.184.216.34' })
    // The name now answers a private address (DNS rebinding): the next connection is refused, never made.
    table['push.example.com'] = ['192.168.0.10']
    const rebound = await ask(true)
    expect(rebound.err?.code).toBe('EPUSHREFUSED')
    expect(rebound.err?.message).toContain('private address (192.168.0.10)')
    expect(calls).toEqual(['push.example.com', 'push.example.com', 'push.example.com'])
  })
})

describe('PUSH_ALLOW_HOSTS', () => {
  const allow = allowList(loadConfig({ PUSH_ALLOW_HOSTS: '127.0.0.1, push.internal, [::1]' }).pushAllowHosts)
  const dns = stub({ 'push.internal': ['10.0.0.7'], 'local-name.example.com': ['127.0.0.1'], 'elsewhere.example.com': ['127.0.0.2'] })

  test('an allowed address may be the host, over plain http and on any port; others stay refused', async () => {
    expect((await checkEndpoint('http://127.0.0.1:4321/push/a', allow, dns)).port).toBe('4321')
    expect((await checkEndpoint('http://[::1]:4321/push/a', allow, dns)).hostname).toBe('[::1]')
    expect((await checkEndpoint('http://[0:0:0:0:0:0:0:1]:4321/push/a', allow, dns)).hostname).toBe('[::1]')
    expect(refusal(() => checkEndpointUrl('http://127.0.0.2:4321/push/a', allow))).toContain('https')
    expect(refusal(() => checkEndpointUrl('https://127.0.0.2/push/a', allow))).toContain('not an IP address')
    expect(refusal(() => checkEndpointUrl('https://[::ffff:127.0.0.1]/push/a', allow))).toContain('not an IP address')
  })

  test('an allowed name may resolve anywhere; a public name may resolve to an allowed address, not to another', async () => {
    expect((await checkEndpoint('http://push.internal:8080/push/a', allow, dns)).hostname).toBe('push.internal')
    expect((await checkEndpoint('https://local-name.example.com/push/a', allow, dns)).hostname).toBe('local-name.example.com')
    expect(await checkEndpoint('https://elsewhere.example.com/push/a', allow, dns).catch((e: Error) => e.message)).toContain('loopback address (127.0.0.2)')
    expect(refusal(() => checkEndpointUrl('http://local-name.example.com/push/a', allow))).toContain('https')
  })

  test('the configuration refuses what is not a host name or an address', () => {
    for (const value of ['http://push.example.com', '127.0.0.1:8080', 'push_host', '1.2.3.999'])
      expect(() => loadConfig({ PUSH_ALLOW_HOSTS: value })).toThrow('PUSH_ALLOW_HOSTS must list host names or IP addresses')
    expect(loadConfig({}).pushAllowHosts).toEqual([])
    expect(loadConfig({ PUSH_ALLOW_HOSTS: ' Push.Example.COM. ,, [::1] ' }).pushAllowHosts).toEqual(['push.example.com', '::1'])
  })
})

describe('subscription keys', () => {
  test('a P-256 point of 65 bytes and a 16-byte secret pass; anything else is named', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair
    const point = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
    expect(await p256dhProblem(b64(point))).toBeNull()
    const offCurve = Uint8Array.from(point)
    offCurve[64]! ^= 1
    expect(await p256dhProblem(b64(offCurve))).toContain('not a point on the P-256 curve')
    expect(await p256dhProblem(b64(point.subarray(0, 33)))).toContain('uncompressed')
    expect(await p256dhProblem(b64(Uint8Array.from([2, ...point.subarray(1)])))).toContain('uncompressed')
    // Standard base64's '+' and '/' are not base64url.
    expect(await p256dhProblem(`+${b64(point).slice(1)}`)).toContain('base64url')
    expect(await p256dhProblem('not base64!')).toContain('base64url')
    expect(await p256dhProblem(42)).toContain('base64url')
    expect(authProblem(b64(crypto.getRandomValues(new Uint8Array(16))))).toBeNull()
    expect(authProblem(b64(crypto.getRandomValues(new Uint8Array(12))))).toContain('16 bytes')
    expect(authProblem(b64(crypto.getRandomValues(new Uint8Array(32))))).toContain('16 bytes')
    expect(authProblem('%%%')).toContain('base64url')
    expect(authProblem(undefined)).toContain('base64url')
  })
})
