import type { Redis } from 'ioredis'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import type { Route } from '../http/http-server.ts'
import { jsonReply } from '../http/reply.ts'
import type { Role } from './roles.ts'

export type ReadinessChecks = Record<string, () => boolean>
/** What a role reports beside the checks (e.g. the feed ids its upstream does not know); it does not decide readiness. */
export type ReadinessDetails = Map<string, () => unknown>

/**
 * Each role is ready while what it cannot serve without is reachable: the ingestor and the edge need the
 * bus (prices travel on it), the relayer needs Redis when its job queue lives there. The edge does not
 * need Redis: its budgets fall back to memory and candles wait to be merged, so it keeps serving.
 */
export function roleReadiness(roles: readonly Role[], engines: { bus?: PriceBus; redis?: Redis }): ReadinessChecks {
  const { bus, redis } = engines
  const needsBus = roles.includes('ingestor') || roles.includes('edge')
  const needsRedis = roles.includes('relayer')
  return {
    ...(needsBus && bus && { bus: () => bus.isConnected() }),
    ...(needsRedis && redis && { redis: () => redis.status === 'ready' }),
  }
}

/** /metrics (Prometheus text), /healthz (the process is alive) and /readyz (its dependencies are reachable). */
export function opsRoutes(metrics: Metrics, readiness: ReadinessChecks, details: ReadinessDetails = new Map()): Route[] {
  return [
    {
      method: 'GET',
      path: '/metrics',
      handle: async () => ({ status: 200, body: await metrics.registry.metrics(), contentType: metrics.registry.contentType }),
    },
    { method: 'GET', path: '/healthz', handle: () => jsonReply(200, { status: 'alive' }) },
    {
      method: 'GET',
      path: '/readyz',
      handle() {
        const checks = Object.fromEntries(Object.entries(readiness).map(([name, check]) => [name, check()]))
        const ready = Object.values(checks).every(Boolean)
        const detail = details.size > 0 ? { details: Object.fromEntries([...details].map(([name, read]) => [name, read()])) } : {}
        return jsonReply(ready ? 200 : 503, { ready, checks, ...detail })
      },
    },
  ]
}
