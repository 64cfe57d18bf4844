import { ServiceError } from '../../kit/errors.ts'
import type { RateLimitDecision } from '../http/rate-limits.ts'
import type { UpgradeDecision } from '../http/upgrade-route.ts'
import type { StreamConfig } from './config.ts'
import { UpgradeAdmission } from './upgrade-admission.ts'
import { UpgradeGate, type Admission, type RejectionReason } from './upgrade-gate.ts'

/**
 * What every stream path of a replica admits upgrades through: one set of connection ceilings (a price-stream
 * connection and a candle-stream connection take places from the same per-IP and total counts) and one
 * admission rate.
 */
export interface StreamAdmission {
  gate: UpgradeGate
  upgradeRate: UpgradeAdmission
}

/** `now`: ms, monotonic, by which the admission rate refills (a test's own clock); performance.now by default */
export function createStreamAdmission(config: StreamConfig, now?: () => number): StreamAdmission {
  return {
    gate: new UpgradeGate({ maxConnectionsPerIp: config.STREAM_MAX_CONNECTIONS_PER_IP, maxConnections: config.STREAM_MAX_CONNECTIONS }),
    upgradeRate: new UpgradeAdmission({
      perSecond: config.STREAM_UPGRADES_PER_SECOND,
      burst: config.STREAM_UPGRADE_BURST,
      maxRetrySeconds: config.STREAM_UPGRADE_RETRY_MAX_SECONDS,
      now,
    }),
  }
}

/** The 429 of a spent upgrade budget; `withRetryAfter` where no budget headers go with it (an event stream's refusal). */
export function upgradeBudgetRefusal(decision: RateLimitDecision, withRetryAfter: boolean): ServiceError {
  return new ServiceError(
    'rate_limited',
    `too many stream upgrades from this address (${decision.limit} per minute): retry in ${decision.resetSeconds} seconds`,
    {
      details: { retryAfterSeconds: decision.resetSeconds, limit: { upgradesPerIpPerMinute: decision.limit } },
      ...(withRetryAfter && { retryAfterSeconds: decision.resetSeconds }),
    },
  )
}

/**
 * A WebSocket upgrade's decision on a stream path: the replica's admission rate first (a reconnect storm is
 * spread out before any snapshot is written), then `admit` (the path's query and the connection ceilings). A
 * 503 (the admission rate, a ceiling, shutdown) is the replica's state, so it spends none of the client's
 * upgrade budget: a client that honours Retry-After is not pushed into 429s. `refused` counts each refusal.
 */
export function decideUpgrade<Query extends object, UserData>(
  { upgradeRate }: StreamAdmission,
  clientIp: string,
  admit: () => Admission<Query>,
  refused: (reason: RejectionReason | 'admission_rate', ip: string) => void,
  userData: (asked: Query) => UserData,
): UpgradeDecision<UserData> {
  const tooMany = upgradeRate.refusal()
  if (tooMany) {
    refused('admission_rate', clientIp)
    return { admitted: false, refusal: tooMany, refundsBudget: true }
  }
  const admission = admit()
  if (!admission.admitted) {
    refused(admission.reason, clientIp)
    return { admitted: false, refusal: admission.refusal, refundsBudget: admission.refusal.code === 'at_capacity' }
  }
  const { admitted: _admitted, ...asked } = admission
  return { admitted: true, userData: userData(asked as unknown as Query) }
}
