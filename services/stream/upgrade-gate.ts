import { ServiceError } from '../../kit/errors.ts'
import type { PairFilter } from './pair-filter.ts'
import { parseStreamQuery, type StreamOptIns } from './stream-query.ts'

export interface UpgradeGateOptions {
  /** per budget key (an IPv4 address or an IPv6 prefix) */
  maxConnectionsPerIp: number
  maxConnections: number
}

/** Why an upgrade was refused: here, or by the request pipeline before it (origin, upgrade_rate). */
export type RejectionReason = 'origin' | 'upgrade_rate' | 'invalid_query' | 'ip_connections' | 'total_connections' | 'shutting_down'

export type Admission =
  ({ admitted: true; filter: PairFilter } & StreamOptIns) | { admitted: false; reason: RejectionReason; refusal: ServiceError }

/** A ceiling has no window to wait for: the client should retry after others have left. */
const CEILING_RETRY_AFTER_SECONDS = 5

/**
 * Decides the stream upgrades the request pipeline let through (its origin allowlist and upgrade budget
 * come first; spec 5.4, 7, 8): the `pairs` query, and the per-IP and total connection ceilings of this
 * replica. An admitted upgrade holds its places until `release`.
 */
export class UpgradeGate {
  private readonly connectionsByKey = new Map<string, number>()
  private connections = 0
  private closed = false

  constructor(private readonly options: UpgradeGateOptions) {}

  /** `budgetKey` is what the per-IP ceiling counts by (see services/http/budget-keys.ts). */
  admit(budgetKey: string, query: string): Admission {
    if (this.closed) return this.refuse('shutting_down', 'at_capacity', 'this replica is shutting down', {})
    const parsed = parseStreamQuery(query)
    if (!parsed.ok) {
      const refusal = new ServiceError('validation_failed', 'invalid query for the price stream', { issues: parsed.issues })
      return { admitted: false, reason: 'invalid_query', refusal }
    }
    const fromKey = this.connectionsByKey.get(budgetKey) ?? 0
    if (fromKey >= this.options.maxConnectionsPerIp) {
      const limit = { connectionsPerIp: this.options.maxConnectionsPerIp }
      const what = `too many open stream connections from this address (${limit.connectionsPerIp})`
      return this.refuse('ip_connections', 'rate_limited', what, { limit })
    }
    if (this.connections >= this.options.maxConnections) {
      const limit = { connections: this.options.maxConnections }
      const what = `this replica holds its maximum of ${limit.connections} stream connections`
      return this.refuse('total_connections', 'at_capacity', what, { limit })
    }
    this.connectionsByKey.set(budgetKey, fromKey + 1)
    this.connections++
    const { ok: _ok, ...admitted } = parsed
    return { admitted: true, ...admitted }
  }

  /** Gives back the places of an admitted upgrade (its socket closed, or it never opened). */
  release(budgetKey: string): void {
    const fromKey = this.connectionsByKey.get(budgetKey) ?? 0
    if (fromKey <= 1) this.connectionsByKey.delete(budgetKey)
    else this.connectionsByKey.set(budgetKey, fromKey - 1)
    this.connections--
  }

  /** From now on every upgrade is refused with 503. */
  close(): void {
    this.closed = true
  }

  /** a 429 (`rate_limited`) or 503 (`at_capacity`) with Retry-After */
  private refuse(
    reason: RejectionReason,
    code: 'rate_limited' | 'at_capacity',
    what: string,
    details: { limit?: Record<string, number> },
  ): Admission {
    const refusal = new ServiceError(code, `${what}: retry in ${CEILING_RETRY_AFTER_SECONDS} seconds`, {
      details: { ...details, retryAfterSeconds: CEILING_RETRY_AFTER_SECONDS },
      retryAfterSeconds: CEILING_RETRY_AFTER_SECONDS,
    })
    return { admitted: false, reason, refusal }
  }
}
