// Generated hostile HTTP requests for the harness (fast-check arbitraries), written as raw bytes so that
// nothing between the generator and the server tidies them up.

import fc, { toStringMethod } from 'fast-check'
import { PAIRS } from '../../schemas/pairs.ts'

/** A route of the service, by the OpenAPI path template it belongs to. */
export interface RouteTemplate {
  method: 'GET' | 'POST'
  /** the OpenAPI path, e.g. /v1/prices/{pair} */
  template: string
  /** the operational routes are not in the OpenAPI document */
  documented: boolean
}

export const ROUTES: RouteTemplate[] = [
  ...['/v1/prices', '/v1/prices/{pair}', '/v1/status', '/v1/market-hours', '/v1/depth/{pair}', '/v1/depth/{pair}/quote'].map(
    (template) => ({ method: 'GET' as const, template, documented: true }),
  ),
  ...['/v1/pairs', '/v1/limits', '/v1/trades', '/v1/orders', '/v1/onboard/{id}', '/v1/openapi.json', '/v1/asyncapi.json'].map(
    (template) => ({ method: 'GET' as const, template, documented: true }),
  ),
  ...['/v1/prices/stream'].map((template) => ({ method: 'GET' as const, template, documented: true })),
  { method: 'POST', template: '/v1/ohlc', documented: true },
  { method: 'POST', template: '/v1/onboard', documented: true },
  // the pages (the live board, the API reference and their scripts); the operational routes are not on
  // the public port, so their paths are unknown ones there
  ...['/', '/docs', '/docs/events', '/assets/board.js', '/assets/api-reference.js'].map((template) => ({
    method: 'GET' as const,
    template,
    documented: false,
  })),
]

export interface HostileRequest {
  route: RouteTemplate | undefined
  method: string
  path: string
  /** the request as sent */
  bytes: Buffer
  /**
   * false when the framing itself is broken: uWebSockets.js may close or ignore it rather than answer, or
   * (v20.57) answer it with its own 400, 431 or 505
   */
  framed: boolean
  /** The head is longer than uWebSockets.js keeps of a head that arrives in pieces (see LONG_HEAD_BYTES). */
  longHead: boolean
  head: boolean
}

/** Heads below this are within uWebSockets.js v20.30's limit for a head read at once (about 128 KB, measured). */
export const MAX_FRAMED_HEAD_BYTES = 120_000

/**
 * uWebSockets.js keeps at most 4 KB of a request head that arrives in more than one read (MAX_FALLBACK_SIZE in
 * its src/HttpParser.h) and, the head not complete within them, closes the connection without an answer
 * (v20.30) or answers its own 431 (v20.57). A longer head that arrives in one read is answered by v20.30 and
 * refused with the same 431 by v20.57. Whether a head comes in one read is up to the machine's timing, on
 * loopback too (test/support/uws-framing.ts).
 */
export const LONG_HEAD_BYTES = 4096

/** A field line as RFC 9112 section 5 spells it: a token, then a colon (uWebSockets.js answers a line without one 400). */
const FIELD_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/

const TRADERS = ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC']
const symbol = fc.constantFrom(...PAIRS.map((pair) => pair.symbol))

