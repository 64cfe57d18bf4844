import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { frameworkErrorBody } from '../http/error-bodies.ts'
import { originAllowlist, type OriginAllowlist } from '../http/origin-allowlist.ts'
import type { PairFilter } from './pair-filter.ts'
import { parseStreamQuery } from './stream-query.ts'

export interface UpgradeGateOptions {
  /** browser origins allowed besides the service's own; `*` allows any. A request without Origin is not from a browser. */
  allowedOrigins: readonly string[]
  maxConnectionsPerIp: number
  maxConnections: number
  upgradesPerIpPerMinute: number
  /** false lifts the per-IP upgrade budget (benches) */
  rateLimitsEnabled: boolean
}

export type RejectionReason = 'origin' | 'upgrade_rate' | 'invalid_query' | 'ip_connections' | 'total_connections' | 'shutting_down'

export type Admission =
  | { admitted: true; filter: PairFilter; headers: Record<string, string> }
  | { admitted: false; reason: RejectionReason; status: number; headers: Record<string, string>; body: string }

/** A ceiling has no window to wait for: the client should retry after others have left. */
const CEILING_RETRY_AFTER_SECONDS = 5

/**
 * Decides every stream upgrade (spec 5.4, 7, 8): the browser-origin allowlist, the per-IP upgrade
 * budget, the `pairs` query, and the per-IP and total connection ceilings of this replica. An admitted
 * upgrade holds its places until `release`.
 */
export class UpgradeGate {
  private readonly connectionsByIp = new Map<string, number>()
  private connections = 0
  private closed = false
  private readonly upgradeBudget: RateLimiterMemory | undefined
  private readonly origins: OriginAllowlist

  constructor(private readonly options: UpgradeGateOptions) {
    this.origins = originAllowlist(options.allowedOrigins)
    this.upgradeBudget = options.rateLimitsEnabled
      ? new RateLimiterMemory({ points: options.upgradesPerIpPerMinute, duration: 60, keyPrefix: 'stream-upgrades' })
      : undefined
  }

  /** Browsers send Origin; other clients are not subject to the allowlist. `host` is the request's Host. */
  originAllowed(origin: string | undefined, host?: string): boolean {
    return this.origins(origin, host)
  }

  async admit(ip: string, query: string): Promise<Admission> {
    const budget = await this.takeUpgrade(ip)
    const headers = budget?.headers ?? {}
    if (this.closed) return this.refuse('shutting_down', 503, headers, 'this replica is shutting down', {})
    if (budget && !budget.allowed) {
      return this.refuse(
        'upgrade_rate',
        429,
        headers,
        `too many stream upgrades from this address (${this.options.upgradesPerIpPerMinute} per minute)`,
        {
          retryAfterSeconds: budget.resetSeconds,
          limit: { upgradesPerIpPerMinute: this.options.upgradesPerIpPerMinute },
        },
      )
    }
    const parsed = parseStreamQuery(query)
    if (!parsed.ok) {
      const body = frameworkErrorBody(400, 'invalid query for the price stream', { issues: parsed.issues })
      return { admitted: false, reason: 'invalid_query', status: 400, headers, body: JSON.stringify(body) }
    }
    const fromIp = this.connectionsByIp.get(ip) ?? 0
    if (fromIp >= this.options.maxConnectionsPerIp) {
      return this.refuse(
        'ip_connections',
        429,
        headers,
        `too many open stream connections from this address (${this.options.maxConnectionsPerIp})`,
        {
          limit: { connectionsPerIp: this.options.maxConnectionsPerIp },
        },
      )
    }
    if (this.connections >= this.options.maxConnections) {
      return this.refuse(
        'total_connections',
        503,
        headers,
        `this replica holds its maximum of ${this.options.maxConnections} stream connections`,
        {
          limit: { connections: this.options.maxConnections },
        },
      )
    }
    this.connectionsByIp.set(ip, fromIp + 1)
    this.connections++
    return { admitted: true, filter: parsed.filter, headers }
  }

  /** Gives back the places of an admitted upgrade (its socket closed, or it never opened). */
  release(ip: string): void {
    const fromIp = this.connectionsByIp.get(ip) ?? 0
    if (fromIp <= 1) this.connectionsByIp.delete(ip)
    else this.connectionsByIp.set(ip, fromIp - 1)
    this.connections--
  }

  /** From now on every upgrade is refused with 503. */
  close(): void {
    this.closed = true
  }

  private async takeUpgrade(ip: string) {
    if (!this.upgradeBudget) return undefined
    const limit = this.options.upgradesPerIpPerMinute
    const outcome = await this.upgradeBudget.consume(ip).catch((refusal: unknown) => {
      if (refusal instanceof RateLimiterRes) return refusal
      throw refusal
    })
    const allowed = outcome.consumedPoints <= limit
    const resetSeconds = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000))
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, outcome.remainingPoints)),
      'x-ratelimit-reset': String(resetSeconds),
    }
    return { allowed, resetSeconds, headers }
  }

  private refuse(
    reason: RejectionReason,
    status: 429 | 503,
    headers: Record<string, string>,
    what: string,
    details: { retryAfterSeconds?: number; limit?: Record<string, number> },
  ): Admission {
    const retryAfterSeconds = details.retryAfterSeconds ?? CEILING_RETRY_AFTER_SECONDS
    const body = frameworkErrorBody(status, `${what}: retry in ${retryAfterSeconds} seconds`, {
      details: { ...details, retryAfterSeconds },
    })
    return {
      admitted: false,
      reason,
      status,
      headers: { ...headers, 'retry-after': String(retryAfterSeconds) },
      body: JSON.stringify(body),
    }
  }
}
