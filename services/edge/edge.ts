import type { Redis } from 'ioredis'
import type { Env } from '../../kit/env-parsing.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { clientIpResolver } from '../http/client-ip.ts'
import { createHttpServer } from '../http/http-server.ts'
import { originAllowlist } from '../http/origin-allowlist.ts'
import { createRateLimits } from '../http/rate-limits.ts'
import { startMaterializer } from '../snapshot/materializer.ts'
import { snapshotRoutes } from '../snapshot/routes.ts'
import { startPriceStream } from '../stream/price-stream.ts'
import { edgeConfig } from './config.ts'
import type { EdgeFeatures } from './capability-routes.ts'
import { opsRoutes, roleReadiness, type ReadinessChecks, type ReadinessDetails } from './ops-routes.ts'

export interface EdgeDeps {
  env: Env
  bus: PriceBus
  redis: Redis | undefined
  logger: Logger
  metrics: Metrics
  /** portfolio, depth, market hours, candles and onboarding; prices and status alone without it */
  features?: EdgeFeatures
  /** what /readyz checks when OPS_ROUTES_ON_PUBLIC_PORT is set: the process's roles (see roleReadiness); the edge's alone by default */
  readiness?: ReadinessChecks
  /** what the process's other roles report on /readyz (OPS_ROUTES_ON_PUBLIC_PORT only) */
  readinessDetails?: ReadinessDetails
}

export interface Edge {
  port: number
  stop(): Promise<void>
}

/** The public surface: REST and the price stream on one uWebSockets.js app. */
export async function startEdge(deps: EdgeDeps): Promise<Edge> {
  const config = edgeConfig(deps.env)
  const log = deps.logger.child({ role: 'edge' })
  const materializer = await startMaterializer({
    bus: deps.bus,
    staleAfterMs: config.STALE_AFTER_MS,
    logger: log,
    metrics: deps.metrics,
  })
  const rateLimits = createRateLimits({
    redis: deps.redis,
    enabled: config.RATE_LIMITS_ENABLED,
    ipv6PrefixBits: config.BUDGET_IPV6_PREFIX,
    figures: { streamUpgrades: { points: config.STREAM_UPGRADES_PER_IP_PER_MINUTE } },
    logger: log,
  })
  const server = createHttpServer({
    logger: log,
    metrics: deps.metrics,
    rateLimits,
    resolveClientIp: clientIpResolver(config.TRUSTED_PROXIES),
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    // one allowlist for REST (CORS) and the stream's upgrades
    allowedOrigins: originAllowlist(config.STREAM_ALLOWED_ORIGINS),
  })
  const stream = startPriceStream({ server, materializer, config, logger: log, metrics: deps.metrics })
  server.addRoutes([
    ...stream.routes,
    ...snapshotRoutes(materializer),
    ...(deps.features?.routes(materializer) ?? []),
    // the ops listener (OPS_PORT) serves them in every process; here only when an operator opts in
    ...(config.OPS_ROUTES_ON_PUBLIC_PORT
      ? opsRoutes(deps.metrics, deps.readiness ?? roleReadiness(['edge'], deps), deps.readinessDetails)
      : []),
  ])
  const port = await server.listen(config.HOST, config.PORT)
  log.info({ host: config.HOST, port, rateLimits: rateLimits.store }, 'edge listening')
  return {
    port,
    async stop() {
      server.close()
      await stream.stop()
      await deps.features?.stop()
      materializer.stop()
      log.info('edge stopped')
    },
  }
}
