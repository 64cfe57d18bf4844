// Local calendar days of a time zone, and their wall-clock minutes as UTC instants (luxon's tz data).
//
// Rule for the two daylight-saving edge cases (the one JavaScript's Temporal calls "compatible"):
// - a local time that does not exist (spring gap) moves forward by the length of the gap
//   (02:30 on a New York spring-forward day is 03:30 EDT);
// - a local time that happens twice (autumn overlap) means its first occurrence, in daylight time.
// luxon's DateTime.fromObject agrees on the gap, but resolves an overlap from the offset in force when
// the process runs, so its answer differs between a summer and a winter run; hence this explicit rule.

import { DateTime, IANAZone } from 'luxon'
import type { WeekdayIndex } from './schedule-format.ts'

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

export interface LocalDay {
  /** `YYYY-MM-DD` */
  readonly isoDate: string
  /** `MM-DD` */
  readonly monthDay: string
  readonly weekdayIndex: WeekdayIndex
  /** UTC instant (ms) of a wall-clock minute of this day; 1440 is the next local midnight */
  instantAt(minuteOfDay: number): number
}

/** Every local day from `fromIsoDate` through `throughIsoDate`, both included. */
export function localDays(timezone: string, fromIsoDate: string, throughIsoDate: string): LocalDay[] {
  const zone = IANAZone.create(timezone)
  const lastMidnightWallMs = DateTime.fromISO(throughIsoDate, { zone: 'utc' }).toMillis()
  const days: LocalDay[] = []
  // A civil date is read as a UTC DateTime; its epoch value is that date's wall-clock midnight, and
  // UTC days all last 24 hours.
  for (
    let midnightWallMs = DateTime.fromISO(fromIsoDate, { zone: 'utc' }).toMillis();
    midnightWallMs <= lastMidnightWallMs;
    midnightWallMs += DAY_MS
  ) {
    const date = DateTime.fromMillis(midnightWallMs, { zone: 'utc' })
    const isoDate = date.toISODate() as string
    const steadyOffset = steadyOffsetAround(zone, midnightWallMs)
    days.push({
      isoDate,
      monthDay: isoDate.slice(5),
      weekdayIndex: (date.weekday - 1) as WeekdayIndex,
      instantAt: (minuteOfDay) => {
        const wallMs = midnightWallMs + minuteOfDay * MINUTE_MS
        return steadyOffset === undefined ? wallClockToInstant(zone, wallMs) : wallMs - steadyOffset * MINUTE_MS
      },
    })
  }
  return days
}

/**
 * The zone's offset (minutes) when it is the same a day before and two days after local midnight, so
 * certainly constant through the whole day (offsets are within ±14 h and zones never switch twice in
 * three days); undefined on and around a daylight-saving switch.
 */
function steadyOffsetAround(zone: IANAZone, midnightWallMs: number): number | undefined {
  const before = zone.offset(midnightWallMs - DAY_MS)
  return zone.offset(midnightWallMs + 2 * DAY_MS) === before ? before : undefined
}

/** The UTC instant of a wall-clock time (ms as if the wall clock were UTC), by the rule at the top. */
function wallClockToInstant(zone: IANAZone, wallMs: number): number {
  const offsetBefore = zone.offset(wallMs - DAY_MS)
  const readWithOffsetBefore = wallMs - offsetBefore * MINUTE_MS
  // Valid and earliest reading: an ordinary time, or the first of two in an overlap.
  if (zone.offset(readWithOffsetBefore) === offsetBefore) return readWithOffsetBefore
  const offsetAfter = zone.offset(wallMs + DAY_MS)
  const readWithOffsetAfter = wallMs - offsetAfter * MINUTE_MS
  if (zone.offset(readWithOffsetAfter) === offsetAfter) return readWithOffsetAfter
  // Neither reading exists: a spring gap. The earlier offset carries the time forward past the gap.
  return readWithOffsetBefore
}
