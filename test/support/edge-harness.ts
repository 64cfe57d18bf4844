import type { Redis } from 'ioredis'
import type { Env } from '../../kit/env-parsing.ts'
import { inProcessPriceBus } from '../../bus/in-process-price-bus.ts'
import { createMetrics, type Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { startEdge } from '../../services/edge/edge.ts'
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
 * An edge on a free loopback port, on the given bus (a fresh in-process one by default). Fan-out's slice is a
 * minute unless the test sets it: whether a burst of ticks published in one turn outlasts the default 20 ms, and
 * so conflates, depends on how the machine schedules the process, and tests that expect every tick must not
 * depend on that; the tests of conflation set their own slice.
 */
export async function startTestEdge(options: { env?: Env; bus?: PriceBus; redis?: Redis } = {}): Promise<TestEdge> {
  const bus = options.bus ?? inProcessPriceBus()
  const metrics = createMetrics()
  const edge = await startEdge({
    env: { HOST: '127.0.0.1', PORT: '0', STREAM_FANOUT_SLICE_MS: '60000', ...options.env },
    bus,
    redis: options.redis,
    logger: silentLogger(),
    metrics,
  })
  return {
    baseUrl: `http://127.0.0.1:${edge.port}`,
    streamUrl: `ws://127.0.0.1:${edge.port}/v1/prices/stream`,
    bus,
    metrics,
    stop: edge.stop,
  }
}
