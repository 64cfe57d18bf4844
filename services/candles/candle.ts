// A candle of mid prices for one period, with the tick times of its open and close. Keeping those
// times makes merging order-independent: candles built from ticks in any order, by any number of
// writers, merged any number of times, come out the same.

export interface Candle {
  /** start of the candle's period, Unix seconds */
  time: number
  open: number
  /** timestampSeconds of the tick that gave `open` (the earliest) */
  openAt: number
  high: number
  low: number
  close: number
  /** timestampSeconds of the tick that gave `close` (the latest) */
  closeAt: number
}

/** The start of the period of `widthSeconds` that holds `timestampSeconds` (periods start at the Unix epoch). */
export function periodStart(timestampSeconds: number, widthSeconds: number): number {
  return Math.floor(timestampSeconds / widthSeconds) * widthSeconds
}

/** The candle of a single tick, of the period starting at `time` (by default its minute). */
export function tickCandle(mid: number, timestampSeconds: number, time = periodStart(timestampSeconds, 60)): Candle {
  return {
    time,
    open: mid,
    openAt: timestampSeconds,
    high: mid,
    low: mid,
    close: mid,
    closeAt: timestampSeconds,
  }
}

/**
 * Merges a candle into the stored one of the same period. The earlier tick opens and the later one
 * closes; on a tie the stored open stays and the arriving close wins (ticks of one second keep their
 * arrival order). Merging the same candle twice changes nothing, so a retried write is harmless.
 */
export function mergeCandles(stored: Candle, arriving: Candle): Candle {
  const opensEarlier = arriving.openAt < stored.openAt
  const closesLater = arriving.closeAt >= stored.closeAt
  return {
    time: stored.time,
    open: opensEarlier ? arriving.open : stored.open,
    openAt: opensEarlier ? arriving.openAt : stored.openAt,
    high: Math.max(stored.high, arriving.high),
    low: Math.min(stored.low, arriving.low),
    close: closesLater ? arriving.close : stored.close,
    closeAt: closesLater ? arriving.closeAt : stored.closeAt,
  }
}

/**
 * `mergeCandles(candle, tickCandle(mid, timestampSeconds, candle.time))` without building the tick's candle, and the
 * same candle when the tick changes none of its fields: live candles fold every tick into every resolution.
 */
export function withTick(candle: Candle, mid: number, timestampSeconds: number): Candle {
  const opensEarlier = timestampSeconds < candle.openAt
  const closesLater = timestampSeconds >= candle.closeAt
  const high = Math.max(candle.high, mid)
  const low = Math.min(candle.low, mid)
  const closeMoves = closesLater && (mid !== candle.close || timestampSeconds !== candle.closeAt)
  if (!opensEarlier && !closeMoves && high === candle.high && low === candle.low) return candle
  return {
    time: candle.time,
    open: opensEarlier ? mid : candle.open,
    openAt: opensEarlier ? timestampSeconds : candle.openAt,
    high,
    low,
    close: closesLater ? mid : candle.close,
    closeAt: closesLater ? timestampSeconds : candle.closeAt,
  }
}
