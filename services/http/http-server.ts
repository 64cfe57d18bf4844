import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js'
import { ServiceError } from '../../kit/errors.ts'
import { hotCounter } from '../../kit/hot-counter.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { BudgetName } from './budgets.ts'
import { preferredCoding, type ContentCoding } from './content-coding.ts'
import { createCors, PLAIN_VARY } from './cors.ts'
import type { OnCompressed } from './encoded-body.ts'
import type { ErrorShape } from './error-bodies.ts'
import { errorResponse } from './error-response.ts'
import { loadNativeUws } from './native-uws.ts'
import { originAllowlist, type OriginAllowlist } from './origin-allowlist.ts'
import { decodePathParams, paramNames } from './path-params.ts'
import type { RateLimits, RateLimitDecision } from './rate-limits.ts'
import type { Reply } from './reply.ts'
import type { RequestContext } from './request-context.ts'

export type Method = 'GET' | 'POST'

export interface Route {
  method: Method
  /** uWS pattern, e.g. '/v1/prices/:pair' */
  path: string
  /** the rate-limit budget this route draws on; none for operational routes */
  budget?: BudgetName
  /** the body shape of every failure on this path (405, 413, 429 and 500 included); framework by default */
  errorShape?: ErrorShape
  /**
   * the request headers the handler reads (lower case), for hot GET routes: only these are copied into the
   * context (with those the server itself reads, and X-Forwarded-For when the route draws on a budget: list
   * it to read `clientIp` otherwise); every header when not given
   */
  headers?: readonly string[]
  handle(context: RequestContext): Reply | Promise<Reply>
}

export interface HttpServerOptions {
  logger: Logger
  metrics: Metrics
  rateLimits: RateLimits
  resolveClientIp: (peer: string, forwardedFor: string | undefined) => string
  /** request bodies above this many bytes get 413 */
  bodyLimitBytes: number
  /** browser origins answered with CORS headers; the service's own origin only by default */
  allowedOrigins?: OriginAllowlist
}

export interface HttpServer {
  /** the uWS app, for the WebSocket route */
  readonly app: TemplatedApp
  addRoutes(routes: Route[]): void
  listen(host: string, port: number): Promise<number>
  /** stops accepting new connections */
  close(): void
}

const uws = loadNativeUws()

