import { createMarketHours, MarketHoursHorizonError } from '../../market-hours/market-hours.ts'

/**
 * Whether a pair's market was open at some moment of [fromSeconds, toSeconds): a period when it was
 * closed all along has no candle by design, so nobody asks the history source for it. Outside the
 * calendar's data the answer is unknown, and taken as open (the source is asked once).
 */
export function marketActivity(): (pairId: number, fromSeconds: number, toSeconds: number) => boolean {
  const hours = createMarketHours()
  return (pairId, fromSeconds, toSeconds) => {
    try {
      if (hours.flagsAt(pairId, fromSeconds * 1000).isMarketOpen) return true
      // closed at the start: the next change of any flag is the opening
      return hours.nextChangeAt(pairId, fromSeconds * 1000) < toSeconds * 1000
    } catch (error) {
      if (error instanceof MarketHoursHorizonError) return true
      throw error
    }
  }
}
