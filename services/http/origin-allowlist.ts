/**
 * Which browser origins may use the API (REST through CORS, and the stream): the configured ones
 * (exact, case-insensitive; `*` allows any), and always the service's own origin, so pages it serves
 * work on any host name. A request without Origin is not from a browser and is not checked.
 */
export type OriginAllowlist = (origin: string | undefined, host: string | undefined) => boolean

export function originAllowlist(configured: readonly string[]): OriginAllowlist {
  const anyOrigin = configured.includes('*')
  const origins = new Set(configured.map((origin) => origin.toLowerCase()))
  return (origin, host) => origin === undefined || anyOrigin || origins.has(origin.toLowerCase()) || isOwnOrigin(origin, host)
}

/** The browser names the page's origin and the host it is talking to: the same host is the same site. */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false
  try {
    return new URL(origin).host === host.toLowerCase()
  } catch {
    return false
  }
}