/** Strings an attacker sends: bad escapes, overlong and invalid UTF-8, control bytes, prototype keys, huge. */
const hostileText = fc.oneof(
  fc.constantFrom('%ZZ', '%E0%A4', '%C0%AF', '%FF', '%', '%ED%A0%80', '%00', '__proto__', 'constructor', 'toString', '1e400', '-0', 'NaN'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.stringMatching(/^[0-9]{60,120}$/),
  fc.integer({ min: 100, max: 4000 }).map((length) => 'A'.repeat(length)),
  symbol.map((value) => value.toLowerCase()),
  symbol,
)

/** Percent-encodes what must be, but keeps the attacker's own escapes (%ZZ stays %ZZ). */
const escapeLoosely = (text: string) => text.replace(/[^A-Za-z0-9%._~!$&'()*+,;=:@-]/gu, (character) => encodeURIComponent(character))

const pathParam = (template: string) =>
  fc.oneof(
    { weight: 3, arbitrary: template.includes('{id}') ? fc.stringMatching(/^0x[a-f0-9]{64}$/) : symbol },
    { weight: 4, arbitrary: hostileText.map((text) => escapeLoosely(text)).filter((text) => text !== '' && !text.includes('?')) },
  )

const validQuery: Record<string, fc.Arbitrary<Array<[string, string]>>> = {
  '/v1/limits': walletQuery(),
  '/v1/trades': walletQuery(),
  '/v1/orders': walletQuery(),
  '/v1/pairs': fc.constantFrom(42161, 421614).map((chainId) => [['chainId', String(chainId)]]),
  '/v1/depth/{pair}': fc.constantFrom(42161, 421614).map((chainId) => [['chainId', String(chainId)]]),
  '/v1/depth/{pair}/quote': fc
    .tuple(fc.constantFrom('long', 'short'), fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom(42161, 421614))
    .map(([side, notional, chainId]) => [
      ['side', side],
      ['notionalUsd', String(notional)],
      ['chainId', String(chainId)],
    ]),
  '/v1/market-hours': fc.option(symbol, { nil: undefined }).map((pair) => (pair ? [['pair', pair]] : [])),
}

function walletQuery(): fc.Arbitrary<Array<[string, string]>> {
  return fc
    .tuple(
      fc.constantFrom(...TRADERS),
      fc.constantFrom(42161, 421614),
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 0, max: 5000 }),
    )
    .map(([trader, chainId, first, skip]) => [
      ['trader', trader],
      ['chainId', String(chainId)],
      ['first', String(first)],
      ['skip', String(skip)],
    ])
}

const hostileQuery = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom('trader', 'chainId', 'first', 'skip', 'pair', 'at', 'side', 'notionalUsd', 'pairs', '__proto__', 'constructor'),
      hostileText,
    ),
    hostileText,
  ),
  { maxLength: 6 },
)

const query = (template: string) =>
  fc
    .oneof(
      { weight: 3, arbitrary: validQuery[template] ?? fc.constant([] as Array<[string, string]>) },
      { weight: 2, arbitrary: hostileQuery },
      { weight: 1, arbitrary: fc.tuple(validQuery[template] ?? fc.constant([]), hostileQuery).map(([a, b]) => [...a, ...b]) },
      // one key repeated many times
      {
        weight: 1,
        arbitrary: fc.tuple(hostileText, fc.integer({ min: 2, max: 300 })).map(([key, times]) => Array(times).fill([key, '1'])),
      },
    )
    .map((pairs) => pairs.map(([key, value]) => `${escapeLoosely(key)}=${escapeLoosely(value)}`).join('&'))

const validOhlc = fc.record({
  pair: symbol,
  fromTimestampSeconds: fc.integer({ min: 1_700_000_000, max: 1_800_000_000 }),
  toTimestampSeconds: fc.integer({ min: 1_800_000_001, max: 1_900_000_000 }),
  resolution: fc.constantFrom('1', '5', '15', '60', '240', '1D', 60, 7),
})

const uint = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
  fc.constantFrom('1.0', '١٢٣', '1e6', '9'.repeat(90), '-1', '0x10', ''),
)
const validOnboard = fc.record({
  chainId: fc.constantFrom(42161, 421614, 1),
  partner: fc.constantFrom(...TRADERS, '0x0000000000000000000000000000000000000000'),
  permit: fc.option(fc.record({ value: uint, nonce: uint, deadline: uint, signature: fc.stringMatching(/^0x([a-f0-9]{2}){65}$/) }), {
    nil: undefined,
  }),
  delegation: fc.option(
    fc.record({
      delegate: fc.constantFrom('0x1000000000000000000000000000000000000004', TRADERS[0]!),
      nonce: uint,
      expiry: uint,
      signature: fc.stringMatching(/^0x[a-f0-9]{130}$/),
    }),
    { nil: undefined },
  ),
})

