import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js'
import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import { hotCounter } from '../../kit/hot-counter.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { BudgetName } from './budgets.ts'
import { errorResponse } from './error-response.ts'
import { loadNativeUws } from './native-uws.ts'
import type { RateLimits, RateLimitDecision } from './rate-limits.ts'
import type { Reply } from './reply.ts'
import { preferredCoding } from './content-coding.ts'
import type { OnCompressed } from './encoded-body.ts'
import type { RequestContext } from './request-context.ts'

export type Method = 'GET' | 'POST'

export interface Route {
  method: Method
  /** uWS pattern, e.g. '/v1/prices/:pair' */
  path: string
  /** the rate-limit budget this route draws on; none for operational routes */
  budget?: BudgetName
  /**
   * the request headers the handler reads (lower case), for hot routes: only these are copied into the
   * context (with those the server itself reads); every header when not given
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
 * ignored), the spec's error shapes, 404 and 405, the body limit, per-IP budgets and their headers.
 */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const app = uws.App()
  const log = options.logger.child({ module: 'http' })
  const routesByPath = new Map<string, Map<Method, Route>>()
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
    if (exchange.aborted) return
    const status = reply.encoded ? writeEncoded(res, exchange, reply, limit, inHandler) : reply.status
    if (!reply.encoded) {
      if (inHandler) writePlain(res, exchange, reply, limit)
      else res.cork(() => writePlain(res, exchange, reply, limit))
    }
    count(exchange, status)
  }

  /** A body the server may compress and, with Cache-Control, answer with 304; returns the status sent. */
  const writeEncoded = (res: HttpResponse, exchange: Exchange, reply: Reply, limit: RateLimitDecision | undefined, inHandler: boolean) => {
    const encoded = reply.encoded!
    const coding = encoded.codingFor(preferredCoding(exchange.headers['accept-encoding']))
    const etag = reply.cacheControl === undefined ? undefined : encoded.etag(coding)
    const ifNoneMatch = exchange.headers['if-none-match']
    const notModified = etag !== undefined && ifNoneMatch !== undefined && namesEtag(ifNoneMatch, etag)
    const body = notModified ? '' : encoded.bytes(coding, onCompressed)
    const write = () => {
      writeHead(res, exchange, notModified ? 304 : reply.status, reply, limit)
      res.writeHeader('vary', 'accept-encoding')
      if (coding !== 'identity') res.writeHeader('content-encoding', coding)
      if (etag !== undefined) res.writeHeader('etag', etag).writeHeader('cache-control', reply.cacheControl!)
      res.end(body)
    }
    if (inHandler) write()
    else res.cork(write)
    return notModified ? 304 : reply.status
  }

  const writePlain = (res: HttpResponse, exchange: Exchange, reply: Reply, limit: RateLimitDecision | undefined) => {
    writeHead(res, exchange, reply.status, reply, limit)
    res.end(reply.body)
  }

  const sendError = (res: HttpResponse, exchange: Exchange, error: unknown, limit: RateLimitDecision | undefined, inHandler: boolean) => {
    const { status, body } = errorResponse(error)
    if (status >= 500) log.error({ err: error, requestId: exchange.requestId, route: exchange.routeName }, 'request failed')
    const reply: Reply = { status, body: JSON.stringify(body), contentType: 'application/json', ...allowHeader(error) }
    send(res, exchange, reply, limit, inHandler)
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

  const dispatch = (pattern: string) => {
    const names = paramNames(pattern)
    return (res: HttpResponse, req: HttpRequest) => {
      const method = METHODS[req.getMethod()] ?? (req.getMethod().toUpperCase() as Method)
      const route = routesByPath.get(pattern)?.get(method)
      const headers = readHeaders(req, route?.headers)
      const exchange = new Exchange(pattern, headers)
      if (!route) {
        const allowed = [...(routesByPath.get(pattern)?.keys() ?? [])].join(', ')
        const refusal = new ServiceError('method_not_allowed', `${method} is not allowed here; use ${allowed}`, {
          details: { allow: allowed },
        })
        return sendError(res, exchange, refusal, undefined, true)
      }
      let params = NO_PARAMS
      if (names.length > 0) {
        params = {}
        for (let index = 0; index < names.length; index++) params[names[index]!] = decodeURIComponent(req.getParameter(index) ?? '')
      }
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
      const pending = answer(res, exchange, route, context, body)
      if (pending) res.onAborted(() => (exchange.aborted = true))
    }
  }

  app.any('/*', (res) => {
    sendError(res, new Exchange('unknown', NO_HEADERS), new ServiceError('not_found', 'no such route'), undefined, true)
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
  constructor(
    readonly routeName: string,
    /** what the server itself reads: accept-encoding, if-none-match */
    readonly headers: Record<string, string>,
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
const SERVER_HEADERS = ['accept-encoding', 'if-none-match', 'x-forwarded-for']
const NO_HEADERS: Record<string, string> = Object.freeze({})
const NO_PARAMS: Record<string, string> = Object.freeze({})
/** shared by every request without a query string; handlers only read it */
const NO_QUERY = new URLSearchParams()
const ignore = () => {}

function readHeaders(req: HttpRequest, names: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  if (names === undefined) {
    req.forEach((name, value) => (headers[name] = value))
    return headers
  }
  for (const list of [SERVER_HEADERS, names]) {
    for (const name of list) {
      const value = req.getHeader(name)
      if (value !== '') headers[name] = value
    }
  }
  return headers
}

const STATUS_LINES = new Map<number, string>()
function statusLine(status: number): string {
  let line = STATUS_LINES.get(status)
  if (line === undefined) STATUS_LINES.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`))
  return line
}

function writeHead(res: HttpResponse, exchange: Exchange, status: number, reply: Reply, limit: RateLimitDecision | undefined) {
  res.writeStatus(statusLine(status))
  res.writeHeader('x-request-id', exchange.requestId)
  res.writeHeader('content-type', reply.contentType)
  if (limit && limit.limit > 0) writeRateLimitHeaders(res, limit)
  if (reply.headers) for (const name in reply.headers) res.writeHeader(name, reply.headers[name]!)
}

/** If-None-Match compares weakly (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches anything. */
function namesEtag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag.replace(/^W\//, '') === etag
  })
}

const EMPTY_BODY = Buffer.alloc(0)

function paramNames(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1))
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
