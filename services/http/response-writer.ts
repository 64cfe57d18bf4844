import { STATUS_CODES } from 'node:http'
import type { HttpResponse } from 'uWebSockets.js'
import { preferredCoding, type ContentCoding } from './content-coding.ts'
import { PLAIN_VARY } from './cors.ts'
import type { OnCompressed } from './encoded-body.ts'
import type { RateLimitDecision } from './rate-limits.ts'
import type { Reply } from './reply.ts'
import type { RequestState } from './request-state.ts'

// Writing a reply onto uWS's response: the status line, the headers every answer carries, the body
// (or for HEAD its length). The caller corks; nothing here allocates a closure.
//
// Fixed header names and values are handed to uWS as bytes made once: uWS copies bytes as they are but
// converts a string to UTF-8 at every call, which nearly doubles what writing a header costs.

/** The bytes of a header name or fixed value. */
const bytes = (text: string): Buffer => Buffer.from(text)
const X_REQUEST_ID = bytes('x-request-id')
const CONTENT_TYPE = bytes('content-type')
const VARY = bytes('vary')
const CONTENT_ENCODING = bytes('content-encoding')
const ETAG = bytes('etag')
const CACHE_CONTROL = bytes('cache-control')
const X_RATELIMIT_LIMIT = bytes('x-ratelimit-limit')
const X_RATELIMIT_REMAINING = bytes('x-ratelimit-remaining')
const X_RATELIMIT_RESET = bytes('x-ratelimit-reset')
const RETRY_AFTER = bytes('retry-after')

/** Writes a reply; returns the status sent (304 for a conditional request that names the current ETag). */
export function writeReply(res: HttpResponse, state: RequestState, reply: Reply, onCompressed: OnCompressed): number {
  if (reply.encoded) return writeEncoded(res, state, reply, onCompressed)
  writeHead(res, state, reply.status, reply)
  if (reply.stream && !state.head) reply.stream(res)
  else endWith(res, state, reply.body)
  return reply.status
}

/** A status and headers with no body and no content type: preflights and bare refusals. */
export function writeBare(res: HttpResponse, state: RequestState, status: number, headers: Record<string, string>): void {
  res.writeStatus(statusLine(status))
  res.writeHeader(X_REQUEST_ID, state.requestId)
  for (const name in headers) res.writeHeader(name, headers[name]!)
  res.end()
}

/** The budget's headers (spec 8): on every answer of a budgeted route, with retry-after when refused. */
export function writeBudgetHeaders(res: HttpResponse, budget: RateLimitDecision): void {
  if (budget.limit === 0) return // budgets are lifted
  res.writeHeader(X_RATELIMIT_LIMIT, String(budget.limit))
  res.writeHeader(X_RATELIMIT_REMAINING, String(budget.remaining))
  res.writeHeader(X_RATELIMIT_RESET, String(budget.resetSeconds))
  if (!budget.allowed) res.writeHeader(RETRY_AFTER, String(budget.resetSeconds))
}

export function statusLine(status: number): string {
  let line = STATUS_LINES.get(status)
  if (line === undefined) STATUS_LINES.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`))
  return line
}
const STATUS_LINES = new Map<number, string>()

/** A body the server may compress and, with Cache-Control, answer with 304; returns the status sent. */
function writeEncoded(res: HttpResponse, state: RequestState, reply: Reply, onCompressed: OnCompressed): number {
  const encoded = reply.encoded!
  const coding = encoded.codingFor(preferredCoding(state.headers['accept-encoding']))
  const etag = reply.cacheControl === undefined ? undefined : encoded.etag(coding)
  const ifNoneMatch = state.headers['if-none-match']
  const notModified = etag !== undefined && ifNoneMatch !== undefined && namesEtag(ifNoneMatch, etag)
  const status = notModified ? 304 : reply.status
  if (status === 200 && !state.budget && !reply.headers && state.headers.origin === undefined) {
    // the common answer (no CORS, no budget headers): uWS writes 200 OK when no status is given, and the
    // headers every answer of this reply in this coding shares were assembled once
    res.writeHeader(X_REQUEST_ID, state.requestId)
    const fixed = fixedHeaders(reply, coding, etag)
    for (let index = 0; index < fixed.length; index += 2) res.writeHeader(fixed[index]!, fixed[index + 1]!)
  } else {
    writeHead(res, state, status, reply, 'accept-encoding')
    if (coding !== 'identity') res.writeHeader(CONTENT_ENCODING, coding)
    if (etag !== undefined) res.writeHeader(ETAG, etag).writeHeader(CACHE_CONTROL, reply.cacheControl!)
  }
  endWith(res, state, notModified ? '' : encoded.bytes(coding, onCompressed))
  return status
}

/** The status line and the headers every answer carries; one Vary naming CORS's and compression's keys. */
function writeHead(res: HttpResponse, state: RequestState, status: number, reply: Reply, varyAlso?: string) {
  res.writeStatus(statusLine(status))
  res.writeHeader(X_REQUEST_ID, state.requestId)
  res.writeHeader(CONTENT_TYPE, reply.contentType)
  const cors = state.cors
  for (const name in cors) if (name !== 'vary') res.writeHeader(name, cors[name]!)
  const vary = cors.vary
  if (vary !== undefined || varyAlso !== undefined) res.writeHeader(VARY, vary && varyAlso ? `${vary}, ${varyAlso}` : (vary ?? varyAlso)!)
  if (state.budget) writeBudgetHeaders(res, state.budget)
  if (reply.headers) for (const name in reply.headers) res.writeHeader(name, reply.headers[name]!)
}

/** Ends the response: the body, or for HEAD only its length. */
function endWith(res: HttpResponse, state: RequestState, body: Buffer | string) {
  if (state.head) res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, state.closeConnection)
  else res.end(body, state.closeConnection)
}

const fixedHeaderLists = new WeakMap<Reply, Map<ContentCoding, Buffer[]>>()
const ENCODED_VARY = bytes(`${PLAIN_VARY}, accept-encoding`)

/**
 * The headers every 200 of an encoded reply in one coding carries after x-request-id (Content-Type, Vary,
 * Content-Encoding, ETag, Cache-Control), as name, value, name, value: made once per reply and coding.
 */
function fixedHeaders(reply: Reply, coding: ContentCoding, etag: string | undefined): Buffer[] {
  let lists = fixedHeaderLists.get(reply)
  if (!lists) fixedHeaderLists.set(reply, (lists = new Map<ContentCoding, Buffer[]>()))
  let list = lists.get(coding)
  if (list === undefined) {
    list = [CONTENT_TYPE, bytes(reply.contentType), VARY, ENCODED_VARY]
    if (coding !== 'identity') list.push(CONTENT_ENCODING, bytes(coding))
    if (etag !== undefined) list.push(ETAG, bytes(etag), CACHE_CONTROL, bytes(reply.cacheControl!))
    lists.set(coding, list)
  }
  return list
}

/** If-None-Match compares weakly (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches anything. */
function namesEtag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag.replace(/^W\//, '') === etag
  })
}
