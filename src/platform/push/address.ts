// Which IP addresses the server may post push messages to (issue 33; docs/decisions/035-web-push.md). The endpoint of
// a subscription is an address a user sends us: without these rules anyone could make the server post to its own
// loopback, the machine's neighbours on a private network or a cloud's metadata service. Only public unicast addresses
// pass: IPv4 outside the special-purpose ranges, IPv6 inside global unicast (2000::/3) outside its special ranges,
// and an IPv6 address that carries an IPv4 one (mapped, 6to4) only if that one passes.

// node:net is required at first use, not at start: loading it costs milliseconds of CPU before the first answer
// (issue 36, docs/decisions/004-lazy-start.md).
const net = () => require('node:net') as typeof import('node:net')

/** [first address, prefix length, what it is]: every IPv4 range a push message must never reach. */
const IPV4_REFUSED: ReadonlyArray<readonly [string, number, string]> = [
  ['169.254.169.254', 32, 'cloud metadata'],
  ['100.100.100.200', 32, 'cloud metadata'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // 169.254.169.254: the metadata service of most clouds
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // and 255.255.255.255, broadcast
]

const ipv4Number = (address: string): number => address.split('.').reduce((n, part) => n * 256 + Number(part), 0)

const IPV4_RANGES = IPV4_REFUSED.map(([first, bits, kind]) => ({ start: ipv4Number(first), size: 2 ** (32 - bits), kind }))

/** The eight 16-bit groups of an IPv6 address in text (compressed, with a dotted IPv4 tail or not); null if not one. */
export function ipv6Groups(text: string): number[] | null {
  let address = text.replace(/^\[|\]$/g, '').split('%')[0]!
  if (!net().isIPv6(address)) return null
  // A dotted IPv4 tail (::ffff:127.0.0.1) is the last two groups.
  address = address.replace(/(\d+\.\d+\.\d+\.\d+)$/, (v4) => {
    const n = ipv4Number(v4)
    return `${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`
  })
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)))
  const [left, right] = address.split('::') as [string, string | undefined]
  if (right === undefined) return groups(left)
  const [l, r] = [groups(left), groups(right)]
  return [...l, ...Array<number>(8 - l.length - r.length).fill(0), ...r]
}

const v4FromGroups = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.')

/** What kind of address that no push message may reach `address` is ('loopback', 'private'…), or null for a public one. */
function refusedKind(address: string): string | null {
  if (net().isIPv4(address)) {
    const n = ipv4Number(address)
    return IPV4_RANGES.find((r) => n >= r.start && n < r.start + r.size)?.kind ?? null
  }
  const g = ipv6Groups(address)
  if (!g) return 'non-IP'
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) forms reach the IPv4 address inside.
  if (zero(0, 5) && (g[5] === 0xffff || (g[5] === 0 && g[6] !== 0))) return refusedKind(v4FromGroups(g[6]!, g[7]!))
  if (zero(0, 8)) return 'unspecified'
  if (zero(0, 7) && g[7] === 1) return 'loopback'
  const [first, second] = [g[0]!, g[1]!]
  if (first === 0xfd00 && second === 0x0ec2 && zero(2, 7) && g[7] === 0x254) return 'cloud metadata'
  if ((first & 0xfe00) === 0xfc00) return 'unique local (private)' // fc00::/7
  if ((first & 0xffc0) === 0xfe80) return 'link-local'
  if ((first & 0xff00) === 0xff00) return 'multicast'
  if ((first & 0xe000) !== 0x2000) return 'non-global' // outside 2000::/3: NAT64's 64:ff9b::/96 and the unassigned rest
  if (first === 0x2001 && second < 0x0200) return 'reserved' // 2001::/23: Teredo, ORCHID, benchmarking…
  if (first === 0x2001 && second === 0x0db8) return 'documentation'
  if (first === 0x3fff && second < 0x1000) return 'documentation' // 3fff::/20
  if (first === 0x2002) return refusedKind(v4FromGroups(second, g[2]!)) // 6to4: the IPv4 address in bits 16–47
  return null
}

/**
 * Why `address` (an IP address in text) is no place to send a push message, or null when it is a public unicast
 * address. Anything that is not an IP address at all is refused too.
 */
export function refusedAddress(address: string): string | null {
  const kind = refusedKind(address)
  if (kind === null) return null
  if (kind === 'non-IP') return `${address} is not an IP address`
  return `${address} is ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`
}
