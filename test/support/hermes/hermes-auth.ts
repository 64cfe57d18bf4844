// The API key check in front of the public Hermes: the key travels as `Authorization: Bearer <key>` (any
// case of "Bearer") or, failing that, as the `ACCESS_TOKEN` query parameter, read from the raw query.

import type { IncomingMessage } from 'node:http'

export interface AuthRefusal {
  status: 401 | 403
  body: string
}

/** Why the request may not pass, or undefined when it carries the key. */
export function hermesAuthRefusal(request: IncomingMessage, url: URL, apiKey: string): AuthRefusal | undefined {
  const token = bearerToken(request.headers.authorization) ?? queryToken(url.search)
  if (token === undefined) return { status: 401, body: 'Unauthorized: an API key is required' }
  if (token !== apiKey) return { status: 403, body: 'Forbidden: invalid API key' }
  return undefined
}

function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const space = header.indexOf(' ')
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return undefined
  const token = header.slice(space + 1).trim()
  return token === '' ? undefined : token
}

/** Hermes splits the raw query on & and =, without decoding. */
function queryToken(search: string): string | undefined {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const equals = pair.indexOf('=')
    if (equals < 0 || pair.slice(0, equals) !== 'ACCESS_TOKEN') continue
    const value = pair.slice(equals + 1).trim()
    if (value !== '') return value
  }
  return undefined
}
