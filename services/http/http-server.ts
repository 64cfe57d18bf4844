import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket, WebSocketBehavior } from 'uWebSockets.js'
import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { BudgetName } from './budgets.ts'
import { createCors, type Cors } from './cors.ts'
import type { ErrorShape } from './error-bodies.ts'
import { holdHttpTimeouts, loadNativeUws } from './native-uws.ts'
import { originAllowlist, type OriginAllowlist } from './origin-allowlist.ts'
import { decodePathParams, paramNames } from './path-params.ts'
import { RequestPipeline, restBudgetRefusal } from './pipeline.ts'
import type { RateLimits } from './rate-limits.ts'
import type { Reply } from './reply.ts'
import { UwsRequestContext, type RequestContext } from './request-context.ts'
import { hasConflictingContentLength, readHeaders } from './request-headers.ts'
import { readBody } from './request-body.ts'
import { routeMetricsRegistry, type RouteMetrics } from './request-metrics.ts'
import { RequestState, watchAbort } from './request-state.ts'
import { writeBare } from './response-writer.ts'
import { serveUpgrade, type UpgradeRoute } from './upgrade-route.ts'

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
  /** browser origins answered with CORS headers, and allowed to open WebSockets; the service's own origin only by default */
  allowedOrigins?: OriginAllowlist
}

export interface HttpServer {
  /** the uWS app, for publishing to WebSocket topics */
  readonly app: TemplatedApp
  addRoutes(routes: Route[]): void
  /** a WebSocket route: its upgrade passes the same pipeline as REST, then `admit` decides */
  addWebSocket<UserData>(route: UpgradeRoute<UserData>, behavior: Omit<WebSocketBehavior<UserData>, 'upgrade'>): void
  listen(host: string, port: number): Promise<number>
  /** stops accepting new connections */
  close(): void
}

const uws = loadNativeUws()
const NO_SUCH_ROUTE = new ServiceError('not_found', 'no such route')

