import type { LookupAddress } from 'node:dns'
import { ipv6Groups, refusedAddress } from './address'

// node:net (and the streams it loads) is required at first use, not at start: ~5 % of the binary's start-up CPU
// (issue 36, docs/decisions/004-lazy-start.md).
const isIP = (host: string): number => (require('node:net') as typeof import('node:net')).isIP(host)

// The rules a push endpoint must pass before the server posts to it (issue 33; docs/decisions/035-web-push.md): at
// subscribe time (a refusal is the client's 422) and again at every send, because what a name resolves to can change.

/** Endpoints longer than this are refused (the push services' own are a few hundred characters). */
export const MAX_ENDPOINT_LENGTH = 2048

/** What a push endpoint's host resolves to: every address (as node:dns's lookup with `all: true` answers). */
export type Resolver = (host: string) => Promise<LookupAddress[]>

/** The system's resolver (getaddrinfo, as a connection would use it), every address in the order it gives them. */
export const systemResolver: Resolver = async (host) => (await import('node:dns/promises')).lookup(host, { all: true, verbatim: true })

/**
 * What may be reached although it is not public (PUSH_ALLOW_HOSTS): host names and addresses, IPv6 spelled out in full
 * groups so that every way of writing one address compares equal.
 */
export type AllowList = ReadonlySet<string>

const canonical = (address: string) => ipv6Groups(address)?.map((g) => g.toString(16)).join(':') ?? address.toLowerCase()

export const allowList = (hosts: readonly string[]): AllowList => new Set(hosts.map((h) => canonical(h.replace(/^\[|\]$/g, '')).replace(/\.$/, '')))

/** The endpoint is refused: the message says why, in words a client (and the log) can show. */
export class EndpointRefused extends Error {}

/** The endpoint's host could not be resolved just now (a DNS failure that is not "no such name"): try again later. */
export class EndpointUnresolved extends Error {}

/** Names that never lead to the public internet: the machine itself, the local network, special-use domains. */
const PRIVATE_NAME = /(?:^|\.)(?:localhost|local|localdomain|internal|intranet|lan|home\.arpa|invalid|onion|test)$/

/** The host of a parsed URL as it is compared: lower case, IPv6 without brackets, no final dot. */
const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')

/**
 * The endpoint as a URL, when its form is acceptable (no DNS yet): `https` on the default port with a public-looking
 * host name; no IP address, no user name or password, no fragment. A host on the allow list may also use plain `http`
 * and another port, and be an address. Throws EndpointRefused.
 */
export function checkEndpointUrl(endpoint: unknown, allow: AllowList): URL {
  if (typeof endpoint !== 'string' || endpoint.trim() === '') throw new EndpointRefused('The endpoint must be the push service URL the browser gave')
  if (endpoint.length > MAX_ENDPOINT_LENGTH) throw new EndpointRefused(`The endpoint must be at most ${MAX_ENDPOINT_LENGTH} characters`)
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new EndpointRefused('The endpoint is not a URL')
  }
  const host = hostOf(url)
  const allowed = allow.has(canonical(host))
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:')) throw new EndpointRefused('The endpoint must be an https URL')
  if (url.username || url.password) throw new EndpointRefused('The endpoint must not carry a user name or password')
  if (url.hash) throw new EndpointRefused('The endpoint must not have a fragment (#…)')
  if (allowed) return url
  if (url.port !== '') throw new EndpointRefused('The endpoint must use the default https port')
  // The URL parser has already turned 0x7f.1, 2130706433 and 017700000001 into 127.0.0.1, and [::ffff:127.0.0.1]
  // into [::ffff:7f00:1]: every spelling of an address ends up here.
  if (isIP(host) !== 0) throw new EndpointRefused('The endpoint must name a host, not an IP address')
  if (!host.includes('.') || PRIVATE_NAME.test(host)) throw new EndpointRefused(`The endpoint's host ${host} is not a public host name`)
  return url
}

const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA'])

/**
 * Every address the endpoint's host resolves to, each checked: one that is not public (and not allowed) refuses the
 * endpoint, so a name that answers a public and a private address passes neither. A host on the allow list may
 * resolve anywhere. An address literal (allowed hosts only, by then) is its own answer. Throws EndpointRefused, or
 * EndpointUnresolved when DNS fails for another reason than "no such name".
 */
export async function resolveEndpoint(url: URL, allow: AllowList, resolve: Resolver): Promise<LookupAddress[]> {
  const host = hostOf(url)
  const family = isIP(host)
  if (family !== 0) {
    if (!allow.has(canonical(host))) throw new EndpointRefused('The endpoint must name a host, not an IP address')
    return [{ address: host, family }]
  }
  let addresses: LookupAddress[]
  try {
    addresses = await resolve(host)
  } catch (e) {
    const code = (e as { code?: string }).code ?? ''
    if (NO_SUCH_NAME.has(code)) throw new EndpointRefused(`The endpoint's host ${host} does not resolve`)
    throw new EndpointUnresolved(`The endpoint's host ${host} could not be resolved just now (${code || (e as Error).message})`)
  }
  if (addresses.length === 0) throw new EndpointRefused(`The endpoint's host ${host} does not resolve`)
  if (allow.has(host)) return addresses
  for (const { address } of addresses) {
    if (allow.has(canonical(address))) continue
    const why = refusedAddress(address)
    if (why) throw new EndpointRefused(`The endpoint's host ${host} resolves to ${why.replace(/^\S+ is /, '')} (${address})`)
  }
  return addresses
}

/** Both checks: the endpoint's URL once its form and every address of its host have passed. */
export async function checkEndpoint(endpoint: unknown, allow: AllowList, resolve: Resolver): Promise<URL> {
  const url = checkEndpointUrl(endpoint, allow)
  await resolveEndpoint(url, allow, resolve)
  return url
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for node:http(s)' request options that answers only addresses it has just checked: the connection is
 * made to exactly what was checked, so a name that resolves elsewhere a moment later (DNS rebinding) reaches nothing
 * new. `checked` is told the addresses handed over (for tests and logs).
 */
export function checkedLookup(url: URL, allow: AllowList, resolve: Resolver, checked?: (addresses: LookupAddress[]) => void) {
  return (_host: string, options: { all?: boolean } | number | undefined, callback: LookupCallback) => {
    resolveEndpoint(url, allow, resolve).then(
      (addresses) => {
        checked?.(addresses)
        if (typeof options === 'object' && options?.all) callback(null, addresses)
        else callback(null, addresses[0]!.address, addresses[0]!.family)
      },
      (e: Error) => callback(Object.assign(e, { code: e instanceof EndpointRefused ? 'EPUSHREFUSED' : 'EPUSHUNRESOLVED' }), []),
    )
  }
}
