// Local calendar days of a time zone, and their wall-clock minutes as UTC instants (luxon's tz data).
//
// Rule for the two daylight-saving edge cases (the one JavaScript's Temporal calls "compatible"):
// - a local time that does not exist (spring gap) moves forward by the length of the gap
//   (02:30 on a New York spring-forward day is 03:30 EDT);
// - a local time that happens twice (autumn overlap) means its first occurrence, in daylight time.
// luxon's DateTime.fromObject agrees on the gap, but resolves an overlap from the offset in force when
// the process runs, so its answer differs between a summer and a winter run; hence this explicit rule.

import { IANAZone } from 'luxon'
import type { WeekdayIndex } from './schedule-format.ts'

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000
const WEEK_DAYS = 7

export interface LocalDay {
  /** `YYYY-MM-DD` */
  readonly isoDate: string
  /** `MM-DD` */
  readonly monthDay: string
  readonly weekdayIndex: WeekdayIndex
  /** UTC instant (ms) of a wall-clock minute of this day; 1440 is the next local midnight */
  instantAt(minuteOfDay: number): number
}

/**
 * The days of each zone and span asked for, kept: several schedules share a zone (six of them New York's) and
 * their coverage, and reading a zone's offsets is most of a time line's cost at start.
 */
const daysBySpan = new Map<string, readonly LocalDay[]>()

/** Every local day from `fromIsoDate` through `throughIsoDate`, both included. */
export function localDays(timezone: string, fromIsoDate: string, throughIsoDate: string): readonly LocalDay[] {
  const key = `${timezone} ${fromIsoDate} ${throughIsoDate}`
  let days = daysBySpan.get(key)
  if (days === undefined) daysBySpan.set(key, (days = readLocalDays(timezone, fromIsoDate, throughIsoDate)))
  return days
}

function readLocalDays(timezone: string, fromIsoDate: string, throughIsoDate: string): LocalDay[] {
  const zone = IANAZone.create(timezone)
  // A civil date is read as a UTC date; its epoch value is that date's wall-clock midnight, and UTC days all
  // last 24 hours.
  const firstMidnightWallMs = Date.parse(`${fromIsoDate}T00:00:00Z`)
  const lastMidnightWallMs = Date.parse(`${throughIsoDate}T00:00:00Z`)
  const count = Math.floor((lastMidnightWallMs - firstMidnightWallMs) / DAY_MS) + 1
  const offsets = midnightOffsets(zone, firstMidnightWallMs - DAY_MS, count + 3)
  const days: LocalDay[] = []
  for (let index = 0; index < count; index++) {
    const midnightWallMs = firstMidnightWallMs + index * DAY_MS
    const isoDate = new Date(midnightWallMs).toISOString().slice(0, 10)
    const steadyOffset = steadyOffsetAround(offsets[index]!, offsets[index + 3]!)
    days.push({
      isoDate,
      monthDay: isoDate.slice(5),
      // Monday is 0, as the schedules count (UTC's getUTCDay counts from Sunday)
      weekdayIndex: ((new Date(midnightWallMs).getUTCDay() + 6) % 7) as WeekdayIndex,
      instantAt: (minuteOfDay) => {
        const wallMs = midnightWallMs + minuteOfDay * MINUTE_MS
        return steadyOffset === undefined ? wallClockToInstant(zone, wallMs) : wallMs - steadyOffset * MINUTE_MS
      },
    })
  }
  return days
}

/**
 * The zone's offset (minutes) at `count` wall-clock midnights a day apart from `firstMidnightWallMs`. A read
 * costs an Intl call, so the offset is read once a week and, only where it changed, on each day between (a
 * zone changes its offset at most twice a year, never twice in a week).
 */
function midnightOffsets(zone: IANAZone, firstMidnightWallMs: number, count: number): number[] {
  const at = (index: number) => zone.offset(firstMidnightWallMs + index * DAY_MS)
  const offsets = [at(0)]
  for (let index = WEEK_DAYS; index < count + WEEK_DAYS; index += WEEK_DAYS) {
    const last = Math.min(index, count - 1)
    const offset = at(last)
    const previous = offsets.at(-1)!
    for (let day = offsets.length; day < last; day++) offsets.push(offset === previous ? offset : at(day))
    offsets.push(offset)
    if (last === count - 1) break
  }
  return offsets
}

/**
 * The zone's offset (minutes) when it is the same a day before and two days after local midnight, so
 * certainly constant through the whole day (offsets are within ±14 h and zones never switch twice in
 * three days); undefined on and around a daylight-saving switch.
 */
function steadyOffsetAround(dayBefore: number, twoDaysAfter: number): number | undefined {
  return twoDaysAfter === dayBefore ? dayBefore : undefined
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
