import type { Redis } from 'ioredis'
import type { Env } from '../../kit/env-parsing.ts'
import { awaitedLater } from '../../kit/deferred-start.ts'
import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { candlesConfig } from '../candles/config.ts'
import type { CandleStore } from '../candles/candle-store.ts'
import { startCandleWriter } from '../candles/candle-writer.ts'
import { createCandleStore } from '../candles/create-candle-store.ts'
import { ohlcRoutes } from '../candles/routes.ts'
import { startCandleHistory } from '../candles/history/candle-history.ts'
import { historyConfig, type EmbeddedHistoryStarter } from '../candles/history/history-config.ts'
import { udfRoutes } from '../candles/udf/udf-routes.ts'
import { depthRoutes } from '../depth/routes.ts'
import { maskUrl } from '../../kit/redaction.ts'
import type { Route } from '../http/http-server.ts'
import {
  indexerConfig,
  NO_INDEXED_SOURCE,
  type EmbeddedIndexedSource,
  type EmbeddedIndexerStarter,
  type IndexerUrls,
} from '../indexer/config.ts'
import { createIndexerClient } from '../indexer/indexer-client.ts'
import { marketHoursRoutes } from '../market-hours/routes.ts'
import { pageRoutes } from '../pages/routes.ts'
import { apiDocumentRoutes, asyncApiDocument } from './api-document-routes.ts'
import { onboardingEnv, onboardingRoutes, type OnboardingResources } from '../onboarding/index.ts'
import { portfolioRoutes } from '../portfolio/routes.ts'
import type { Materializer } from '../snapshot/materializer.ts'
import { subgraphDoorConfig } from '../subgraph-door/config.ts'
import { subgraphDoorRoutes } from '../subgraph-door/routes.ts'

/** The edge's routes beyond prices and status, with what they need started. */
export interface EdgeFeatures {
  routes(prices: Materializer): Route[]
  /** what the candle stream reads: the candle store, and the writer's flush */
  candles: CandleFeed
  stop(): Promise<void>
}

export interface CandleFeed {
  store: CandleStore
  /** resolves once every tick the candle writer received is in the store */
  flushed(): Promise<void>
}

export async function startEdgeFeatures(deps: {
  env: Env
  bus: PriceBus
  redis: Redis | undefined
  /** the onboarding chains, clients and queue, still being set up while the edge starts */
  onboarding: Promise<OnboardingResources> | undefined
  /** resolves once prices are served: what they do not need is started then */
  afterPrices: Promise<void>
  /** starts a stand-in indexed source when no INDEXER_URL_* is set (`npm start` only) */
  startEmbeddedIndexer: EmbeddedIndexerStarter | undefined
  /** starts the History API stand-in when no HISTORY_URL is set (`npm start` only) */
  startEmbeddedHistory?: EmbeddedHistoryStarter
  logger: Logger
  metrics: Metrics
}): Promise<EdgeFeatures> {
  const log = deps.logger
  const indexerSettings = indexerConfig(deps.env)
  // without a configured indexed source, the embedded stand-in; reads that come before it wait for it
  if (!indexerSettings.urls && !deps.startEmbeddedIndexer) throw new ServiceError('config_invalid', NO_INDEXED_SOURCE)
  const standin = indexerSettings.urls ? undefined : startStandinAfter(deps.afterPrices, deps.startEmbeddedIndexer!, log)
  if (indexerSettings.urls) logIndexerUrls(log, indexerSettings.urls, 'indexed source configured')
  const urls = indexerSettings.urls ?? standinUrlsOnceStarted(standin!)
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

  // candles the store lacks come from the history source: on demand, and backfilled in the background
  const history = startCandleHistory({
    config: historyConfig(deps.env, candles.CANDLES_KEEP_PER_RESOLUTION),
    store: candleStore,
    redis: deps.redis,
    keyPrefix: candles.CANDLES_KEY_PREFIX,
    keepPerResolution: candles.CANDLES_KEEP_PER_RESOLUTION,
    flushIntervalMs: candles.CANDLES_FLUSH_INTERVAL_MS,
    startEmbedded: deps.startEmbeddedHistory,
    afterPrices: deps.afterPrices,
    metrics: deps.metrics,
    logger: log,
  })
  const candleSource = { store: candleStore, history: history.source }

  const doorConfig = subgraphDoorConfig(deps.env)
  const onboarding = deps.onboarding
  return {
    candles: { store: candleStore, flushed: candleWriter.flush },
    routes: (prices) => [
      ...portfolioRoutes(indexer),
      ...depthRoutes({ indexer, prices }),
      ...subgraphDoorRoutes({ urls, config: doorConfig, metrics: deps.metrics }),
      ...marketHoursRoutes(),
      ...apiDocumentRoutes(),
      ...pageRoutes(asyncApiDocument),
      ...ohlcRoutes(candleSource, { maxCandlesPerResponse: candles.CANDLES_MAX_PER_RESPONSE }),
      ...udfRoutes(candleSource, { maxCandlesPerResponse: candles.CANDLES_MAX_PER_RESPONSE }),
      ...(onboarding
        ? onboardingRoutes(
            onboarding.then(
              ({ setup, clients, support, queue, ledger }) => ({
                config: setup.config,
                chains: clients,
                support,
                queue,
                ledger,
                metrics: deps.metrics,
              }),
              (error: unknown) => {
                throw new ServiceError('internal', 'onboarding is unavailable: its chains could not be set up at start', { cause: error })
              },
            ),
            { readyWithinMs: onboardingEnv(deps.env).ONBOARD_DEADLINE_MS },
          )
        : []),
    ],
    async stop() {
      await history.stop()
      await candleWriter.stop()
      await (await standin)?.close()
    },
  }
}

/** The stand-in's URLs once it is up; reads fail with 502 if it could not start. */
function standinUrlsOnceStarted(standin: Promise<EmbeddedIndexedSource | undefined>): Promise<IndexerUrls> {
  return awaitedLater(
    standin.then((started) => {
      if (!started) throw new ServiceError('upstream_unavailable', 'the embedded indexed source did not start')
      return started.urls
    }),
  )
}

function logIndexerUrls(log: Logger, urls: IndexerUrls, message: string): void {
  log.info({ urls: { 42161: maskUrl(urls[42161]), 421614: maskUrl(urls[421614]) } }, message)
}

/**
 * The embedded stand-in, started once prices are served (the starter loads its GraphQL server library then);
 * undefined, and logged, if it could not start.
 */
async function startStandinAfter(
  afterPrices: Promise<void>,
  start: EmbeddedIndexerStarter,
  log: Logger,
): Promise<EmbeddedIndexedSource | undefined> {
  await afterPrices
  try {
    const standin = await start()
    logIndexerUrls(log, standin.urls, 'indexed source: embedded stand-in (set INDEXER_URL_42161 and INDEXER_URL_421614)')
    return standin
  } catch (error) {
    log.error({ err: error }, 'the embedded indexed source did not start')
    return undefined
  }
}
