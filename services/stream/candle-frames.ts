import type { OhlcResolution } from '../../schemas/ohlc.ts'
import { PAIRS } from '../../schemas/pairs.ts'
import type { Candle } from '../candles/candle.ts'
import type { LiveCandle, LiveCandles } from '../candles/live-candles.ts'
import type { CandleSubscription } from './candle-query.ts'

// Frames of /v1/candles/stream: a candle is POST /v1/ohlc's (time in milliseconds), with its resolution and
// whether its period is over.

function candleData(pairId: number, resolution: OhlcResolution, { time, open, high, low, close }: Candle, closed: boolean) {
  const pair = PAIRS[pairId]!
  return { from: pair.base, to: pair.quote, time: time * 1000, open, high, low, close, resolution, closed }
}

export const candleFrame = ({ pairId, resolution, candle, closed }: LiveCandle): string =>
  JSON.stringify({ type: 'candle', data: candleData(pairId, resolution, candle, closed) })

/** The first frame: for each pair in pair-id order, its last closed candle, then its forming one, where they exist. */
export function candleSnapshotFrame({ pairIds, resolution }: CandleSubscription, live: LiveCandles): string {
  const data = pairIds.flatMap((pairId) => {
    const { lastClosed, forming } = live.latest(pairId, resolution)
    return [
      ...(lastClosed ? [candleData(pairId, resolution, lastClosed, true)] : []),
      ...(forming ? [candleData(pairId, resolution, forming, false)] : []),
    ]
  })
  return JSON.stringify({ type: 'snapshot', data })
}
