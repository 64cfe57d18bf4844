// What a route handler returns; the server writes it.

import type { HttpResponse } from 'uWebSockets.js'
import type { EncodedBody } from './encoded-body.ts'

export interface Reply {
  status: number
  body: Buffer | string
  contentType: string
  headers?: Record<string, string>
  /**
   * The body as one the server may send compressed, by the request's Accept-Encoding (with
   * `Vary: Accept-Encoding`); `body` is then its identity bytes. Routes keep one per content, so each
   * coding is made once per change, never per request.
   */
  encoded?: EncodedBody
  /** with `encoded`: sent as Cache-Control with a strong ETag per coding, and 304 when If-None-Match names it */
  cacheControl?: string
  /**
   * A body written over time (Server-Sent Events): once the status and headers are written, the response
   * is handed over (corked) instead of being ended with `body`; its owner writes, watches onAborted and
   * onWritable, and ends it. A HEAD request gets the head only.
   */
  stream?: (res: HttpResponse) => void
}

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(value), contentType: 'application/json', ...(headers && { headers }) }
}

/** A body that is already JSON bytes (pre-serialised snapshots). */
export function jsonBytesReply(status: number, body: Buffer, headers?: Record<string, string>): Reply {
  return { status, body, contentType: 'application/json', ...(headers && { headers }) }
}

/** A 200 with JSON the server may compress; with `cacheControl` also an ETag and conditional requests. */
export function encodedJsonReply(encoded: EncodedBody, cacheControl?: string): Reply {
  return { status: 200, body: encoded.identity, contentType: 'application/json', encoded, ...(cacheControl && { cacheControl }) }
}
