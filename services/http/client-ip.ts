import { BlockList, isIP } from 'node:net'
import { canonicalIp } from './budget-keys.ts'

/**
 * The client's address: the socket's peer, unless the peer is a trusted proxy, in which case the
 * right-most address of X-Forwarded-For that is not itself a trusted proxy.
 */
export function clientIpResolver(trustedProxies: string[]): (peer: string, forwardedFor: string | undefined) => string {
  const trusted = new BlockList()
  for (const entry of trustedProxies) {
    const [address, prefix] = entry.split('/') as [string, string | undefined]
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (isIP(address) === 0) throw new Error(`TRUSTED_PROXIES entry "${entry}" is not an IP address or CIDR range`)
    if (prefix === undefined) trusted.addAddress(address, family)
    else trusted.addSubnet(address, Number(prefix), family)
  }
  const isTrusted = (address: string) => {
    const family = isIP(address)
    return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4')
  }

  return (peer, forwardedFor) => {
    const client = normaliseIp(peer)
    if (trustedProxies.length === 0 || !forwardedFor || !isTrusted(client)) return client
    const hops = forwardedFor
      .split(',')
      .map((hop) => normaliseIp(hop.trim()))
      .filter((hop) => isIP(hop) !== 0)
    for (let index = hops.length - 1; index >= 0; index--) if (!isTrusted(hops[index]!)) return hops[index]!
    return hops[0] ?? client
  }
}

/** The canonical text of an address (IPv4 seen through an IPv6 socket becomes plain IPv4); anything else unchanged. */
export function normaliseIp(address: string): string {
  return canonicalIp(address) ?? address
}
