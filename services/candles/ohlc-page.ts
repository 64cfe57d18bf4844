import type { OhlcRequest, OhlcResponse } from '../../schemas/ohlc.ts'
import type { Pair } from '../../schemas/pairs.ts'
import { periodStart } from './candle.ts'
import type { CandleStore } from './candle-store.ts'
import { RESOLUTION_SECONDS } from './resolutions.ts'

/**
 * One page of a POST /v1/ohlc answer: the candles whose period starts in [from, to), from widened to
 * the start of its period, at most `maxCandles`. A cut page ends where the next candle starts.
 */
export async function readOhlcPage(store: CandleStore, pair: Pair, request: OhlcRequest, maxCandles: number): Promise<OhlcResponse> {
  const from = periodStart(request.fromTimestampSeconds, RESOLUTION_SECONDS[request.resolution])
  // one more than a page tells whether the range goes on, and where
  const candles = await store.read(pair.symbol, request.resolution, from, request.toTimestampSeconds, maxCandles + 1)
  return {
    data: candles.slice(0, maxCandles).map(({ time, open, high, low, close }) => ({
      from: pair.base,
      to: pair.quote,
      // the store keeps seconds; clients read candle times in milliseconds
      time: time * 1000,
      open,
      high,
      low,
      close,
    })),
    lastRequestTimestamp: candles[maxCandles]?.time ?? request.toTimestampSeconds,
  }
}
