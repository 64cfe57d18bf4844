import { ServiceError } from '../../kit/errors.ts'
import type { z } from 'zod'
import type { PairFilter } from './pair-filter.ts'
import { parseStreamQuery, type StreamOptIns, type StreamTransport } from './stream-query.ts'

export interface UpgradeGateOptions {
  /** per budget key (an IPv4 address or an IPv6 prefix) */
  maxConnectionsPerIp: number
  maxConnections: number
}

/** Why an upgrade was refused: here, or by the request pipeline before it (origin, upgrade_rate). */
export type RejectionReason = 'origin' | 'upgrade_rate' | 'invalid_query' | 'ip_connections' | 'total_connections' | 'shutting_down'

/** An upgrade's decision: what its query asked for (the price stream's by default), or the refusal. */
export type Admission<Query extends object = { filter: PairFilter } & StreamOptIns> =
  ({ admitted: true } & Query) | { admitted: false; reason: RejectionReason; refusal: ServiceError }

/** A stream's query, read: what it asks for, or the issues that refuse it with 400. */
export type ParsedQuery<Query extends object> = ({ ok: true } & Query) | { ok: false; issues: z.core.$ZodIssue[] }

/** A ceiling has no window to wait for: the client should retry after others have left. */
const CEILING_RETRY_AFTER_SECONDS = 5

/**
 * Decides the stream upgrades the request pipeline let through (its origin allowlist and upgrade budget
 * come first; spec 5.4, 7, 8): the query, and the per-IP and total connection ceilings of this replica,
 * which every stream path shares. An admitted upgrade holds its places until `release`.
 */
export class UpgradeGate {
  private readonly connectionsByKey = new Map<string, number>()
  private connections = 0
  private closed = false

  constructor(private readonly options: UpgradeGateOptions) {}

  /**
   * A price-stream connection, over WebSocket or as an event stream; `budgetKey` is what the per-IP ceiling counts
   * by (see services/http/budget-keys.ts).
   */
  admit(budgetKey: string, query: string, transport: StreamTransport = 'websocket'): Admission {
    return this.admitParsed(budgetKey, 'the price stream', () => parseStreamQuery(query, transport))
  }

  /** An upgrade of any stream path, whose query `parse` reads (`stream` names the path in a 400). */
  admitParsed<Query extends object>(budgetKey: string, stream: string, parse: () => ParsedQuery<Query>): Admission<Query> {
    if (this.closed) return this.refuse('shutting_down', 'at_capacity', 'this replica is shutting down', {})
    const parsed = parse()
    if (!parsed.ok) {
      const refusal = new ServiceError('validation_failed', `invalid query for ${stream}`, { issues: parsed.issues })
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
    return { admitted: true, ...(admitted as Query) }
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
  ): { admitted: false; reason: RejectionReason; refusal: ServiceError } {
    const refusal = new ServiceError(code, `${what}: retry in ${CEILING_RETRY_AFTER_SECONDS} seconds`, {
      details: { ...details, retryAfterSeconds: CEILING_RETRY_AFTER_SECONDS },
      retryAfterSeconds: CEILING_RETRY_AFTER_SECONDS,
    })
    return { admitted: false, reason, refusal }
  }
}
