import type { HttpRequest, HttpResponse, us_socket_context_t } from 'uWebSockets.js'
import type { BudgetName } from './budgets.ts'
import type { OriginAllowlist } from './origin-allowlist.ts'
import { restBudgetRefusal, type BudgetRefusal, type RequestPipeline } from './pipeline.ts'
import type { ServiceError } from '../../kit/errors.ts'
import { peerAddress } from './request-context.ts'
import { readHeaders } from './request-headers.ts'
import type { RouteMetrics } from './request-metrics.ts'
import { RequestState, watchAbort } from './request-state.ts'
import { writeBare, writeBudgetHeaders } from './response-writer.ts'

/** A WebSocket route: the pipeline's stages first (origin, budget), then the route's own admission. */
export interface UpgradeRoute<UserData> {
  path: string
  /** the budget every upgrade draws on */
  budget?: BudgetName
  /** the 429 of a spent budget; REST's when not given */
  budgetRefusal?: BudgetRefusal
  /** told of the refusals the pipeline makes before `admit` (a browser origin not allowed, a spent budget) */
  onRefused?(reason: 'origin' | 'budget', clientIp: string): void
  /** decides an upgrade the pipeline let through; an admitted one holds what it took until its socket closes or `abandon` */
  admit(request: UpgradeRequest): UpgradeDecision<UserData> | Promise<UpgradeDecision<UserData>>
  /** an admitted upgrade whose client went away before the 101 */
  abandon(userData: UserData): void
}

export interface UpgradeRequest {
  requestId: string
  clientIp: string
  /** what per-IP ceilings count by (see budget-keys.ts) */
  budgetKey: string
  /** the raw query string, '' when none */
  query: string
}

export type UpgradeDecision<UserData> =
  | { admitted: true; userData: UserData }
  /** `refundsBudget`: the refusal is the replica's state, not the client's doing (a 503), so it spends none of the client's budget */
  | { admitted: false; refusal: ServiceError; refundsBudget?: boolean }

/** What the upgrade stages read of the server. */
export interface UpgradeServer {
  pipeline: RequestPipeline
  allowedOrigins: OriginAllowlist
  resolveClientIp: (peer: string, forwardedFor: string | undefined) => string
}

/** An upgrade route with what its requests need, resolved when it is added. */
export interface UpgradePlan<UserData> {
  route: UpgradeRoute<UserData>
  metrics: RouteMetrics
  /** none when the route has none or budgets are lifted */
  budget: BudgetName | undefined
}

/**
 * uWS's upgrade handler: request id, origin (a browser origin not allowed gets a bare 403), budget, then
 * the route's admission; its refusals and failures are answered by the pipeline in the framework shape.
 */
export function serveUpgrade<UserData>(
  server: UpgradeServer,
  plan: UpgradePlan<UserData>,
  res: HttpResponse,
  req: HttpRequest,
  socketContext: us_socket_context_t,
): void {
  const headers = readHeaders(req, UPGRADE_HEADERS)
  const state = new RequestState(plan.metrics, headers, 'framework', false, NO_CORS)
  watchAbort(res, state)
  try {
    const clientIp = server.resolveClientIp(peerAddress(res), headers['x-forwarded-for'])
    // browsers do not apply CORS to WebSockets: the allowlist is enforced here instead
    if (!server.allowedOrigins(headers.origin, headers.host)) {
      plan.route.onRefused?.('origin', clientIp)
      state.responded = true
      writeBare(res, state, 403, {})
      return state.metrics.count(403, state.startedAt)
    }
    const request = {
      requestId: state.requestId,
      clientIp,
      budgetKey: server.pipeline.rateLimits.keyOf(clientIp),
      query: req.getQuery() ?? '',
    }
    void admit(server.pipeline, plan, state, res, socketContext, request)
  } catch (error) {
    server.pipeline.fail(res, state, error, true)
  }
}

async function admit<UserData>(
  pipeline: RequestPipeline,
  plan: UpgradePlan<UserData>,
  state: RequestState,
  res: HttpResponse,
  socketContext: us_socket_context_t,
  request: UpgradeRequest,
) {
  try {
    if (plan.budget) await pipeline.takeBudget(state, plan.budget, request.clientIp, plan.route.budgetRefusal ?? restBudgetRefusal)
    const decision = await plan.route.admit(request)
    if (!decision.admitted && decision.refundsBudget && plan.budget) await pipeline.refundBudget(state, plan.budget, request.clientIp)
    if (state.aborted) {
      if (decision.admitted) plan.route.abandon(decision.userData)
      return
    }
    if (!decision.admitted) return pipeline.fail(res, state, decision.refusal, false)
    const { headers } = state
    res.cork(() => {
      res.writeStatus('101 Switching Protocols').writeHeader('x-request-id', state.requestId)
      if (state.budget) writeBudgetHeaders(res, state.budget)
      res.upgrade(
        decision.userData,
        headers['sec-websocket-key'] ?? '',
        headers['sec-websocket-protocol'] ?? '',
        headers['sec-websocket-extensions'] ?? '',
        socketContext,
      )
    })
    state.responded = true
    state.metrics.count(101, state.startedAt)
  } catch (error) {
    if (state.budget?.allowed === false) plan.route.onRefused?.('budget', request.clientIp)
    pipeline.fail(res, state, error, false)
  }
}

/** what an upgrade reads: the handshake's own, and what origin and budget need */
const UPGRADE_HEADERS = ['sec-websocket-key', 'sec-websocket-protocol', 'sec-websocket-extensions', 'origin', 'x-forwarded-for']
/** browsers do not apply CORS to WebSockets, so answers carry none of its headers */
const NO_CORS: Record<string, string> = Object.freeze({})
