import { ServiceError } from '../../kit/errors.ts'
import type { RateLimitDecision } from '../http/rate-limits.ts'
import type { StreamConfig } from './config.ts'
import { UpgradeAdmission } from './upgrade-admission.ts'
import { UpgradeGate } from './upgrade-gate.ts'

/**
 * What every stream path of a replica admits upgrades through: one set of connection ceilings (a price-stream
 * connection and a candle-stream connection take places from the same per-IP and total counts) and one
 * admission rate.
 */
export interface StreamAdmission {
  gate: UpgradeGate
  upgradeRate: UpgradeAdmission
}

export function createStreamAdmission(config: StreamConfig): StreamAdmission {
  return {
    gate: new UpgradeGate({ maxConnectionsPerIp: config.STREAM_MAX_CONNECTIONS_PER_IP, maxConnections: config.STREAM_MAX_CONNECTIONS }),
    upgradeRate: new UpgradeAdmission({
      perSecond: config.STREAM_UPGRADES_PER_SECOND,
      burst: config.STREAM_UPGRADE_BURST,
      maxRetrySeconds: config.STREAM_UPGRADE_RETRY_MAX_SECONDS,
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
