import { frameworkErrorBody } from '../http/error-bodies.ts'
import type { PairFilter } from './pair-filter.ts'
import { parseStreamQuery } from './stream-query.ts'

export interface UpgradeGateOptions {
  /** per budget key (an IPv4 address or an IPv6 prefix) */
  maxConnectionsPerIp: number
  maxConnections: number
}

/** Why an upgrade was refused: here, or by the request pipeline before it (origin, upgrade_rate). */
export type RejectionReason = 'origin' | 'upgrade_rate' | 'invalid_query' | 'ip_connections' | 'total_connections' | 'shutting_down'

export type Admission =
  | { admitted: true; filter: PairFilter }
  | { admitted: false; reason: RejectionReason; status: number; headers: Record<string, string>; body: string }

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
    if (this.closed) return this.refuse('shutting_down', 503, 'this replica is shutting down', {})
    const parsed = parseStreamQuery(query)
    if (!parsed.ok) {
      const body = frameworkErrorBody(400, 'invalid query for the price stream', { issues: parsed.issues })
      return { admitted: false, reason: 'invalid_query', status: 400, headers: {}, body: JSON.stringify(body) }
    }
    const fromKey = this.connectionsByKey.get(budgetKey) ?? 0
    if (fromKey >= this.options.maxConnectionsPerIp) {
      const limit = { connectionsPerIp: this.options.maxConnectionsPerIp }
      return this.refuse('ip_connections', 429, `too many open stream connections from this address (${limit.connectionsPerIp})`, { limit })
    }
    if (this.connections >= this.options.maxConnections) {
      const limit = { connections: this.options.maxConnections }
      return this.refuse('total_connections', 503, `this replica holds its maximum of ${limit.connections} stream connections`, { limit })
    }
    this.connectionsByKey.set(budgetKey, fromKey + 1)
    this.connections++
    return { admitted: true, filter: parsed.filter }
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

  private refuse(reason: RejectionReason, status: 429 | 503, what: string, details: { limit?: Record<string, number> }): Admission {
    const body = frameworkErrorBody(status, `${what}: retry in ${CEILING_RETRY_AFTER_SECONDS} seconds`, {
      details: { ...details, retryAfterSeconds: CEILING_RETRY_AFTER_SECONDS },
    })
    return {
      admitted: false,
      reason,
      status,
      headers: { 'retry-after': String(CEILING_RETRY_AFTER_SECONDS) },
      body: JSON.stringify(body),
    }
  }
}
