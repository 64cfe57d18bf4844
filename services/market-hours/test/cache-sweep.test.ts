// Sweeps: the cached engine answers exactly like an uncached one, in any order of instants; and the
// markets without overnight sessions agree with a direct reading of the local clock.

import t from 'tap'
import { DateTime } from 'luxon'
import { createMarketHours, MARKET_HOURS_SCHEDULES, PAIR_SCHEDULE_IDS, type MarketHours } from '../market-hours.ts'
import { parseSchedule, type ParsedSchedule, type WeekdayIndex } from '../schedule-format.ts'
import { at } from './fixtures/instants.ts'

const uncached = createMarketHours({ cache: false })

/** Every ~12 h over two years, plus each next change and the millisecond before it. */
function sweepInstants(pairId: number): number[] {
  const instants: number[] = []
  for (let instant = at('2026-01-02T00:00Z'); instant < at('2027-12-20T00:00Z'); instant += 43_211_000) {
    const change = uncached.nextChangeAt(pairId, instant)
    instants.push(instant)
    if (Number.isFinite(change)) instants.push(change - 1, change)
  }
  return instants
}

/** A fixed shuffle (linear congruential generator), so a failure can be replayed. */
function shuffled<T>(items: readonly T[]): T[] {
  const result = [...items]
  let seed = 12_345
  for (let index = result.length - 1; index > 0; index--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    const other = seed % (index + 1)
    ;[result[index], result[other]] = [result[other] as T, result[index] as T]
  }
  return result
}

function representativePair(scheduleId: number): number {
  const pair = [...PAIR_SCHEDULE_IDS].find(([, id]) => id === scheduleId)
  if (pair === undefined) throw new Error(`no pair follows schedule ${scheduleId}`)
  return pair[0]
}

function sameAnswers(one: MarketHours, other: MarketHours, pairId: number, instant: number): boolean {
  const a = one.evaluateAt(pairId, instant)
  const b = other.evaluateAt(pairId, instant)
  return (
    a.isMarketOpen === b.isMarketOpen &&
    a.isDayTradingClosed === b.isDayTradingClosed &&
    a.secondsToToggleIsDayTradingClosed === b.secondsToToggleIsDayTradingClosed &&
    a.nextOpen === b.nextOpen &&
    a.nextClose === b.nextClose &&
    one.nextChangeAt(pairId, instant) === other.nextChangeAt(pairId, instant)
  )
}

t.test('cached answers equal uncached ones, forwards, backwards and shuffled', async (t) => {
  const cached = createMarketHours()
  for (const schedule of MARKET_HOURS_SCHEDULES) {
    const pairId = representativePair(schedule.id)
    const forwards = sweepInstants(pairId)
    for (const [order, instants] of [
      ['forwards', forwards],
      ['backwards', [...forwards].reverse()],
      ['shuffled', shuffled(forwards)],
    ] as const) {
      const mismatches = instants.filter((instant) => !sameAnswers(cached, uncached, pairId, instant))
      t.strictSame(mismatches, [], `${schedule.name}, ${order}, ${instants.length} instants`)
    }
  }
})

/** [isMarketOpen, isDayTradingClosed] read straight from the local clock; valid for day sessions only. */
function readLocalClock(schedule: ParsedSchedule, instant: number): [boolean, boolean] {
  const local = DateTime.fromMillis(instant, { zone: schedule.timezone })
  const day = schedule.datedHolidays.get(local.toISODate() as string) ?? schedule.weekly[(local.weekday - 1) as WeekdayIndex]
  const minute = local.hour * 60 + local.minute + (local.second + local.millisecond / 1000) / 60
  const range = day.find(({ start, end }) => start <= minute && minute < end)
  return [range !== undefined, range === undefined || minute < range.start + 1 || minute >= range.end - 15]
}

t.test('day-session markets agree with a direct reading of the local clock', async (t) => {
  const daySessionSchedules = MARKET_HOURS_SCHEDULES.filter(({ id }) => [4, 5, 8, 9, 10, 11, 12].includes(id))
  for (const schedule of daySessionSchedules) {
    const pairId = representativePair(schedule.id)
    const parsed = parseSchedule(schedule.openingHours)
    const mismatches = sweepInstants(pairId).filter((instant) => {
      const { isMarketOpen, isDayTradingClosed } = uncached.flagsAt(pairId, instant)
      const [open, dayTradingClosed] = readLocalClock(parsed, instant)
      return isMarketOpen !== open || isDayTradingClosed !== dayTradingClosed
    })
    t.strictSame(mismatches, [], schedule.name)
  }
})
