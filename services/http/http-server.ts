import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js'
import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { BudgetName } from './budgets.ts'
import type { ErrorShape } from './error-bodies.ts'
import { errorResponse } from './error-response.ts'
import { loadNativeUws } from './native-uws.ts'
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
 * ignored), the spec's error shapes, 404 and 405, HEAD for every GET route, the body limit, per-IP
 * budgets and their headers. It is also the error boundary: whatever a route throws, synchronously or
 * not, becomes that request's answer (a 500 and a log line when unexpected), never a process exit.
 */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const app = uws.App()
  const log = options.logger.child({ module: 'http' })
  const routesByPath = new Map<string, Map<Method, Route>>()
  let listenSocket: us_listen_socket | undefined

  const send = (res: HttpResponse, exchange: Exchange, reply: Reply, limit?: RateLimitDecision) => {
    if (exchange.aborted || exchange.responded) return
    exchange.responded = true
    res.cork(() => {
      res.writeStatus(`${reply.status} ${STATUS_CODES[reply.status] ?? ''}`)
      res.writeHeader('x-request-id', exchange.requestId)
      res.writeHeader('content-type', reply.contentType)
      if (limit && limit.limit > 0) writeRateLimitHeaders(res, limit)
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.writeHeader(name, value)
      if (exchange.head) res.endWithoutBody(Buffer.byteLength(reply.body), exchange.closeConnection)
      else res.end(reply.body, exchange.closeConnection)
    })
    options.metrics.httpRequests.labels(exchange.routeName, String(reply.status)).inc()
    options.metrics.httpDuration.labels(exchange.routeName).observe((performance.now() - exchange.startedAt) / 1000)
  }

  const sendError = (res: HttpResponse, exchange: Exchange, error: unknown, limit?: RateLimitDecision) => {
    try {
      const { status, body } = errorResponse(error, exchange.shape)
      if (status >= 500) log.error({ err: error, requestId: exchange.requestId, route: exchange.routeName }, 'request failed')
      send(res, exchange, { status, body: JSON.stringify(body), contentType: 'application/json', ...allowHeader(error) }, limit)
    } catch (failure) {
      // the response itself could not be written (the connection went away): nothing left to answer
      log.warn({ err: failure, requestId: exchange.requestId }, 'error response not sent')
    }
  }

  const serve = async (res: HttpResponse, exchange: Exchange, route: Route, context: RequestContext, body: Promise<Buffer> | undefined) => {
    let limit: RateLimitDecision | undefined
    try {
      if (route.budget) {
        limit = await options.rateLimits.check(route.budget, context.clientIp)
        if (!limit.allowed) {
          options.metrics.rateLimited.labels(route.budget).inc()
          throw new ServiceError('rate_limited', `rate limit exceeded: retry in ${limit.resetSeconds} seconds`, {
            details: { budget: route.budget, retryAfterSeconds: limit.resetSeconds },
          })
        }
      }
      if (body) context.body = await body
      send(res, exchange, await route.handle(context), limit)
    } catch (error) {
      sendError(res, exchange, error, limit)
    }
  }

  const dispatch = (pattern: string) => (res: HttpResponse, req: HttpRequest) => {
    const exchange = newExchange(pattern, shapeOf(routesByPath.get(pattern)))
    res.onAborted(() => (exchange.aborted = true))
    try {
      const requested = req.getMethod().toUpperCase()
      exchange.head = requested === 'HEAD'
      const method = (exchange.head ? 'GET' : requested) as Method
      const route = routesByPath.get(pattern)?.get(method)
      if (!route) {
        const allowed = allowedMethods(routesByPath.get(pattern))
        throw new ServiceError('method_not_allowed', `${requested} is not allowed here; use ${allowed}`, { details: { allow: allowed } })
      }
      // uWS's request object lives only until this function returns: copy everything out first
      const headers = readHeaders(req)
      const rawParams = paramNames(pattern).map((_, index) => req.getParameter(index) ?? '')
      const path = req.getUrl()
      const query = req.getQuery() ?? ''
      const peer = Buffer.from(res.getRemoteAddressAsText()).toString()
      // uWS hands over the body only to a reader attached before the handler returns: start reading now,
      // even though the budget is checked first (with Redis that takes a round trip)
      const body = route.method === 'POST' ? readBody(res, exchange, options.bodyLimitBytes, headers) : undefined
      body?.catch(() => {}) // a refused request never awaits its body
      if (headers['content-length'] === DUPLICATE) {
        exchange.closeConnection = true
        throw new ServiceError('validation_failed', 'conflicting Content-Length headers', {
          issues: [{ code: 'custom', path: ['headers', 'content-length'], message: 'sent more than once with different values' }],
        })
      }
      const context: RequestContext = {
        method,
        path,
        params: decodePathParams(paramNames(pattern), rawParams),
        query: new URLSearchParams(query),
        headers,
        clientIp: options.resolveClientIp(peer, headers['x-forwarded-for']),
        requestId: exchange.requestId,
        body: EMPTY_BODY,
        log,
      }
      void serve(res, exchange, route, context, body)
    } catch (error) {
      sendError(res, exchange, error)
    }
  }

  app.any('/*', (res) => {
    const exchange = newExchange('unknown', 'framework')
    res.onAborted(() => (exchange.aborted = true))
    sendError(res, exchange, new ServiceError('not_found', 'no such route'))
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

interface Exchange {
  requestId: string
  startedAt: number
  aborted: boolean
  /** set once the response is written: a late failure cannot answer twice */
  responded: boolean
  routeName: string
  shape: ErrorShape
  /** a HEAD request: the GET route's status and headers, no body */
  head: boolean
  /** the request's framing cannot be trusted: close the connection after answering */
  closeConnection: boolean
}

function newExchange(routeName: string, shape: ErrorShape): Exchange {
  return {
    requestId: randomUUID(),
    startedAt: performance.now(),
    aborted: false,
    responded: false,
    routeName,
    shape,
    head: false,
    closeConnection: false,
  }
}

/** A path answers its failures (405 included) in the upstream-proxy shape when its routes do. */
function shapeOf(methods: Map<Method, Route> | undefined): ErrorShape {
  return [...(methods?.values() ?? [])].some((route) => route.errorShape === 'upstream-proxy') ? 'upstream-proxy' : 'framework'
}

function allowedMethods(methods: Map<Method, Route> | undefined): string {
  const names = [...(methods?.keys() ?? [])]
  return (names.includes('GET') ? [...names, 'HEAD'] : names).join(', ')
}

/** Marks a Content-Length sent twice with different values (a request-smuggling attempt). */
const DUPLICATE = '\0duplicate'

function readHeaders(req: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {}
  req.forEach((name, value) => {
    if (name === 'content-length' && headers[name] !== undefined && headers[name] !== value) headers[name] = DUPLICATE
    else if (headers[name] === undefined) headers[name] = value
    else if (name !== 'content-length') headers[name] = `${headers[name]}, ${value}`
  })
  return headers
}

const EMPTY_BODY = Buffer.alloc(0)

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
