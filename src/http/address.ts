// What a request's connection says about its client, and what a proxy the operator named in
// TRUSTED_PROXY may add: the client's address (X-Forwarded-For, for the per-address login limit)
// and whether it came over HTTPS (X-Forwarded-Proto, for the Secure cookie and HSTS). Those
// headers from anyone else are ignored: they cost nothing to forge.
import { BlockList, isIP } from 'node:net'

/** What Elysia hands a handler as `server` (Bun's server), reduced to what is used here. */
export interface PeerSource {
  requestIP(request: Request): { address: string } | null
}

/** "::ffff:10.0.0.1" is the IPv4 address 10.0.0.1 seen through a dual-stack socket. */
const unmapIPv4 = (address: string): string => {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return match ? (match[1] as string) : address
}

/** The trusted proxies as a matcher; entries were checked by loadConfig ("10.0.0.1", "10.0.0.0/8"). */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/')
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (prefix === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(prefix), type)
  }
  return list
}

const isTrusted = (trusted: BlockList, address: string): boolean => {
  const plain = unmapIPv4(address)
  const family = isIP(plain)
  return family !== 0 && trusted.check(plain, family === 6 ? 'ipv6' : 'ipv4')
}

/**
 * The client's address, or undefined when there is no socket (an in-process `app.handle`, a
 * Unix socket). Behind trusted proxies, X-Forwarded-For is read from the right (each proxy
 * appends the peer it saw) and the first address that is not itself a trusted proxy is the client.
 */
export function clientAddress(
  request: Request,
  server: PeerSource | null | undefined,
  trusted: BlockList,
): string | undefined {
  const peer = server?.requestIP(request)?.address
  if (peer === undefined || !isTrusted(trusted, peer)) return peer === undefined ? undefined : unmapIPv4(peer)
  const forwarded = (request.headers.get('x-forwarded-for') ?? '').split(',').map((part) => part.trim())
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const hop = unmapIPv4(forwarded[i] as string)
    if (isIP(hop) === 0) break // garbage from further left cannot be trusted: stop at the proxy
    if (!isTrusted(trusted, hop)) return hop
  }
  return unmapIPv4(peer)
}

/**
 * Whether the client reached the server over HTTPS: the request's own scheme, or, only when its
 * peer is a trusted proxy, the X-Forwarded-Proto that proxy sends. Of a list, the last value
 * counts: the one the proxy next to the server wrote (one further away may have appended it).
 */
export function isHttps(request: Request, server: PeerSource | null | undefined, trusted: BlockList): boolean {
  if (request.url.startsWith('https:')) return true
  const peer = server?.requestIP(request)?.address
  if (peer === undefined || !isTrusted(trusted, peer)) return false
  const proto = (request.headers.get('x-forwarded-proto') ?? '').split(',').at(-1) ?? ''
  return proto.trim().toLowerCase() === 'https'
}

/**
 * TRUSTED_PROXY, read once per app: who sent a request, and whether it came over HTTPS. The
 * peer of a request is asked of Elysia's `server` when the caller has it, else of the app's
 * current listener, named by `attach` (what Elysia's `server` is too: `app.server`). A hook that
 * every request runs does not name `server`: Elysia would then define it on each request's
 * context (see createApp).
 */
export class TrustedProxies {
  private readonly list: BlockList
  private readonly none: boolean
  private listener: () => PeerSource | null | undefined = () => undefined

  constructor(entries: readonly string[]) {
    this.list = trustedProxyList(entries)
    this.none = entries.length === 0
  }

  /** Where a request's peer is asked when no server is passed: the app's listener. */
  attach(listener: () => PeerSource | null | undefined): void {
    this.listener = listener
  }

  /** The client's address (see clientAddress); pass Elysia's `server`. */
  clientAddress(request: Request, server: PeerSource | null | undefined): string | undefined {
    return clientAddress(request, server, this.list)
  }

  /** Whether the request came over HTTPS (see isHttps): the cookie is then Secure, and HSTS is sent. */
  isHttps(request: Request, server?: PeerSource | null): boolean {
    // Without a trusted proxy only the request's own scheme counts: its peer need not be asked
    // for (a system call on every request: every request asks, for HSTS).
    if (this.none) return request.url.startsWith('https:')
    return isHttps(request, server ?? this.listener(), this.list)
  }
}

/**
 * The key the per-address limit counts under. An IPv6 host usually owns a whole /64 and can
 * pick any address in it, so IPv6 addresses count per /64; IPv4 addresses count one by one.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return 'no address'
  const plain = unmapIPv4(address)
  if (isIP(plain) !== 6) return plain
  const [head = '', tail = ''] = plain.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = plain.includes('::') ? (tail ? tail.split(':') : []) : []
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