/** Replaces one value somewhere in a JSON value with a hostile one: wrong types, huge numbers, prototype keys. */
const mutated = (value: fc.Arbitrary<unknown>) =>
  fc
    .tuple(
      value,
      fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(1e308, -1, 2 ** 53 + 1, '1e400', null, [], {})),
      fc.string({ maxLength: 12 }),
      fc.nat(),
    )
    .map(([original, replacement, key, index]) => {
      const object = { ...(original as Record<string, unknown>) }
      const keys = Object.keys(object)
      if (index % 3 === 0) object[keys[index % keys.length]!] = replacement
      else if (index % 3 === 1) Object.defineProperty(object, index % 2 ? '__proto__' : key, { value: replacement, enumerable: true })
      else object['constructor'] = { prototype: { polluted: true } }
      return JSON.stringify(object)
    })

const body = (template: string) => {
  const valid = template === '/v1/ohlc' ? validOhlc : validOnboard
  return fc
    .oneof(
      { weight: 4, arbitrary: valid.map((value) => JSON.stringify(value)) },
      { weight: 3, arbitrary: mutated(valid) },
      {
        weight: 1,
        arbitrary: valid.chain((value) => fc.nat().map((cut) => JSON.stringify(value).slice(0, cut % JSON.stringify(value).length))),
      },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '[]', '{}', '"x"', '{"a":', '\u0000', '{"__proto__":{"polluted":true}}') },
      { weight: 1, arbitrary: fc.integer({ min: 1000, max: 10_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)) },
      { weight: 1, arbitrary: fc.integer({ min: 1000, max: 10_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) },
      { weight: 1, arbitrary: fc.integer({ min: 64 * 1024 - 10, max: 80 * 1024 }).map((size) => `{"pad":"${'x'.repeat(size)}"}`) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    )
    .map((text) => Buffer.from(text))
}

const invalidUtf8Body = fc.constantFrom(
  Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.from([0xed, 0xa0, 0x80]),
)

type Framing = 'length' | 'chunked' | 'broken-chunked' | 'duplicate-length' | 'none'

const extraHeaders = fc.array(
  fc.oneof(
    fc.tuple(fc.constantFrom('x-forwarded-for'), fc.oneof(fc.ipV4(), fc.ipV6(), hostileText)),
    fc.tuple(fc.constantFrom('x-request-id', 'origin', 'accept', 'content-type', 'if-none-match', 'cookie'), hostileText),
    fc.tuple(
      fc.constantFrom('x-huge'),
      fc.integer({ min: 1000, max: 16_000 }).map((length) => 'h'.repeat(length)),
    ),
    fc.tuple(fc.constantFrom('x-repeated'), fc.constant('r')),
  ),
  { maxLength: 30 },
)