/**
 * The HTTP kit every route goes through: x-request-id on every response (a client's value is
 * ignored), the spec's error shapes, 404 and 405, HEAD for every GET route, the body limit, per-IP
 * budgets and their headers, CORS, compression of the bodies routes mark as compressible. It is also the
 * error boundary: whatever a route throws, synchronously or not, becomes that request's answer (a 500 and
 * a log line when unexpected), never a process exit.
 */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const app = uws.App()
  const log = options.logger.child({ module: 'http' })
  const routesByPath = new Map<string, Map<Method, Route>>()
  const cors = createCors(options.allowedOrigins ?? originAllowlist([]))
  const limitsOff = options.rateLimits.store === 'disabled'
  const routeMetrics = new Map<string, RouteMetrics>()
  const compressed = options.metrics.httpCompressions
  const onCompressed: OnCompressed = (coding) => compressed.labels(coding).inc()
  let listenSocket: us_listen_socket | undefined

  const metricsOf = (routeName: string): RouteMetrics => {
    let found = routeMetrics.get(routeName)
    if (!found) {
      found = { duration: options.metrics.httpDuration.labels(routeName), byStatus: new Map() }
      routeMetrics.set(routeName, found)
    }
    return found
  }

  const count = (exchange: Exchange, status: number) => {
    const metrics = metricsOf(exchange.routeName)
    let counter = metrics.byStatus.get(status)
    if (!counter) {
      // counted in a plain number, handed to prom-client once a second: a labelled increment hashes its labels
      counter = hotCounter(options.metrics.httpRequests.labels(exchange.routeName, String(status)))
      metrics.byStatus.set(status, counter)
    }
    counter.inc()
    metrics.duration.observe((performance.now() - exchange.startedAt) / 1000)
  }

  /** Writes the reply; `inHandler` while still in uWS's handler, where the response is corked already. */
  const send = (res: HttpResponse, exchange: Exchange, reply: Reply, limit: RateLimitDecision | undefined, inHandler: boolean) => {
    if (exchange.aborted || exchange.responded) return
    exchange.responded = true
    // no closure on the synchronous path, where uWS has corked the response already
    const status = inHandler ? writeReply(res, exchange, reply, limit) : corked(res, () => writeReply(res, exchange, reply, limit))
    count(exchange, status)
  }

  /** Writes a reply; returns the status sent (304 for a conditional request that names the current ETag). */
  const writeReply = (res: HttpResponse, exchange: Exchange, reply: Reply, limit: RateLimitDecision | undefined): number => {
    if (reply.encoded) return writeEncoded(res, exchange, reply, limit)
    writeHead(res, exchange, reply.status, reply, limit)
    endWith(res, exchange, reply.body)
    return reply.status
  }

  /** A body the server may compress and, with Cache-Control, answer with 304; returns the status sent. */
  const writeEncoded = (res: HttpResponse, exchange: Exchange, reply: Reply, limit: RateLimitDecision | undefined): number => {
    const encoded = reply.encoded!
    const coding = encoded.codingFor(preferredCoding(exchange.headers['accept-encoding']))
    const etag = reply.cacheControl === undefined ? undefined : encoded.etag(coding)
    const ifNoneMatch = exchange.headers['if-none-match']
    const notModified = etag !== undefined && ifNoneMatch !== undefined && namesEtag(ifNoneMatch, etag)
    const status = notModified ? 304 : reply.status
    if (status === 200 && !limit && !reply.headers && exchange.headers.origin === undefined) {
      // the common answer (no CORS, no budget headers): uWS writes 200 OK when no status is given, and the
      // headers every answer of this reply in this coding shares go out in one native call
      res.writeHeader('x-request-id', exchange.requestId).writeHeader('content-type', fixedHeaderBlock(reply, coding, etag))
    } else {
      writeHead(res, exchange, status, reply, limit, 'accept-encoding')
      if (coding !== 'identity') res.writeHeader('content-encoding', coding)
      if (etag !== undefined) res.writeHeader('etag', etag).writeHeader('cache-control', reply.cacheControl!)
    }
    endWith(res, exchange, notModified ? '' : encoded.bytes(coding, onCompressed))
    return status
  }

  const sendError = (res: HttpResponse, exchange: Exchange, error: unknown, limit: RateLimitDecision | undefined, inHandler: boolean) => {
    try {
      const { status, body } = errorResponse(error, exchange.shape)
      // a 500 is a fault of ours and gets the stack; a 502 or 503 is an expected state of a dependency
      if (status === 500) log.error({ err: error, requestId: exchange.requestId, route: exchange.routeName }, 'request failed')
      else if (status > 500) {
        const reason = error instanceof Error ? error.message : undefined
        log.info({ status, reason, requestId: exchange.requestId, route: exchange.routeName }, 'request answered unavailable')
      }
      const reply: Reply = { status, body: JSON.stringify(body), contentType: 'application/json', ...allowHeader(error) }
      send(res, exchange, reply, limit, inHandler)
    } catch (failure) {
      // the response itself could not be written (the connection went away): nothing left to answer
      log.warn({ err: failure, requestId: exchange.requestId }, 'error response not sent')
    }
  }

  const serve = async (res: HttpResponse, exchange: Exchange, route: Route, context: RequestContext, body: Promise<Buffer> | undefined) => {
    let limit: RateLimitDecision | undefined
    try {
      if (route.budget && !limitsOff) {
        limit = await options.rateLimits.check(route.budget, context.clientIp)
        if (!limit.allowed) {
          options.metrics.rateLimited.labels(route.budget).inc()
          throw new ServiceError('rate_limited', `rate limit exceeded: retry in ${limit.resetSeconds} seconds`, {
            details: { budget: route.budget, retryAfterSeconds: limit.resetSeconds },
          })
        }
      }
      if (body) context.body = await body
      send(res, exchange, await route.handle(context), limit, false)
    } catch (error) {
      sendError(res, exchange, error, limit, false)
    }
  }

  /**
   * Answers within uWS's handler when nothing needs waiting for (no budget to ask a store, no body, a
   * synchronous handler): no promise, no abort handler, no extra cork. Returns a promise otherwise.
   */
  const answer = (res: HttpResponse, exchange: Exchange, route: Route, context: RequestContext, body: Promise<Buffer> | undefined) => {
    if (body || (route.budget && !limitsOff)) return serve(res, exchange, route, context, body)
    let reply: Reply | Promise<Reply>
    try {
      reply = route.handle(context)
    } catch (error) {
      return sendError(res, exchange, error, undefined, true)
    }
    if (!(reply instanceof Promise)) return send(res, exchange, reply, undefined, true)
    return reply.then(
      (settled) => send(res, exchange, settled, undefined, false),
      (error: unknown) => sendError(res, exchange, error, undefined, false),
    )
  }

  /** Answers a CORS preflight: 204 with what the origin may do, or a bare 403. */
  const sendPreflight = (res: HttpResponse, exchange: Exchange, status: 204 | 403, headers: Record<string, string>) => {
    exchange.responded = true
    res.writeStatus(statusLine(status))
    res.writeHeader('x-request-id', exchange.requestId)
    for (const name in headers) res.writeHeader(name, headers[name]!)
    res.end()
    count(exchange, status)
  }

  /** What a hot route's requests copy (set as routes are added): the server's own, the client address when budgeted, the route's. */
  const routeHeaders = new Map<Route, readonly string[]>()
  const headersToCopy = (route: Route) =>
    route.headers && [...SERVER_HEADERS, ...(route.budget !== undefined && !limitsOff ? ['x-forwarded-for'] : []), ...route.headers]

  const dispatch = (pattern: string) => {
    const names = paramNames(pattern)
    return (res: HttpResponse, req: HttpRequest) => {
      const requested = req.getMethod()
      const head = requested === 'head'
      const method = head ? 'GET' : (METHODS[requested] ?? (requested.toUpperCase() as Method))
      const route = routesByPath.get(pattern)?.get(method)
      // uWS's request object lives only until this function returns: everything is copied out first
      // every header when the route names none it reads (routeHeaders has no entry)
      const headers = readHeaders(req, route && routeHeaders.get(route))
      const exchange = new Exchange(
        pattern,
        headers,
        shapeOf(routesByPath.get(pattern)),
        head,
        cors.answerHeaders(headers.origin, headers.host),
      )
      // uWS does not count endWithoutBody (HEAD) as an answer when the handler returns: it wants an abort handler first
      if (head) res.onAborted(() => (exchange.aborted = true))
      let pending: Promise<void> | void
      try {
        if (!route && requested === 'options') {
          const allowed = [...(routesByPath.get(pattern)?.keys() ?? [])]
          const requestMethod = req.getHeader('access-control-request-method') || undefined
          const preflight = cors.preflight({ origin: headers.origin, host: headers.host, requestMethod }, allowed)
          if (preflight) return sendPreflight(res, exchange, preflight.status, preflight.headers)
        }
        if (!route) {
          const allowed = allowedMethods(routesByPath.get(pattern))
          const refusal = new ServiceError('method_not_allowed', `${requested.toUpperCase()} is not allowed here; use ${allowed}`, {
            details: { allow: allowed },
          })
          return sendError(res, exchange, refusal, undefined, true)
        }
        const params = names.length === 0 ? NO_PARAMS : decodePathParams(names, rawParams(req, names.length))
        const query = req.getQuery()
        const context = new UwsRequestContext(
          res,
          options.resolveClientIp,
          method,
          req.getUrl(),
          params,
          query ? new URLSearchParams(query) : NO_QUERY,
          headers,
          exchange.requestId,
          log,
        )
        // uWS hands over the body only to a reader attached before the handler returns: start reading now,
        // even though the budget is checked first (with Redis that takes a round trip)
        const body = route.method === 'POST' ? readBody(res, exchange, options.bodyLimitBytes, headers) : undefined
        body?.catch(ignore) // a refused request never awaits its body
        if (headers['content-length'] === DUPLICATE) {
          exchange.closeConnection = true
          throw new ServiceError('validation_failed', 'conflicting Content-Length headers', {
            issues: [{ code: 'custom', path: ['headers', 'content-length'], message: 'sent more than once with different values' }],
          })
        }
        pending = answer(res, exchange, route, context, body)
      } catch (error) {
        pending = sendError(res, exchange, error, undefined, true)
      }
      if (pending && !head) res.onAborted(() => (exchange.aborted = true))
    }
  }

  app.any('/*', (res, req) => {
    const headers = readHeaders(req, NOT_FOUND_HEADERS)
    const exchange = new Exchange('unknown', headers, 'framework', false, cors.answerHeaders(headers.origin, headers.host))
    sendError(res, exchange, new ServiceError('not_found', 'no such route'), undefined, true)
  })

  return {
    app,
    addRoutes(routes) {
      for (const route of routes) {
        let methods = routesByPath.get(route.path)
        if (!methods) {
          methods = new Map()
          routesByPath.set(route.path, methods)
          app.any(route.path, dispatch(route.path))
        }
        methods.set(route.method, route)
        const names = headersToCopy(route)
        if (names) routeHeaders.set(route, names)
      }
    },
    listen(host, port) {
      return new Promise((resolve, reject) => {
        app.listen(host, port, (socket) => {
          if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`))
          listenSocket = socket
          resolve(uws.us_socket_local_port(socket))
        })
      })
    },
    close() {
      if (listenSocket) uws.us_listen_socket_close(listenSocket)
      listenSocket = undefined
    },
  }
}

class Exchange {
  readonly requestId = randomUUID()
  readonly startedAt = performance.now()
  aborted = false
  /** set once the response is written: a late failure cannot answer twice */
  responded = false
  /** the request's framing cannot be trusted: close the connection after answering */
  closeConnection = false
  constructor(
    readonly routeName: string,
    /** what the server itself reads (accept-encoding, if-none-match, origin, host) and the route's own */
    readonly headers: Record<string, string>,
    /** the body shape of this path's failures */
    readonly shape: ErrorShape,
    /** a HEAD request: the GET route's status and headers, no body */
    readonly head: boolean,
    /** CORS headers for the answer */
    readonly cors: Record<string, string>,
  ) {}
}

/** The context handed to handlers; the client's address is worked out only when read. */
class UwsRequestContext implements RequestContext {
  body = EMPTY_BODY
  private ip: string | undefined

  constructor(
    private readonly res: HttpResponse,
    private readonly resolveClientIp: HttpServerOptions['resolveClientIp'],
    readonly method: Method,
    readonly path: string,
    readonly params: Record<string, string>,
    readonly query: URLSearchParams,
    readonly headers: Record<string, string>,
    readonly requestId: string,
    readonly log: Logger,
  ) {}

  /** the peer address stays readable until the response ends */
  get clientIp(): string {
    return (this.ip ??= this.resolveClientIp(Buffer.from(this.res.getRemoteAddressAsText()).toString(), this.headers['x-forwarded-for']))
  }
}

interface RouteMetrics {
  duration: { observe(seconds: number): void }
  byStatus: Map<number, { inc(): void }>
}

const METHODS: Record<string, Method | undefined> = { get: 'GET', post: 'POST' }
/** read by the server itself for every route */
const SERVER_HEADERS = ['accept-encoding', 'if-none-match', 'origin']
/** what the not-found answer reads */
const NOT_FOUND_HEADERS: readonly string[] = [...SERVER_HEADERS, 'x-forwarded-for']
const NO_PARAMS: Record<string, string> = Object.freeze({})
/** shared by every request without a query string; handlers only read it */
const NO_QUERY = new URLSearchParams()
const EMPTY_BODY = Buffer.alloc(0)
const ignore = () => {}

/** A path answers its failures (405 included) in the shape its routes name, framework when they name none. */
function shapeOf(methods: Map<Method, Route> | undefined): ErrorShape {
  if (!methods) return 'framework'
  for (const route of methods.values()) if (route.errorShape && route.errorShape !== 'framework') return route.errorShape
  return 'framework'
}

function allowedMethods(methods: Map<Method, Route> | undefined): string {
  const names = [...(methods?.keys() ?? [])]
  return (names.includes('GET') ? [...names, 'HEAD'] : names).join(', ')
}

function rawParams(req: HttpRequest, count: number): string[] {
  const raw: string[] = []
  for (let index = 0; index < count; index++) raw.push(req.getParameter(index) ?? '')
  return raw
}

/** Marks a Content-Length sent twice with different values (a request-smuggling attempt). */
const DUPLICATE = '\0duplicate'

/**
 * Every header (repeats joined, a conflicting Content-Length marked), or only the named ones on hot routes,
 * with Host when there is an Origin (CORS admits the service's own origin by it).
 */
function readHeaders(req: HttpRequest, names: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  if (names === undefined) {
    req.forEach((name, value) => {
      if (name === 'content-length' && headers[name] !== undefined && headers[name] !== value) headers[name] = DUPLICATE
      else if (headers[name] === undefined) headers[name] = value
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

const headerBlocks = new WeakMap<Reply, Map<ContentCoding, string>>()

/**
 * The value of a Content-Type header that carries the other fixed headers of an encoded 200 after it
 * (Vary, Content-Encoding, ETag, Cache-Control), joined by CRLF: uWS writes a header as `name: value` CRLF,
 * so one call writes them all. Made once per reply and coding, from the server's own constants only.
 */
function fixedHeaderBlock(reply: Reply, coding: ContentCoding, etag: string | undefined): string {
  let blocks = headerBlocks.get(reply)
  if (!blocks) headerBlocks.set(reply, (blocks = new Map<ContentCoding, string>()))
  let block = blocks.get(coding)
  if (block === undefined) {
    block = `${reply.contentType}\r\nvary: ${PLAIN_VARY}, accept-encoding`
    if (coding !== 'identity') block += `\r\ncontent-encoding: ${coding}`
    if (etag !== undefined) block += `\r\netag: ${etag}\r\ncache-control: ${reply.cacheControl!}`
    blocks.set(coding, block)
  }
  return block
}

/** Runs `write` corked (outside uWS's handler) and returns what it returned. */
function corked<T>(res: HttpResponse, write: () => T): T {
  let result: T | undefined
  res.cork(() => (result = write()))
  return result!
}

const STATUS_LINES = new Map<number, string>()
function statusLine(status: number): string {
  let line = STATUS_LINES.get(status)
  if (line === undefined) STATUS_LINES.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`))
  return line
}

/** The status line and the headers every answer carries; one Vary naming CORS's and compression's keys. */
function writeHead(
  res: HttpResponse,
  exchange: Exchange,
  status: number,
  reply: Reply,
  limit: RateLimitDecision | undefined,
  varyAlso?: string,
) {
  res.writeStatus(statusLine(status))
  res.writeHeader('x-request-id', exchange.requestId)
  res.writeHeader('content-type', reply.contentType)
  for (const name in exchange.cors) if (name !== 'vary') res.writeHeader(name, exchange.cors[name]!)
  const vary = exchange.cors.vary
  if (vary !== undefined || varyAlso !== undefined) res.writeHeader('vary', vary && varyAlso ? `${vary}, ${varyAlso}` : (vary ?? varyAlso)!)
  if (limit && limit.limit > 0) writeRateLimitHeaders(res, limit)
  if (reply.headers) for (const name in reply.headers) res.writeHeader(name, reply.headers[name]!)
}

/** Ends the response: the body, or for HEAD only its length. */
function endWith(res: HttpResponse, exchange: Exchange, body: Buffer | string) {
  if (exchange.head) res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, exchange.closeConnection)
  else res.end(body, exchange.closeConnection)
}

/** If-None-Match compares weakly (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches anything. */
function namesEtag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag.replace(/^W\//, '') === etag
  })
}