/**
 * The HTTP kit every route goes through: routing (404, 405, HEAD for every GET route, CORS preflights),
 * then the request pipeline (pipeline.ts): x-request-id on every response (a client's value is ignored),
 * CORS, per-IP budgets and their headers, the body limit, compression of the bodies routes mark as
 * compressible, the error boundary in the spec's shapes and the request metrics. What a route needs is
 * resolved when it is added (its RoutePlan), so a request allocates no closures on the synchronous path.
 */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const app = uws.App()
  holdHttpTimeouts(app)
  const log = options.logger.child({ module: 'http' })
  const allowedOrigins = options.allowedOrigins ?? originAllowlist([])
  const cors = createCors(allowedOrigins)
  const pipeline = new RequestPipeline(log, options.metrics, options.rateLimits)
  const metricsOf = routeMetricsRegistry(options.metrics)
  const paths = new Map<string, PathRoutes>()
  const server: Served = { pipeline, cors, log, options }
  let listenSocket: us_listen_socket | undefined

  const notFound = metricsOf('unknown')
  app.any('/*', (res, req) => {
    const headers = readHeaders(req, NOT_FOUND_HEADERS)
    const state = new RequestState(notFound, headers, 'framework', false, cors.answerHeaders(headers.origin, headers.host))
    pipeline.fail(res, state, NO_SUCH_ROUTE, true)
  })

  return {
    app,
    addRoutes(routes) {
      for (const route of routes) {
        let path = paths.get(route.path)
        if (!path) {
          paths.set(route.path, (path = new PathRoutes(route.path, metricsOf(route.path))))
          const served = path
          app.any(route.path, (res, req) => dispatch(server, served, res, req))
        }
        path.add(planRoute(route, pipeline.budgetsOff))
      }
    },
    addWebSocket(route, behavior) {
      const metrics = metricsOf(route.path)
      const plan = { route, metrics, budget: pipeline.budgetsOff ? undefined : route.budget }
      const context = { pipeline, allowedOrigins, resolveClientIp: options.resolveClientIp }
      app.ws(route.path, { ...behavior, upgrade: (res, req, socketContext) => serveUpgrade(context, plan, res, req, socketContext) })
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

/** What the dispatcher reads of the server. */
interface Served {
  pipeline: RequestPipeline
  cors: Cors
  log: Logger
  options: HttpServerOptions
}

/** A route with what its requests need, resolved once when it is added. */
interface RoutePlan {
  route: Route
  /** the budget to check; none when the route has none or budgets are lifted */
  budget: BudgetName | undefined
  /** the headers a request copies; every header when undefined */
  headers: readonly string[] | undefined
}

function planRoute(route: Route, budgetsOff: boolean): RoutePlan {
  const budget = budgetsOff ? undefined : route.budget
  // a hot route copies the server's own headers, the client address when budgeted, and its own
  const headers = route.headers && [...SERVER_HEADERS, ...(budget !== undefined ? ['x-forwarded-for'] : []), ...route.headers]
  return { route, budget, headers }
}

/** The routes of one path pattern, by method, and what the path answers as a whole (its shape, its Allow). */
class PathRoutes {
  readonly paramNames: string[]
  readonly byMethod = new Map<Method, RoutePlan>()
  shape: ErrorShape = 'framework'
  /** the methods of the path, for Allow and preflights */
  methods: string[] = []
  allow = ''

  constructor(
    readonly pattern: string,
    /** every answer on the path is counted under its pattern */
    readonly metrics: RouteMetrics,
  ) {
    this.paramNames = paramNames(pattern)
  }

  add(plan: RoutePlan) {
    this.byMethod.set(plan.route.method, plan)
    // a path answers its failures (405 included) in the shape its routes name, framework when they name none
    if (plan.route.errorShape && plan.route.errorShape !== 'framework') this.shape = plan.route.errorShape
    this.methods = [...this.byMethod.keys()]
    this.allow = (this.methods.includes('GET') ? [...this.methods, 'HEAD'] : this.methods).join(', ')
  }
}

/** Routes one request of a path to its route's plan, or answers a preflight, 405, or the request's framing fault. */
function dispatch(server: Served, path: PathRoutes, res: HttpResponse, req: HttpRequest) {
  const { pipeline, cors } = server
  const requested = req.getMethod()
  const head = requested === 'head'
  const method = head ? 'GET' : (METHODS[requested] ?? (requested.toUpperCase() as Method))
  const plan = path.byMethod.get(method)
  // uWS's request object lives only until this function returns: everything is copied out first
  const headers = readHeaders(req, plan?.headers)
  const state = new RequestState(path.metrics, headers, path.shape, head, cors.answerHeaders(headers.origin, headers.host))
  // uWS does not count endWithoutBody (HEAD) as an answer when the handler returns: it wants an abort handler first
  if (head) watchAbort(res, state)
  let pending: Promise<void> | void
  try {
    if (!plan) return refuseMethod(server, path, state, res, req, requested)
    const params = path.paramNames.length === 0 ? NO_PARAMS : decodePathParams(path.paramNames, rawParams(req, path.paramNames.length))
    const query = req.getQuery()
    const context = new UwsRequestContext(
      res,
      server.options.resolveClientIp,
      method,
      req.getUrl(),
      params,
      query ? new URLSearchParams(query) : NO_QUERY,
      headers,
      state.requestId,
      server.log,
    )
    // started now though the budget is checked first (with Redis that takes a round trip): see readBody
    const body = method === 'POST' ? readBody(res, state, server.options.bodyLimitBytes) : undefined
    body?.catch(ignore) // a refused request never awaits its body
    // hot routes (their headers named) are GET routes, whose bodies are never read
    if (!plan.headers && hasConflictingContentLength(req)) {
      state.closeConnection = true
      throw new ServiceError('validation_failed', 'conflicting Content-Length headers', {
        issues: [{ code: 'custom', path: ['headers', 'content-length'], message: 'sent more than once with different values' }],
      })
    }
    pending = body || plan.budget ? serve(pipeline, plan, state, res, context, body) : answerNow(pipeline, plan.route, state, res, context)
  } catch (error) {
    pending = pipeline.fail(res, state, error, true)
  }
  if (pending && !head) watchAbort(res, state)
}

/** A method the path does not serve: a CORS preflight's answer, or 405 with Allow. */
function refuseMethod(server: Served, path: PathRoutes, state: RequestState, res: HttpResponse, req: HttpRequest, requested: string) {
  if (requested === 'options') {
    const requestMethod = req.getHeader('access-control-request-method') || undefined
    const { origin, host } = state.headers
    const preflight = server.cors.preflight({ origin, host, requestMethod }, path.methods)
    if (preflight) {
      state.responded = true
      writeBare(res, state, preflight.status, preflight.headers)
      return state.metrics.count(preflight.status, state.startedAt)
    }
  }
  const refusal = new ServiceError('method_not_allowed', `${requested.toUpperCase()} is not allowed here; use ${path.allow}`, {
    details: { allow: path.allow },
    headers: { allow: path.allow },
  })
  server.pipeline.fail(res, state, refusal, true)
}

/** The waiting path: the budget (a store round trip), the body, an asynchronous handler. */
async function serve(
  pipeline: RequestPipeline,
  plan: RoutePlan,
  state: RequestState,
  res: HttpResponse,
  context: RequestContext,
  body: Promise<Buffer> | undefined,
) {
  try {
    if (plan.budget) await pipeline.takeBudget(state, plan.budget, context.clientIp, restBudgetRefusal)
    if (body) context.body = await body
    pipeline.send(res, state, await plan.route.handle(context), false)
  } catch (error) {
    pipeline.fail(res, state, error, false)
  }
}

/**
 * Answers within uWS's handler when nothing needs waiting for (no budget, no body, a synchronous
 * handler): no promise, no abort handler, no extra cork. Returns a promise otherwise.
 */
function answerNow(pipeline: RequestPipeline, route: Route, state: RequestState, res: HttpResponse, context: RequestContext) {
  let reply: Reply | Promise<Reply>
  try {
    reply = route.handle(context)
  } catch (error) {
    return pipeline.fail(res, state, error, true)
  }
  if (!(reply instanceof Promise)) return pipeline.send(res, state, reply, true)
  return reply.then(
    (settled) => pipeline.send(res, state, settled, false),
    (error: unknown) => pipeline.fail(res, state, error, false),
  )
}

function rawParams(req: HttpRequest, count: number): string[] {
  const raw: string[] = []
  for (let index = 0; index < count; index++) raw.push(req.getParameter(index) ?? '')
  return raw
}

const METHODS: Record<string, Method | undefined> = { get: 'GET', post: 'POST' }
/** read by the server itself for every route */
const SERVER_HEADERS = ['accept-encoding', 'if-none-match', 'origin']
/** what the not-found answer reads */
const NOT_FOUND_HEADERS: readonly string[] = [...SERVER_HEADERS, 'x-forwarded-for']
const NO_PARAMS: Record<string, string> = Object.freeze({})
/** shared by every request without a query string; handlers only read it */
const NO_QUERY = new URLSearchParams()
const ignore = () => {}
