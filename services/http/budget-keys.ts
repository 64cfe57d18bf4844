import { isIP, SocketAddress } from 'node:net'

// Per-IP budgets and connection ceilings count per key, not per spelling: an IPv4 client is its address,
// an IPv6 client its network prefix (a home connection is handed a whole /64), both in canonical text.

/** The prefix length IPv6 budgets are keyed by unless configured (as nginx and most rate limiters do). */
export const DEFAULT_IPV6_PREFIX_BITS = 64

/**
 * The canonical text of an address (RFC 5952 for IPv6, by the system's inet_ntop): lower case, no leading
 * zeros, the longest zero run as `::`, no zone; IPv4 inside IPv6 (`::ffff:a.b.c.d`) is plain IPv4.
 * Undefined when `address` is not an IP address.
 */
export function canonicalIp(address: string): string | undefined {
  const family = isIP(address)
  if (family === 0) return undefined
  const canonical = new SocketAddress({ address, family: family === 4 ? 'ipv4' : 'ipv6' }).address
  return MAPPED_IPV4.exec(canonical)?.[1] ?? canonical
}

/** `::ffff:a.b.c.d`, as inet_ntop writes IPv4-mapped IPv6 */
const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/

/**
 * The budget key of a client address: IPv4 by its address, IPv6 by its first `ipv6PrefixBits` bits
 * (`2001:db8:1:4::/64`). Anything that is not an IP address (a peer uWS could not name) is its own key.
 */
export function budgetKeyer(ipv6PrefixBits = DEFAULT_IPV6_PREFIX_BITS): (clientIp: string) => string {
  if (!Number.isInteger(ipv6PrefixBits) || ipv6PrefixBits < 1 || ipv6PrefixBits > 128) {
    throw new Error(`an IPv6 budget prefix is 1 to 128 bits, not ${ipv6PrefixBits}`)
  }
  return (clientIp) => {
    const canonical = canonicalIp(clientIp)
    if (canonical === undefined) return clientIp
    if (isIP(canonical) === 4 || ipv6PrefixBits === 128) return canonical
    return `${canonicalIp(networkOf(canonical, ipv6PrefixBits))}/${ipv6PrefixBits}`
  }
}

/** The address with every bit past the prefix cleared, as eight full groups. */
function networkOf(ipv6: string, prefixBits: number): string {
  return groupsOf(ipv6)
    .map((group, index) => {
      const kept = Math.min(16, Math.max(0, prefixBits - index * 16))
      return (group & (0xffff << (16 - kept))).toString(16)
    })
    .join(':')
}

/** The eight 16-bit groups of an IPv6 address in canonical text (`::` expanded, a trailing dotted quad split in two). */
function groupsOf(ipv6: string): number[] {
  const [head = '', tail] = ipv6.split('::') as [string, string | undefined]
  const words = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((word) => {
          if (!word.includes('.')) return [parseInt(word, 16)]
          const [a, b, c, d] = word.split('.').map(Number) as [number, number, number, number]
          return [(a << 8) | b, (c << 8) | d]
        })
  const first = words(head)
  const last = tail === undefined ? [] : words(tail)
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last]
}