function writeRateLimitHeaders(res: HttpResponse, limit: RateLimitDecision) {
  res.writeHeader('x-ratelimit-limit', String(limit.limit))
  res.writeHeader('x-ratelimit-remaining', String(limit.remaining))
  res.writeHeader('x-ratelimit-reset', String(limit.resetSeconds))
  if (!limit.allowed) res.writeHeader('retry-after', String(limit.resetSeconds))
}

function allowHeader(error: unknown): { headers?: Record<string, string> } {
  if (error instanceof ServiceError && error.code === 'method_not_allowed') {
    return { headers: { allow: (error.details as { allow: string }).allow } }
  }
  return {}
}

/** Reads the whole body, refusing with 413 as soon as it is known to exceed the limit. */
function readBody(res: HttpResponse, exchange: Exchange, limitBytes: number, headers: Record<string, string>): Promise<Buffer> {
  const tooLarge = () =>
    new ServiceError('payload_too_large', `request body is larger than ${limitBytes} bytes`, { details: { limitBytes } })
  const declared = Number(headers['content-length'] ?? 0)
  if (declared > limitBytes) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    let refused = false
    res.onData((chunk, isLast) => {
      if (refused || exchange.aborted) return
      received += chunk.byteLength
      if (received > limitBytes) {
        refused = true
        return reject(tooLarge())
      }
      // uWS reuses the chunk's memory after this callback returns: copy it
      chunks.push(Buffer.from(chunk.slice(0)))
      if (isLast) resolve(Buffer.concat(chunks))
    })
  })
}
