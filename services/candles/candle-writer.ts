import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { throttledWarning } from '../../kit/throttled-warning.ts'
import { pairBySymbol } from '../../schemas/pairs.ts'
import { mergeCandles, tickCandle, type Candle } from './candle.ts'
import type { CandleStore } from './candle-store.ts'
import { tickPriceOf } from './tick-price.ts'

export interface CandleWriterOptions {
  bus: PriceBus
  store: CandleStore
  logger: Logger
  metrics: Metrics
  /** replicas in one queue group fold each tick once between them; without one, each folds every tick */
  queueGroup?: string
  /** how often the folded ticks are merged into the store (default 1000 ms) */
  flushIntervalMs?: number
}

export interface CandleWriter {
  /** resolves once every tick received so far has been merged into the store (or the merge failed) */
  flush(): Promise<void>
  stop(): Promise<void>
}

/**
 * Folds every tick's mid into one-minute candles in memory and merges them into the store every
 * flush interval: one store round trip per pair and interval, however fast the pair ticks. A merge
 * that fails is kept and retried with the next one; merging is order-independent and idempotent, so
 * neither a retry nor another replica writing the same pair can corrupt a candle.
 */
export function startCandleWriter(options: CandleWriterOptions): CandleWriter {
  const log = options.logger.child({ module: 'candle-writer' })
  const warn = throttledWarning(log, 'candle store write failed, will retry')
  const counted = (outcome: string) => options.metrics.candleTicks.labels(outcome)
  const [folded, malformed, unlisted] = [counted('folded'), counted('malformed'), counted('unlisted_pair')]
  /** pair → minute → the candle folded since the last flush */
  let pending = new Map<string, Map<number, Candle>>()
  let writing: Promise<void> | undefined

  const fold = (pair: string, candle: Candle) => {
    let minutes = pending.get(pair)
    if (!minutes) pending.set(pair, (minutes = new Map<number, Candle>()))
    const stored = minutes.get(candle.time)
    minutes.set(candle.time, stored ? mergeCandles(stored, candle) : candle)
  }

  const onTick = (pair: string, row: Uint8Array) => {
    if (!pairBySymbol(pair)) return unlisted.inc()
    const price = tickPriceOf(row)
    if (!price) return malformed.inc()
    fold(pair, tickCandle(price.mid, price.timestampSeconds))
    folded.inc()
  }

  const writePending = async () => {
    const batch = pending
    pending = new Map()
    const failed: string[] = []
    let reason: unknown
    await Promise.all(
      [...batch].map(async ([pair, minutes]) => {
        try {
          await options.store.merge(pair, [...minutes.values()])
        } catch (error) {
          options.metrics.candleWriteFailures.inc()
          failed.push(pair)
          reason = error
          // the failed candles are older than anything folded since, so they go in first
          const foldedSince = pending.get(pair)
          pending.set(pair, minutes)
          for (const candle of foldedSince?.values() ?? []) fold(pair, candle)
        }
      }),
    )
    // a store outage fails every pair at once: one warning per window for all of them
    if (failed.length > 0) warn('store', { pairs: failed.length, firstPair: failed[0], err: reason })
  }

  /** One write at a time; a caller arriving during a write waits for it, then writes what is left. */
  const flush = async () => {
    while (writing) await writing
    writing = writePending().finally(() => (writing = undefined))
    await writing
  }

  const unsubscribe = options.bus.subscribeTicks(onTick, { queueGroup: options.queueGroup })
  const timer = setInterval(() => {
    if (!writing) void flush()
  }, options.flushIntervalMs ?? 1000)
  log.info({ store: options.store.kind, queueGroup: options.queueGroup ?? null }, 'candle writer started')

  return {
    flush,
    async stop() {
      unsubscribe()
      clearInterval(timer)
      await flush()
      const unwritten = [...pending.values()].reduce((sum, minutes) => sum + minutes.size, 0)
      if (unwritten > 0) log.error({ unwritten }, 'candle writer stopped with minute candles it could not write')
      else log.info('candle writer stopped')
    },
  }
}
