import type { Redis } from 'ioredis'
import type { Env } from '../../kit/config.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { candlesConfig } from '../candles/config.ts'
import { startCandleWriter } from '../candles/candle-writer.ts'
import { createCandleStore } from '../candles/create-candle-store.ts'
import { ohlcRoutes } from '../candles/routes.ts'
import { depthRoutes } from '../depth/routes.ts'
import type { Route } from '../http/http-server.ts'
import { indexerConfig } from '../indexer/config.ts'
import { createIndexerClient } from '../indexer/indexer-client.ts'
import { startIndexerStandin } from '../indexer-standin/index.ts'
import { marketHoursRoutes } from '../market-hours/routes.ts'
import { pageRoutes } from '../pages/routes.ts'
import { apiDocumentRoutes, asyncApiDocument } from './api-document-routes.ts'
import { onboardingRoutes } from '../onboarding/onboard-routes.ts'
import type { OnboardingResources } from '../onboarding/onboarding-resources.ts'
import { portfolioRoutes } from '../portfolio/routes.ts'
import type { Materializer } from '../snapshot/materializer.ts'

/** The edge's routes beyond prices and status, with what they need started. */
export interface EdgeFeatures {
  routes(prices: Materializer): Route[]
  stop(): Promise<void>
}

export async function startEdgeFeatures(deps: {
  env: Env
  bus: PriceBus
  redis: Redis | undefined
  onboarding: OnboardingResources | undefined
  logger: Logger
  metrics: Metrics
}): Promise<EdgeFeatures> {
  const log = deps.logger
  const indexerSettings = indexerConfig(deps.env)
  const standin = indexerSettings.urls ? undefined : await startIndexerStandin()
  const urls = indexerSettings.urls ?? { 42161: standin!.url(42161), 421614: standin!.url(421614) }
  log.info(
    { urls },
    standin ? 'indexed source: embedded stand-in (set INDEXER_URL_42161 and INDEXER_URL_421614)' : 'indexed source configured',
  )
  const indexer = createIndexerClient({ ...indexerSettings, urls }, { logger: log, metrics: deps.metrics })

  // with Redis the edges share one store and split the ticks (queue group); without it each edge folds
  // every tick into its own memory
  const candles = candlesConfig(deps.env)
  const candleStore = createCandleStore({
    redis: deps.redis,
    keyPrefix: candles.CANDLES_KEY_PREFIX,
    keepPerResolution: candles.CANDLES_KEEP_PER_RESOLUTION,
  })
  const candleWriter = startCandleWriter({
    bus: deps.bus,
    store: candleStore,
    logger: log,
    metrics: deps.metrics,
    flushIntervalMs: candles.CANDLES_FLUSH_INTERVAL_MS,
    ...(deps.redis && { queueGroup: candles.CANDLES_QUEUE_GROUP }),
  })

  const onboarding = deps.onboarding
  return {
    routes: (prices) => [
      ...portfolioRoutes(indexer),
      ...depthRoutes({ indexer, prices }),
      ...marketHoursRoutes(),
      ...apiDocumentRoutes(),
      ...pageRoutes(asyncApiDocument),
      ...ohlcRoutes(candleStore, { maxCandlesPerResponse: candles.CANDLES_MAX_PER_RESPONSE }),
      ...(onboarding ? onboardingRoutes({ config: onboarding.setup.config, chains: onboarding.clients, queue: onboarding.queue }) : []),
    ],
    async stop() {
      await candleWriter.stop()
      await standin?.close()
    },
  }
}
