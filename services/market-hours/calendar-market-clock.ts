// The MarketClock the ingestor asks for every price row, answered by the market-hours calendar.

import { PAIRS } from '../../schemas/pairs.ts'
import { DAY_TRADING_HOURS, type ScheduleRef } from '../../schemas/price.ts'
import type { MarketClock } from './market-clock.ts'
import { createMarketHours, scheduleForPair, type MarketHoursOptions } from './market-hours.ts'

export function calendarMarketClock(options?: MarketHoursOptions): MarketClock {
  const hours = createMarketHours(options)
  // One frozen object per pair, shared by every row of that pair.
  // `openingHours` is the weekly part of the schedule text, one entry a day: rows go out on every tick, so
  // the holiday list stays in GET /v1/market-hours
  const refs: (ScheduleRef | undefined)[] = []
  for (const pair of PAIRS) {
    const schedule = scheduleForPair(pair.id)
    if (schedule === undefined) continue
    const { id, alwaysOpen, timezone, openingHours } = schedule
    refs[pair.id] = Object.freeze({
      id,
      alwaysOpen,
      timezone,
      openingHours: weeklyEntries(openingHours),
      dayTradingHours: DAY_TRADING_HOURS,
    })
  }
  return {
    scheduleFor: (pairId) => refs[pairId],
    flagsAt: hours.flagsAt,
    nextChangeAt: hours.nextChangeAt,
  }
}

/** `Timezone;Mon,...,Sun;Holidays` → the seven day entries. */
function weeklyEntries(scheduleText: string): string[] {
  return scheduleText.split(';')[1]!.split(',')
}
