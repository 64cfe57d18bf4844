import type { HttpRequest } from 'uWebSockets.js'

/**
 * Copies headers out of uWS's request object (it lives only until the handler returns): every header
 * (repeats joined with commas, a repeated Content-Length kept once), or only the named ones on hot routes,
 * with Host when there is an Origin (CORS admits the service's own origin by it).
 */
export function readHeaders(req: HttpRequest, names: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  if (names === undefined) {
    req.forEach((name, value) => {
      if (headers[name] === undefined) headers[name] = value
      else if (name !== 'content-length') headers[name] = `${headers[name]}, ${value}`
    })
    return headers
  }
  for (const name of names) {
    const value = req.getHeader(name)
    if (value !== '') headers[name] = value
  }
  if (headers.origin !== undefined) headers.host = req.getHeader('host')
  return headers
}

/** Content-Length sent more than once with different values: the body's end is ambiguous (request smuggling). */
export function hasConflictingContentLength(req: HttpRequest): boolean {
  let first: string | undefined
  let conflicting = false
  req.forEach((name, value) => {
    if (name !== 'content-length') return
    if (first === undefined) first = value
    else if (value !== first) conflicting = true
  })
  return conflicting
}
