// Market-hours flags for price rows. The ingestor asks a MarketClock for every row it builds, so the
// implementation must be cheap per call (cache the next boundary).

import { PAIRS } from '../../schemas/pairs.ts'
import { DAY_TRADING_HOURS, type ScheduleRef } from '../../schemas/price.ts'

export interface MarketFlags {
  isMarketOpen: boolean
  isDayTradingClosed: boolean
  /** seconds until isDayTradingClosed flips; -1 where it never flips */
  secondsToToggleIsDayTradingClosed: number
}

export interface MarketClock {
  /** undefined when the pair has no trading schedule: such pairs are left out of snapshots and the stream */
  scheduleFor(pairId: number): ScheduleRef | undefined
  /** throws when nowMs lies past the calendar's horizon: the clock refuses to guess */
  flagsAt(pairId: number, nowMs: number): MarketFlags
  /** the next instant (ms) after nowMs at which any flag of this pair changes; Infinity if never */
  nextChangeAt(pairId: number, nowMs: number): number
}

/**
 * Every pair open, day trading allowed, nothing ever flips: for tests and benches where market hours do
 * not matter (and as the baseline that shows what the calendar costs on the tick path).
 */
export function alwaysOpenMarketClock(): MarketClock {
  const scheduleIds = { crypto: 0, fx: 1, metal: 2, energy: 3, index: 4, stock: 5 } as const
  const schedules: ScheduleRef[] = PAIRS.map((pair) => ({
    id: scheduleIds[pair.assetClass],
    alwaysOpen: pair.assetClass === 'crypto',
    timezone: 'UTC',
    openingHours: ['O', 'O', 'O', 'O', 'O', 'O', 'O'],
    dayTradingHours: DAY_TRADING_HOURS,
  }))
  const flags: MarketFlags = { isMarketOpen: true, isDayTradingClosed: false, secondsToToggleIsDayTradingClosed: -1 }
  return {
    scheduleFor: (pairId) => schedules[pairId],
    flagsAt: () => flags,
    nextChangeAt: () => Number.POSITIVE_INFINITY,
  }
}

/** The calendar refuses instants past its data horizon; such a tick cannot carry trustworthy flags. */
export function flagsOrUndefined(clock: MarketClock, pairId: number, nowMs: number): MarketFlags | undefined {
  try {
    return clock.flagsAt(pairId, nowMs)
  } catch {
    return undefined
  }
}

export function nextChangeOrNever(clock: MarketClock, pairId: number, nowMs: number): number {
  try {
    return clock.nextChangeAt(pairId, nowMs)
  } catch {
    // past the calendar's horizon: the next tick is dropped with its reason, nothing to schedule
    return Number.POSITIVE_INFINITY
  }
}
