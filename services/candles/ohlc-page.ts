import type { OhlcRequest, OhlcResolution, OhlcResponse } from '../../schemas/ohlc.ts'
import type { Pair } from '../../schemas/pairs.ts'
import { periodStart, type Candle } from './candle.ts'
import type { CandleStore } from './candle-store.ts'
import { historyServiceError } from './history/history-failures.ts'
import type { UpstreamHistory } from './history/upstream-history.ts'
import { RESOLUTION_SECONDS } from './resolutions.ts'

/** Where answers come from: the store, filled first from the history source for the pairs it has. */
export interface CandleSource {
  store: CandleStore
  /** none: the store alone (no HISTORY_URL) */
  history?: { upstream: UpstreamHistory; timeoutMs: number }
}

/** One answer's candles, and where the next one starts (`to` when the range is complete). */
export interface CandlePage {
  candles: Candle[]
  next: number
}

/**
 * The candles of one pair and resolution whose period starts in [from, to), from widened to the start of
 * its period, at most `maxCandles`: our own candles, and the history source's where we have none. A cut
 * page ends where the next candle starts, or where the history fetched for this answer ends. The history
 * source is given `deadline` (an answer made of several pages passes one for all of them), by default its
 * own timeout.
 */
export async function readCandlePage(
  source: CandleSource,
  pair: Pair,
  resolution: OhlcResolution,
  range: { from: number; to: number },
  maxCandles: number,
  deadline?: AbortSignal,
): Promise<CandlePage> {
  const from = periodStart(range.from, RESOLUTION_SECONDS[resolution])
  let until = range.to
  let proxied: Candle[] = []
  const history = source.history
  if (history?.upstream.covers(pair)) {
    try {
      const signal = deadline ?? AbortSignal.timeout(history.timeoutMs)
      ;({ until, proxied } = await history.upstream.prepare(
        pair,
        resolution,
        { from, to: range.to, maxPeriods: maxCandles },
        { priority: 'request', signal },
      ))
    } catch (error) {
      throw historyServiceError(error, history.timeoutMs)
    }
  }
  // one more than a page tells whether the range goes on, and where
  const stored = await source.store.read(pair.symbol, resolution, from, until, maxCandles + 1)
  const candles = proxied.length === 0 ? stored : oldestFirst(proxied, stored, until)
  return { candles: candles.slice(0, maxCandles), next: candles[maxCandles]?.time ?? until }
}

/** Candles fetched for the answer only (all older than any stored one), then the stored ones. */
function oldestFirst(proxied: Candle[], stored: Candle[], until: number): Candle[] {
  const storedTimes = new Set(stored.map((candle) => candle.time))
  return [...proxied.filter((candle) => candle.time < until && !storedTimes.has(candle.time)), ...stored]
}

/** One page of a POST /v1/ohlc answer. */
export async function readOhlcPage(source: CandleSource, pair: Pair, request: OhlcRequest, maxCandles: number): Promise<OhlcResponse> {
  const page = await readCandlePage(
    source,
    pair,
    request.resolution,
    { from: request.fromTimestampSeconds, to: request.toTimestampSeconds },
    maxCandles,
  )
  return {
    data: page.candles.map(({ time, open, high, low, close }) => ({
      from: pair.base,
      to: pair.quote,
      // the store keeps seconds; clients read candle times in milliseconds
      time: time * 1000,
      open,
      high,
      low,
      close,
    })),
    lastRequestTimestamp: page.next,
  }
}
