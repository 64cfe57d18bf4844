// Candles from the history source where the store has none: what an OHLC request (or the background
// backfill and repair) needs is fetched, stored, and then read from the store like our own candles.
//
// - Only ended periods are fetched, and only a settling time after their end: until then our own ticks
//   may still arrive for them. Spans already asked about are not asked again (the ledger's coverage).
// - A span is fetched only if it holds a period when the market was open and the store has no candle.
// - Minutes merge into every resolution, but only where we hold no minute of our own; wider resolutions
//   fill only empty periods. Our own candles always win.
// - Periods older than the store keeps (CANDLES_KEEP_PER_RESOLUTION) are fetched for the answer and not
//   stored: they would be trimmed at once.
// - Identical fetches are one call, in this process and across replicas; each call takes one unit of the
//   call budget.

import type { Logger } from '../../../kit/logger.ts'
import type { Metrics } from '../../../kit/metrics.ts'
import { throttledWarning } from '../../../kit/throttled-warning.ts'
import type { OhlcResolution } from '../../../schemas/ohlc.ts'
import type { Pair } from '../../../schemas/pairs.ts'
import { historySymbolFor } from '../../ingestor/feed-ids.ts'
import { periodStart, type Candle } from '../candle.ts'
import type { CandleStore } from '../candle-store.ts'
import { RESOLUTION_SECONDS } from '../resolutions.ts'
import { HistoryBudgetSpent, type CallBudget, type CallPriority } from './call-budget.ts'
import { uncoveredParts, type Span } from './coverage.ts'
import type { HistoryLedger } from './history-ledger.ts'
import { HistoryCallFailure, type UdfHistoryClient, type UpstreamBar } from './udf-history-client.ts'

export interface UpstreamHistoryOptions {
  store: CandleStore
  ledger: HistoryLedger
  /** or the promise of it, while the embedded source is starting */
  client: UdfHistoryClient | Promise<UdfHistoryClient>
  budget: CallBudget
  /** bars one call asks for at most */
  barsPerCall: number
  /** the store's retention per resolution, in candles */
  keepPerResolution: number
  /** how long after its end a period may still receive our own ticks (the writer's flush, with margin) */
  settleSeconds: number
  /** whether the pair's market was open at some moment of a span (market-activity.ts) */
  marketActive: (pairId: number, fromSeconds: number, toSeconds: number) => boolean
  metrics: Metrics
  logger: Logger
  /** ms since the epoch; default Date.now */
  now?: () => number
}

/** What `prepare` leaves for the answer. */
export interface PreparedRange {
  /** the answer covers [from, until): until is below `to` when the range was longer than one answer */
  until: number
  /** candles older than the store keeps, fetched for this answer only */
  proxied: Candle[]
}

export interface UpstreamHistory {
  /** whether the pair has a feed on the history source */
  covers(pair: Pair): boolean
  /**
   * Makes the store hold what the source has for the pair's periods starting in [from, to) (from a period
   * start), at most `maxPeriods` periods from `from`. Rejects with HistoryCallFailure or HistoryBudgetSpent.
   */
  prepare(
    pair: Pair,
    resolution: OhlcResolution,
    range: { from: number; to: number; maxPeriods: number },
    call: { priority: CallPriority; signal: AbortSignal },
  ): Promise<PreparedRange>
}

