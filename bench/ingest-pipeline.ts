// What the ingest benches share: a source that emits the simulator's quotes as fast as the event loop
// allows, and the measurement of source → ingestor → NATS → snapshot materializer.
import { randomUUID } from 'node:crypto'
import type { Logger } from '../kit/logger.ts'
import { createMetrics } from '../kit/metrics.ts'
import { natsPriceBus } from '../bus/nats-price-bus.ts'
import { startIngestor, type Ingestor } from '../services/ingestor/ingestor.ts'
import type { MarketClock } from '../services/market-hours/market-clock.ts'
import type { FeedSink, FeedSource } from '../services/ingestor/sources/feed-source.ts'
import { simulatorSource } from '../services/ingestor/sources/simulator-source.ts'
import { startMaterializer } from '../services/snapshot/materializer.ts'

/** Resolves when `count()` reaches `target`, checking every few milliseconds. */
export const reached = (count: () => number, target: number) =>
  new Promise<void>((resolve) => {
    const timer = setInterval(() => count() >= target && (clearInterval(timer), resolve()), 2)
  })

/** The simulator's quotes, emitted in bursts as fast as the event loop allows; `onEnd` after the last. */
export function burstSource(total: number, onEnd?: () => void): FeedSource {
  let stopped = false
  return {
    name: 'bench',
    start(sink: FeedSink) {
      const quotes: Parameters<FeedSink['quote']>[0][] = []
      const collect = simulatorSource({ ticksPerSecond: 0, seed: 3, isTrading: () => true })
      collect.start({ quote: (quote) => quotes.push(quote), malformed: () => {} })
      void collect.stop()
      let emitted = 0
      const burst = () => {
        if (stopped) return
        const nowSeconds = Math.floor(Date.now() / 1000)
        for (let i = 0; i < 2000 && emitted < total; i++, emitted++) {
          const quote = quotes[emitted % quotes.length]!
          sink.quote({ ...quote, publishTimeSeconds: nowSeconds })
        }
        if (emitted < total) setImmediate(burst)
        else onEnd?.()
      }
      burst()
    },
    async stop() {
      stopped = true
    },
  }
}

export interface Throughput {
  ticksPerSecond: number
  /** ticks per second of this process's CPU time (user + system), which other processes disturb far less */
  ticksPerCpuSecond: number
}

/** Times `work` over `ticks` ticks by the clock and by this process's CPU time. */
export async function timed(ticks: number, work: () => Promise<void>): Promise<Throughput> {
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  await work()
  const cpu = process.cpuUsage(cpuBefore)
  return { ticksPerSecond: ticks / ((performance.now() - started) / 1000), ticksPerCpuSecond: ticks / ((cpu.user + cpu.system) / 1e6) }
}

/** Source → normalise (asking `clock`) → NATS subject → materializer, each side on its own connection. */
export async function endToEndThroughput(options: {
  natsUrl: string
  ticks: number
  clock: MarketClock
  logger: Logger
}): Promise<Throughput> {
  const { natsUrl, ticks, clock, logger } = options
  const namespace = `b${randomUUID().slice(0, 8)}`
  const metrics = createMetrics()
  const [ingestBus, edgeBus] = await Promise.all(
    ['ingestor', 'edge'].map((name) => natsPriceBus({ servers: natsUrl, namespace, name, logger })),
  )
  const materializer = await startMaterializer({ bus: edgeBus!, staleAfterMs: 10_000, logger, metrics })
  let ingestor: Ingestor | undefined
  const throughput = await timed(ticks, async () => {
    ingestor = startIngestor({ source: burstSource(ticks), bus: ingestBus!, clock, logger, metrics })
    let count = 0
    materializer.onRow(() => count++)
    await reached(() => count, ticks)
  })
  await ingestor?.stop()
  materializer.stop()
  await Promise.all([ingestBus!.close(), edgeBus!.close()])
  return throughput
}
