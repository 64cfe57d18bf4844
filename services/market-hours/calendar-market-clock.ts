// The MarketClock the ingestor asks for every price row, answered by the market-hours calendar.

import { PAIRS } from '../../schemas/pairs.ts'
import type { MarketClock, ScheduleRef } from './market-clock.ts'
import { createMarketHours, scheduleForPair, type MarketHoursOptions } from './market-hours.ts'

/**
 * The `schedule` object of a price row. `openingHours` is the weekly part of the schedule text
 * (`Timezone;Mon,...,Sun`): rows go out on every tick, so the holiday list stays in GET /v1/market-hours.
 */
export interface CalendarScheduleRef extends ScheduleRef {
  timezone: string
  openingHours: string
}

export function calendarMarketClock(options?: MarketHoursOptions): MarketClock {
  const hours = createMarketHours(options)
  // One frozen object per pair, shared by every row of that pair.
  const refs: (CalendarScheduleRef | undefined)[] = []
  for (const pair of PAIRS) {
    const schedule = scheduleForPair(pair.id)
    if (schedule === undefined) continue
    const { id, alwaysOpen, timezone, openingHours } = schedule
    refs[pair.id] = Object.freeze({ id, alwaysOpen, timezone, openingHours: weeklyPart(openingHours) })
  }
  return {
    scheduleFor: (pairId) => refs[pairId],
    flagsAt: hours.flagsAt,
    nextChangeAt: hours.nextChangeAt,
  }
}

function weeklyPart(scheduleText: string): string {
  return scheduleText.split(';').slice(0, 2).join(';')
}
