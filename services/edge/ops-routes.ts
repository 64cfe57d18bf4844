import type { Redis } from 'ioredis'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import type { Route } from '../http/http-server.ts'
import { jsonReply } from '../http/reply.ts'

export type ReadinessChecks = Record<string, () => boolean>
/** What a role reports beside the checks (e.g. the feed ids its upstream does not know); it does not decide readiness. */
export type ReadinessDetails = Map<string, () => unknown>

/** Ready while the bus is reachable, and Redis too when one is configured. */
export function engineReadiness(bus: PriceBus, redis: Redis | undefined): ReadinessChecks {
  return { bus: () => bus.isConnected(), ...(redis && { redis: () => redis.status === 'ready' }) }
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
