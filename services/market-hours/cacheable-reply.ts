// A JSON reply that clients and caches may keep: Cache-Control, a strong ETag, and 304 Not Modified
// when the request's If-None-Match names the current ETag.

import { createHash } from 'node:crypto'
import type { Reply } from '../http/reply.ts'

export function cacheableJsonReply(body: string, cacheControl: string, ifNoneMatch: string | undefined): Reply {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`
  const headers = { etag, 'cache-control': cacheControl }
  if (ifNoneMatch !== undefined && namesEtag(ifNoneMatch, etag)) {
    return { status: 304, body: '', contentType: 'application/json', headers }
  }
  return { status: 200, body, contentType: 'application/json', headers }
}

/** If-None-Match compares weakly (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches anything. */
function namesEtag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag.replace(/^W\//, '') === etag
  })
}
