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
import type { RejectionReason, UpgradeGate } from './upgrade-gate.ts'

export interface EventStreamRouteOptions {
  path: string
  gate: UpgradeGate
  upgradeRate: UpgradeAdmission
  rateLimits: RateLimits
  allowedOrigins: OriginAllowlist
  /** the 429 of a spent upgrade budget, as the WebSocket's */
  budgetRefusal(decision: RateLimitDecision): ServiceError
  /** the event streams of a rate (undefined: real time) */
  sseOf(rate: FixedRate | undefined): SseDelivery
  /** sends a new response its first events (snapshot, or resumed and the replay) and starts its ticks */
  begin(connection: SseConnection, after: Cursor | undefined): void
  refused(reason: RejectionReason | 'admission_rate', ip: string): void
  opened(): void
  metrics: Metrics
}

const UPGRADE_REQUIRED = () =>
  new ServiceError('upgrade_required', 'this is a WebSocket endpoint: connect with a WebSocket client', {
    headers: { upgrade: 'websocket' },
  })

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
      if (!/\btext\/event-stream\b/i.test(context.headers.accept ?? '')) throw UPGRADE_REQUIRED()
      return openEventStream(options, context)
    },
  }
}

async function openEventStream(options: EventStreamRouteOptions, context: RequestContext): Promise<Reply> {
  const { clientIp, headers, requestId } = context
  if (!options.allowedOrigins(headers.origin, headers.host)) {
    options.refused('origin', clientIp)
    throw new ServiceError('forbidden', 'this browser origin may not open the price stream')
  }
  const tooMany = options.upgradeRate.refusal()
  if (tooMany) {
    options.refused('admission_rate', clientIp)
    throw tooMany
  }
  const budget = options.rateLimits.store === 'disabled' ? undefined : await options.rateLimits.check('streamUpgrades', clientIp)
  if (budget && !budget.allowed) {
    options.refused('upgrade_rate', clientIp)
    options.metrics.rateLimited.labels('streamUpgrades').inc()
    throw options.budgetRefusal(budget)
  }
  const budgetKey = options.rateLimits.keyOf(clientIp)
  const admission = options.gate.admit(budgetKey, resumingQuery(context.query.toString(), headers['last-event-id']))
  if (!admission.admitted) {
    // as for an upgrade: the replica's state spends none of the client's budget
    if (budget && admission.refusal.code === 'at_capacity') await options.rateLimits.refund('streamUpgrades', clientIp)
    options.refused(admission.reason, clientIp)
    throw admission.refusal
  }
  // a client gone before the answer is written (or a HEAD request) never takes its place
  const unclaimed = setImmediate(() => options.gate.release(budgetKey))
  return {
    status: 200,
    contentType: 'text/event-stream',
    body: '',
    headers: { 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
    stream(res) {
      clearImmediate(unclaimed)
      if (budget) writeBudgetHeaders(res, budget)
      const { filter, heartbeatMs, rate } = admission
      const connection = options.sseOf(rate).open(res, {
        requestId,
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
  }
}
