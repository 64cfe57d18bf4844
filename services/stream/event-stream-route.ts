import type { HttpResponse } from 'uWebSockets.js'
import { ServiceError } from '../../kit/errors.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { Route } from '../http/http-server.ts'
import type { OriginAllowlist } from '../http/origin-allowlist.ts'
import type { RateLimitDecision, RateLimits } from '../http/rate-limits.ts'
import type { Reply } from '../http/reply.ts'
import type { RequestContext } from '../http/request-context.ts'
import { writeBudgetHeaders } from '../http/response-writer.ts'
import type { Cursor } from './cursor.ts'
import type { SseConnection, SseDelivery } from './sse-delivery.ts'
import type { FixedRate } from './stream-rate.ts'
import { resumingQuery } from './stream-query.ts'
import type { UpgradeAdmission } from './upgrade-admission.ts'
import type { Admission, RejectionReason, UpgradeGate } from './upgrade-gate.ts'

/** The checks every stream path's event stream passes before it is answered, as its WebSocket upgrade does. */
export interface EventStreamChecks {
  gate: UpgradeGate
  upgradeRate: UpgradeAdmission
  rateLimits: RateLimits
  allowedOrigins: OriginAllowlist
  /** the 429 of a spent upgrade budget, as the WebSocket's */
  budgetRefusal(decision: RateLimitDecision): ServiceError
  refused(reason: RejectionReason | 'admission_rate', ip: string): void
  metrics: Metrics
}

export interface EventStreamRouteOptions extends EventStreamChecks {
  path: string
  /** the event streams of a rate (undefined: real time) */
  sseOf(rate: FixedRate | undefined): SseDelivery
  /** sends a new response its first events (snapshot, or resumed and the replay) and starts its ticks */
  begin(connection: SseConnection, after: Cursor | undefined): void
  opened(): void
}

export const UPGRADE_REQUIRED = () =>
  new ServiceError('upgrade_required', 'this is a WebSocket endpoint: connect with a WebSocket client', {
    headers: { upgrade: 'websocket' },
  })

/** A GET that asks for Server-Sent Events; any other GET of a stream path is answered 426. */
export const asksForEvents = (context: RequestContext): boolean => /\btext\/event-stream\b/i.test(context.headers.accept ?? '')

/**
 * `GET /v1/prices/stream` with `Accept: text/event-stream`: the stream as Server-Sent Events, admitted as a
 * WebSocket upgrade is (origin allowlist, the replica's admission rate, the per-IP upgrade budget, the
 * connection ceilings, which both kinds share). `Last-Event-ID`, or `?from=`, resumes. Any other GET is 426.
 */
export function eventStreamRoute(options: EventStreamRouteOptions): Route {
  return {
    method: 'GET',
    path: options.path,
    handle(context) {
      if (!asksForEvents(context)) throw UPGRADE_REQUIRED()
      const query = resumingQuery(context.query.toString(), context.headers['last-event-id'])
      return openEventStream(
        options,
        context,
        { stream: 'the price stream', admit: (budgetKey) => options.gate.admit(budgetKey, query, 'event-stream') },
        (res, admission, budgetKey) => {
          const { filter, heartbeatMs, rate } = admission
          const connection = options.sseOf(rate).open(res, {
            requestId: context.requestId,
            budgetKey,
            filter,
            compact: admission.compact === true,
            foldReplay: admission.foldReplay === true,
            heartbeatMs,
            rate,
          })
          options.begin(connection, admission.resumeAfter)
          options.opened()
        },
      )
    },
  }
}

/**
 * Answers an event-stream request that passed the origin allowlist, the admission rate, the upgrade budget and
 * `admit` (its query and the connection ceilings) with a 200 whose body `start` writes; else with the refusal.
 */
export async function openEventStream<Query extends object>(
  checks: EventStreamChecks,
  context: RequestContext,
  admission: { stream: string; admit(budgetKey: string): Admission<Query> },
  start: (res: HttpResponse, asked: Query, budgetKey: string) => void,
): Promise<Reply> {
  const { clientIp, headers } = context
  if (!checks.allowedOrigins(headers.origin, headers.host)) {
    checks.refused('origin', clientIp)
    throw new ServiceError('forbidden', `this browser origin may not open ${admission.stream}`)
  }
  const tooMany = checks.upgradeRate.refusal()
  if (tooMany) {
    checks.refused('admission_rate', clientIp)
    throw tooMany
  }
  const budget = checks.rateLimits.store === 'disabled' ? undefined : await checks.rateLimits.check('streamUpgrades', clientIp)
  if (budget && !budget.allowed) {
    checks.refused('upgrade_rate', clientIp)
    checks.metrics.rateLimited.labels('streamUpgrades').inc()
    throw checks.budgetRefusal(budget)
  }
  const budgetKey = checks.rateLimits.keyOf(clientIp)
  const admitted = admission.admit(budgetKey)
  if (!admitted.admitted) {
    // as for an upgrade: the replica's state spends none of the client's budget
    if (budget && admitted.refusal.code === 'at_capacity') await checks.rateLimits.refund('streamUpgrades', clientIp)
    checks.refused(admitted.reason, clientIp)
    throw admitted.refusal
  }
  const { admitted: _admitted, ...asked } = admitted
  // a client gone before the answer is written (or a HEAD request) never takes its place
  const unclaimed = setImmediate(() => checks.gate.release(budgetKey))
  return {
    status: 200,
    contentType: 'text/event-stream',
    body: '',
    headers: { 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
    stream(res) {
      clearImmediate(unclaimed)
      if (budget) writeBudgetHeaders(res, budget)
      start(res, asked as Query, budgetKey)
    },
  }
}
