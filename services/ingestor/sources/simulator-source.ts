import { PAIRS, type Pair } from '../../../schemas/pairs.ts'
import { feedIdFor } from '../feed-ids.ts'
import type { FeedSink, FeedSource } from './feed-source.ts'
import { normalDraw, seededRandom } from '../../../kit/seeded-random.ts'
import { CLASS_DYNAMICS, STARTING_MIDS } from './simulated-markets.ts'

export interface SimulatorOptions {
  /** total quotes per second across all open pairs */
  ticksPerSecond: number
  seed: number
  /** pairs that may tick now (after its opening price, a closed market stays silent) */
  isTrading: (pairId: number, nowMs: number) => boolean
  /** timer period; each period emits its share of the rate */
  intervalMs?: number
  now?: () => number
}

interface SimulatedPair {
  pair: Pair
  feedId: string
  mid: number
}

/** A random walk per pair with class-typical spreads: the default source, so a laptop needs no upstream. */
export function simulatorSource(options: SimulatorOptions): FeedSource {
  const random = seededRandom(options.seed)
  const now = options.now ?? Date.now
  const intervalMs = options.intervalMs ?? 10
  const markets: SimulatedPair[] = PAIRS.map((pair) => ({ pair, feedId: feedIdFor(pair.symbol), mid: STARTING_MIDS[pair.symbol] ?? 100 }))
  let timer: NodeJS.Timeout | undefined
  let owed = 0

  const quoteOne = (market: SimulatedPair, sink: FeedSink, nowMs: number) => {
    const { spreadBps, tickVolatility } = CLASS_DYNAMICS[market.pair.assetClass]
    market.mid *= Math.exp(tickVolatility * normalDraw(random))
    const halfSpread = (market.mid * spreadBps) / 20_000
    sink.quote({
      pair: market.pair.symbol,
      feedId: market.feedId,
      bid: market.mid - halfSpread,
      mid: market.mid,
      ask: market.mid + halfSpread,
      publishTimeSeconds: Math.floor(nowMs / 1000),
    })
  }

  return {
    name: 'simulator',
    start(sink) {
      // a last price for every pair at once, closed markets included (their rows show them closed):
      // a quiet market has an old row, never a missing one
      const startedAt = now()
      for (const market of markets) quoteOne(market, sink, startedAt)
      timer = setInterval(() => {
        const nowMs = now()
        const open = markets.filter((market) => options.isTrading(market.pair.id, nowMs))
        if (open.length === 0) return
        owed += (options.ticksPerSecond * intervalMs) / 1000
        for (; owed >= 1; owed--) quoteOne(open[Math.floor(random() * open.length)]!, sink, nowMs)
      }, intervalMs)
    },
    async stop() {
      clearInterval(timer)
    },
  }
}
