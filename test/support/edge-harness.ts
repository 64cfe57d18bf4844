import type { Redis } from 'ioredis'
import type { Env } from '../../kit/env-parsing.ts'
import { inProcessPriceBus } from '../../bus/in-process-price-bus.ts'
import { createMetrics, type Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { startEdge } from '../../services/edge/edge.ts'
import type { EdgeFeatures } from '../../services/edge/edge-features.ts'
import { DEFAULT_KEEP_PER_RESOLUTION } from '../../services/candles/candle-store.ts'
import { startCandleWriter } from '../../services/candles/candle-writer.ts'
import { memoryCandleStore } from '../../services/candles/memory-candle-store.ts'
import { ohlcRoutes } from '../../services/candles/routes.ts'
import { udfRoutes } from '../../services/candles/udf/udf-routes.ts'
import { silentLogger } from './silent-logger.ts'

export interface TestEdge {
  baseUrl: string
  /** ws://127.0.0.1:<port>/v1/prices/stream */
  streamUrl: string
  bus: PriceBus
  metrics: Metrics
  stop(): Promise<void>
}

/**
 * The candles and nothing else of the edge's features: a memory store, the candle writer on the edge's bus,
 * POST /v1/ohlc and the UDF routes, and with them the candle stream.
 */
function candleFeatures(bus: PriceBus, metrics: Metrics): EdgeFeatures {
  const store = memoryCandleStore({ keepPerResolution: DEFAULT_KEEP_PER_RESOLUTION })
  const writer = startCandleWriter({ bus, store, logger: silentLogger(), metrics })
  return {
    candles: { store, flushed: writer.flush },
    routes: () => [...ohlcRoutes({ store }), ...udfRoutes({ store })],
    stop: writer.stop,
  }
}

/**
 * An edge on a free loopback port, on the given bus (a fresh in-process one by default); with `candles`, its
 * candles and candle stream on the test's clock. Fan-out's slice is a
 * minute unless the test sets it: whether a burst of ticks published in one turn outlasts the default 20 ms, and
 * so conflates, depends on how the machine schedules the process, and tests that expect every tick must not
 * depend on that; the tests of conflation set their own slice.
 */
export async function startTestEdge(
  options: { env?: Env; bus?: PriceBus; redis?: Redis; candles?: { now: () => number }; upgradeClock?: () => number } = {},
): Promise<TestEdge> {
  const bus = options.bus ?? inProcessPriceBus()
  const metrics = createMetrics()
  const edge = await startEdge({
    env: { HOST: '127.0.0.1', PORT: '0', STREAM_FANOUT_SLICE_MS: '60000', ...options.env },
    bus,
    redis: options.redis,
    logger: silentLogger(),
    metrics,
    upgradeClock: options.upgradeClock,
    ...(options.candles && { features: candleFeatures(bus, metrics), now: options.candles.now }),
  })
  return {
    baseUrl: `http://127.0.0.1:${edge.port}`,
    streamUrl: `ws://127.0.0.1:${edge.port}/v1/prices/stream`,
    bus,
    metrics,
    stop: edge.stop,
  }
}
