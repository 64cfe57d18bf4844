import type { Redis } from 'ioredis'
import { setTimeout as delay } from 'node:timers/promises'
import type { Env } from '../../kit/env-parsing.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { clientIpResolver } from '../http/client-ip.ts'
import { createHttpServer } from '../http/http-server.ts'
import { originAllowlist } from '../http/origin-allowlist.ts'
import { createRateLimits } from '../http/rate-limits.ts'
import { startMaterializer, type Materializer } from '../snapshot/materializer.ts'
import { PAIRS } from '../../schemas/pairs.ts'
import { snapshotRoutes } from '../snapshot/routes.ts'
import { startPriceStream } from '../stream/price-stream.ts'
import { createStreamAdmission } from '../stream/stream-admission.ts'
import { startCandleStream } from '../stream/candle-stream.ts'
import { calendarMarketClock } from '../market-hours/calendar-market-clock.ts'
import { edgeConfig } from './config.ts'
import type { EdgeFeatures } from './edge-features.ts'
import { opsRoutes, roleReadiness, type ReadinessChecks, type ReadinessDetails } from '../ops/ops-routes.ts'

/** how long the rest of the start waits for a price of every pair */
const PRICES_COMPLETE_WITHIN_MS = 2_000
/** then the event loop's time for the clients already asking: loading the rest blocks it for a moment */
const FIRST_ANSWERS_MS = 100

export interface EdgeDeps {
  env: Env
  bus: PriceBus
  redis: Redis | undefined
  logger: Logger
  metrics: Metrics
  /** the routes beyond prices, the status and the stream, added before the edge listens; stopped with it */
  features?: EdgeFeatures
  /** what /readyz checks when OPS_ROUTES_ON_PUBLIC_PORT is set: the process's roles (see roleReadiness); the edge's alone by default */
  readiness?: ReadinessChecks
  /** what the process's other roles report on /readyz (OPS_ROUTES_ON_PUBLIC_PORT only) */
  readinessDetails?: ReadinessDetails
  /** ms since the epoch, by which candle periods end and markets open and close (a test's own clock); Date.now by default */
  now?: () => number
  /** ms, monotonic, by which the stream's upgrade admission rate refills (a test's own clock); performance.now by default */
  upgradeClock?: () => number
}

export interface Edge {
  port: number
  /**
   * Resolves once every pair has a price (and the requests waiting for it have had a moment to be answered),
   * or PRICES_COMPLETE_WITHIN_MS after the edge listens if some never come (a feed without them): what prices
   * do not need starts then, so that loading it does not hold up the first full snapshot.
   */
  pricesComplete: Promise<void>
  stop(): Promise<void>
}

/**
 * The public surface: REST and the price stream on one uWebSockets.js app. It listens with every route: a route
 * whose dependency starts later (the indexed source, the chains) waits for it within its own deadline.
 */
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
  const allowedOrigins = originAllowlist(config.STREAM_ALLOWED_ORIGINS)
  const server = createHttpServer({
    logger: log,
    metrics: deps.metrics,
    rateLimits,
    resolveClientIp: clientIpResolver(config.TRUSTED_PROXIES),
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    // one allowlist for REST (CORS) and the stream's upgrades
    allowedOrigins,
  })
  // one set of connection ceilings for every stream path
  const streamAdmission = createStreamAdmission(config, deps.upgradeClock)
  const stream = startPriceStream({
    server,
    bus: deps.bus,
    materializer,
    rateLimits,
    allowedOrigins,
    admission: streamAdmission,
    config,
    logger: log,
    metrics: deps.metrics,
  })
  // the candle stream comes with the candles (the edge's features)
  const candleStream =
    deps.features &&
    startCandleStream({
      server,
      bus: deps.bus,
      ...deps.features.candles,
      marketClock: calendarMarketClock(),
      now: deps.now ?? Date.now,
      admission: streamAdmission,
      rateLimits,
      allowedOrigins,
      config,
      logger: log,
      metrics: deps.metrics,
    })
  await Promise.all([stream.ready, candleStream?.ready])
  server.addRoutes([
    ...stream.routes,
    ...(candleStream?.routes ?? []),
    ...snapshotRoutes(materializer),
    // the ops listener (OPS_PORT) serves them in every process; here only when an operator opts in
    ...(config.OPS_ROUTES_ON_PUBLIC_PORT
      ? opsRoutes(deps.metrics, deps.readiness ?? roleReadiness(['edge'], deps), deps.readinessDetails)
      : []),
    ...(deps.features?.routes(materializer) ?? []),
  ])
  const port = await server.listen(config.HOST, config.PORT)
  log.info({ host: config.HOST, port, rateLimits: rateLimits.store }, 'edge listening')
  return {
    port,
    pricesComplete: everyPairPriced(materializer, PRICES_COMPLETE_WITHIN_MS).then(() => delay(FIRST_ANSWERS_MS)),
    async stop() {
      server.close()
      candleStream?.stop()
      await stream.stop()
      await deps.features?.stop()
      materializer.stop()
      log.info('edge stopped')
    },
  }
}

function everyPairPriced(materializer: Materializer, withinMs: number): Promise<void> {
  return new Promise((resolve) => {
    const priced = new Set(materializer.rows().map(([pair]) => pair))
    if (priced.size === PAIRS.length) return resolve()
    const done = () => {
      clearTimeout(timer)
      unsubscribe()
      resolve()
    }
    const timer = setTimeout(done, withinMs)
    const unsubscribe = materializer.onRow((pair) => {
      priced.add(pair)
      if (priced.size === PAIRS.length) done()
    })
  })
}
