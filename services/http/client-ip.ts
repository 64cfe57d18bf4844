import { BlockList, isIP } from 'node:net'

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

/** IPv4 seen through an IPv6 socket (::ffff:a.b.c.d, or uWS's long hex form) becomes plain IPv4. */
export function normaliseIp(address: string): string {
  const mapped = /^(?:0{1,4}:){5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address)
  if (mapped) {
    const high = parseInt(mapped[1]!, 16)
    const low = parseInt(mapped[2]!, 16)
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
}