/** A raw request of any method to any route (or nowhere), with hostile parts. */
export const hostileRequest: fc.Arbitrary<HostileRequest> = fc
  .record({
    route: fc.option(fc.constantFrom(...ROUTES), { nil: undefined, freq: 12 }),
    methodChoice: fc.oneof(
      { weight: 12, arbitrary: fc.constant('route') },
      { weight: 2, arbitrary: fc.constant('HEAD') },
      { weight: 2, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE') },
    ),
    unknownPath: fc.oneof(
      // ('/' is the live board, a route of its own)
      fc.constantFrom('/index.html', '/v1', '/v2/prices', '/v1/prices/BTC-USD/extra', '/.env', '/v1/%ZZ', '/docs/nothing'),
      hostileText.map((text) => `/v1/${escapeLoosely(text)}`),
    ),
    headers: extraHeaders,
    framing: fc.constantFrom<Framing>('length', 'length', 'length', 'length', 'chunked', 'none', 'broken-chunked', 'duplicate-length'),
    brokenLine: fc.oneof(
      { weight: 30, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('nul', 'space', 'garbage', 'bare-lf', 'many-headers') },
    ),
  })
  .chain((parts) => {
    const route = parts.route
    const template = route?.template ?? ''
    const param = route && template.includes('{') ? pathParam(template) : fc.constant('')
    const q = route
      ? query(template)
      : hostileQuery.map((pairs) => pairs.map(([k, v]) => `${escapeLoosely(k)}=${escapeLoosely(v)}`).join('&'))
    const payload = fc.oneof(
      { weight: 12, arbitrary: route && route.method === 'POST' ? body(template) : fc.constant(Buffer.alloc(0)) },
      { weight: 1, arbitrary: invalidUtf8Body },
    )
    return fc.tuple(fc.constant(parts), param, q, payload)
  })
  .map(([parts, param, q, payload]) => {
    const route = parts.route
    const method = parts.methodChoice === 'route' ? (route?.method ?? 'GET') : parts.methodChoice
    const base = route ? route.template.replace(/\{[a-z]+\}/, param) : parts.unknownPath
    const path = q ? `${base}?${q}` : base
    const headers: Array<[string, string]> = [['host', 'gateway.test'], ['connection', 'close'], ...parts.headers]
    const head = method === 'HEAD'
    let framed = parts.brokenLine === undefined && parts.headers.length + 4 < 40
    let bodyBytes = method === 'GET' || head ? Buffer.alloc(0) : payload
    if (parts.framing === 'length' || (parts.framing === 'none' && bodyBytes.length > 0))
      headers.push(['content-length', String(bodyBytes.length)])
    if (parts.framing === 'duplicate-length')
      headers.push(['content-length', String(bodyBytes.length)], ['content-length', String(bodyBytes.length + 1)])
    if (parts.framing === 'chunked' || parts.framing === 'broken-chunked') {
      headers.push(['transfer-encoding', 'chunked'])
      const chunk =
        bodyBytes.length > 0
          ? Buffer.concat([Buffer.from(`${bodyBytes.length.toString(16)}\r\n`), bodyBytes, Buffer.from('\r\n')])
          : Buffer.alloc(0)
      bodyBytes =
        parts.framing === 'chunked' ? Buffer.concat([chunk, Buffer.from('0\r\n\r\n')]) : Buffer.concat([Buffer.from('zz\r\n'), bodyBytes])
      if (parts.framing === 'broken-chunked') framed = false
    }
    let line = `${method} ${path} HTTP/1.1`
    let separator = '\r\n'
    if (parts.brokenLine === 'nul') line = `${method} ${path}\u0000 HTTP/1.1`
    if (parts.brokenLine === 'space') line = `${method} ${path} x HTTP/1.1`
    if (parts.brokenLine === 'garbage') line = 'HELLO'
    if (parts.brokenLine === 'bare-lf') separator = '\n'
    if (parts.brokenLine === 'many-headers') for (let n = 0; n < 60; n++) headers.push(['x-many', String(n)])
    const head_ = Buffer.from(
      `${line}${separator}${headers.map(([name, value]) => `${name}: ${value}`).join(separator)}${separator}${separator}`,
      'latin1',
    )
    const headText = head_.toString('latin1')
    // control bytes in the request line or a header (other than the line breaks) break the framing too
    // eslint-disable-next-line no-control-regex -- control bytes are what this looks for
    if (/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]|\r(?!\n)|(?<!\r)\n/.test(headText)) framed = false
    // so does a CRLF inside a value (one grapheme, or two code points whose low bytes are CR and LF): it starts a
    // line that is not `name: value`, or an empty line that ends the head early
    const fieldLines = headText.split('\r\n').slice(1, -2)
    if (!fieldLines.every((fieldLine) => FIELD_LINE.test(fieldLine))) framed = false
    // uWebSockets.js v20.30 resets a connection whose request head passes about 128 KB (v20.57 answers 431)
    if (head_.length > MAX_FRAMED_HEAD_BYTES) framed = false
    const longHead = head_.length > LONG_HEAD_BYTES
    const request: HostileRequest = { route, method, path, bytes: Buffer.concat([head_, bodyBytes]), framed, longHead, head }
    // a counterexample is printed with its requests' starts, not megabytes of bodies; the seed and path replay it
    return Object.assign(request, { [toStringMethod]: () => describeRequest(request) })
  })

/** The start of a request as sent (latin1, JSON-quoted) and its size, for failure messages. */
export function describeRequest(request: HostileRequest): string {
  return `${JSON.stringify(request.bytes.subarray(0, 600).toString('latin1'))} (${request.bytes.length} bytes)`
}
