import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { throttledWarning } from '../../kit/throttled-warning.ts'
import type { PriceRow } from '../../schemas/price.ts'
import { nextChangeOrNever, type MarketClock } from '../market-hours/market-clock.ts'
import { encodeRow } from './encode-row.ts'
import { normaliseQuote } from './normalize.ts'
import type { FeedSink, FeedSource, UpstreamQuote } from './sources/feed-source.ts'

export interface IngestorDeps {
  source: FeedSource
  bus: PriceBus
  clock: MarketClock
  logger: Logger
  metrics: Metrics
  now?: () => number
  /** how often quiet pairs are checked for a market-hours flag that has flipped */
  flagCheckIntervalMs?: number
}

export interface Ingestor {
  stop(): Promise<void>
}

/**
 * Normalises every upstream quote into a price row, encodes it once and publishes it. Rows of quiet
 * pairs are published again when a market-hours flag flips (a closed market does not tick, but its row
 * must show it closed), with their last prices and timestamp.
 */
export function startIngestor(deps: IngestorDeps): Ingestor {
  const now = deps.now ?? Date.now
  const log = deps.logger.child({ module: 'ingestor', source: deps.source.name })
  const warnDropped = throttledWarning(log, 'upstream data dropped')
  const ingested = deps.metrics.ticksIngested.labels(deps.source.name)
  const lastQuote = new Map<number, UpstreamQuote>()
  const nextFlagChange = new Map<number, number>()

  const drop = (reason: string, detail: Record<string, unknown> = {}) => {
    deps.metrics.ticksDropped.labels(deps.source.name, reason).inc()
    warnDropped(reason, { reason, ...detail })
  }

  const publish = (pairId: number, row: PriceRow, nowMs: number) => {
    deps.bus.publishTick(row.pair, encodeRow(row))
    // the flags hold until the known change: ask the calendar again only once it has passed
    const changeAt = nextFlagChange.get(pairId)
    if (changeAt === undefined || nowMs >= changeAt) nextFlagChange.set(pairId, nextChangeOrNever(deps.clock, pairId, nowMs))
  }

  const sink: FeedSink = {
    quote(quote) {
      const nowMs = now()
      const normalised = normaliseQuote(quote, deps.clock, nowMs)
      if (!normalised.ok) return drop(normalised.reason, { pair: quote.pair })
      lastQuote.set(normalised.pairId, quote)
      publish(normalised.pairId, normalised.row, nowMs)
      ingested.inc()
    },
    malformed: drop,
  }

  const republishFlippedRows = () => {
    const nowMs = now()
    for (const [pairId, changeAt] of nextFlagChange) {
      if (nowMs < changeAt) continue
      const normalised = normaliseQuote(lastQuote.get(pairId)!, deps.clock, nowMs)
      if (normalised.ok) publish(pairId, normalised.row, nowMs)
      else nextFlagChange.delete(pairId)
    }
  }

  const flagTimer = setInterval(republishFlippedRows, deps.flagCheckIntervalMs ?? 1000)
  deps.source.start(sink)
  log.info('ingestor started')

  return {
    async stop() {
      clearInterval(flagTimer)
      await deps.source.stop()
      await deps.bus.flush()
      log.info('ingestor stopped')
    },
  }
}