export function upstreamHistory(options: UpstreamHistoryOptions): UpstreamHistory {
  const { store, ledger, budget, metrics, barsPerCall, keepPerResolution, settleSeconds, marketActive } = options
  const now = options.now ?? Date.now
  const warn = throttledWarning(options.logger.child({ module: 'upstream-history' }), 'history source call failed')

  /** One call, timed and counted; its outcome is what every caller sharing it gets. */
  const callSource = async (
    symbol: string,
    resolution: OhlcResolution,
    span: Span,
    call: { priority: CallPriority; signal: AbortSignal },
  ) => {
    try {
      await budget.take(call.priority)
    } catch (error) {
      if (error instanceof HistoryBudgetSpent) metrics.historyBudgetRefusals.labels(call.priority).inc()
      throw error
    }
    const client = await options.client
    const timer = metrics.historyCallDuration.startTimer()
    try {
      const bars = await client.bars(symbol, resolution, span.from, span.to, call.signal)
      metrics.historyCalls.labels(bars.length === 0 ? 'no_data' : 'ok').inc()
      return bars
    } catch (error) {
      if (error instanceof HistoryCallFailure) metrics.historyCalls.labels(error.kind).inc()
      warn(error instanceof HistoryCallFailure ? error.kind : 'other', { err: error, symbol, resolution, from: span.from, to: span.to })
      throw error
    } finally {
      timer()
    }
  }

  /** The bars of one chunk, stored (and its span covered) by whichever caller makes the call. */
  const fetchChunk = async (
    pair: Pair,
    symbol: string,
    resolution: OhlcResolution,
    chunk: Span,
    keep: boolean,
    call: { priority: CallPriority; signal: AbortSignal },
  ) => {
    const key = `${symbol}|${resolution}|${chunk.from}|${chunk.to}|${keep ? 'store' : 'proxy'}`
    const { value, sharing } = await ledger.once(
      key,
      async () => {
        const bars = await callSource(symbol, resolution, chunk, call)
        if (keep) {
          const candles = bars.map((bar) => upstreamCandle(bar, RESOLUTION_SECONDS[resolution]))
          if (resolution === '1') await store.mergeAbsentMinutes(pair.symbol, candles)
          else await store.insertAbsent(pair.symbol, resolution, candles)
          await ledger.cover(pair.symbol, resolution, chunk)
        }
        metrics.historyBars.labels(resolution, keep ? 'stored' : 'proxied').inc(bars.length)
        return bars
      },
      call.signal,
    )
    if (sharing !== 'made') metrics.historySharedCalls.labels(sharing).inc()
    return value
  }

  return {
    covers: (pair) => historySymbolFor(pair.symbol) !== undefined,
    async prepare(pair, resolution, range, call) {
      const symbol = historySymbolFor(pair.symbol)
      const width = RESOLUTION_SECONDS[resolution]
      const clipped = range.from + range.maxPeriods * width
      const until = Math.min(range.to, clipped)
      if (!symbol) return { until, proxied: [] }
      const nowSeconds = now() / 1000
      const wanted: Span = { from: range.from, to: Math.min(until, settledEnd(nowSeconds, settleSeconds, width)) }
      if (wanted.to <= wanted.from) return { until, proxied: [] }
      const keptFrom = periodStart(nowSeconds, width) - keepPerResolution * width
      const proxiedSpan = { from: wanted.from, to: Math.min(wanted.to, keptFrom) }
      const storedSpan = { from: Math.max(wanted.from, keptFrom), to: wanted.to }

      const work: Array<Promise<unknown>> = []
      if (storedSpan.to > storedSpan.from) {
        const parts = uncoveredParts(await ledger.covered(pair.symbol, resolution), storedSpan)
        if (parts.length > 0) {
          const held = new Set(
            (await store.read(pair.symbol, resolution, storedSpan.from, storedSpan.to, (storedSpan.to - storedSpan.from) / width + 1)).map(
              (candle) => candle.time,
            ),
          )
          const lacking = (span: Span) => {
            for (let time = span.from; time < span.to; time += width) {
              if (!held.has(time) && marketActive(pair.id, time, time + width)) return true
            }
            return false
          }
          for (const chunk of parts.flatMap((part) => chunksOf(part, width, barsPerCall))) {
            // nothing to fetch: every period is held or had a closed market; remember it was looked at
            work.push(
              lacking(chunk) ? fetchChunk(pair, symbol, resolution, chunk, true, call) : ledger.cover(pair.symbol, resolution, chunk),
            )
          }
        }
      }
      const proxied: Array<Promise<UpstreamBar[]>> = []
      if (proxiedSpan.to > proxiedSpan.from) {
        for (const chunk of chunksOf(proxiedSpan, width, barsPerCall))
          proxied.push(fetchChunk(pair, symbol, resolution, chunk, false, call))
      }
      const [, bars] = await Promise.all([Promise.all(work), Promise.all(proxied)])
      return { until, proxied: bars.flat().map((bar) => upstreamCandle(bar, width)) }
    },
  }
}

/** The end of the last period that ended at least `settleSeconds` ago: periods starting before it are settled. */
function settledEnd(nowSeconds: number, settleSeconds: number, width: number): number {
  return periodStart(nowSeconds - settleSeconds, width)
}

/** A span cut into pieces of at most `barsPerCall` periods, from its start: identical requests cut identically, so their calls coalesce. */
function chunksOf(span: Span, width: number, barsPerCall: number): Span[] {
  const size = width * barsPerCall
  const chunks: Span[] = []
  for (let from = span.from; from < span.to; from += size) chunks.push({ from, to: Math.min(span.to, from + size) })
  return chunks
}

/** A source bar as a candle: it opens at its period's start and closes at the period's last second. */
export function upstreamCandle(bar: UpstreamBar, width: number): Candle {
  return { time: bar.time, open: bar.open, openAt: bar.time, high: bar.high, low: bar.low, close: bar.close, closeAt: bar.time + width - 1 }
}
