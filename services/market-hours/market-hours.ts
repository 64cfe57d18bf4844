// Market-hours answers per pair and instant: the flags of a price row, the next open and close, and when
// any flag next changes. Each schedule's time line is built on first use; lookups keep the current
// segment per schedule, so a call whose instant is still inside it costs two comparisons.

import type { MarketFlags } from './market-clock.ts'
import { parsedSchedule, scheduleForPair, type MarketHoursSchedule } from './schedule-catalog.ts'
import { buildTimeline, type Segment } from './session-timeline.ts'
import { cachedLookup, findSegment, type SegmentLookup } from './timeline-lookup.ts'

export { MARKET_HOURS_SCHEDULES, PAIR_SCHEDULE_IDS, parsedSchedule, scheduleForPair, type MarketHoursSchedule } from './schedule-catalog.ts'
export { MarketHoursHorizonError } from './timeline-lookup.ts'

/** What a `GET /v1/market-hours` route reports for one pair. Instants in Unix seconds, null when never. */
export interface MarketHoursState extends MarketFlags {
  nextOpen: number | null
  nextClose: number | null
}

export interface MarketHoursOptions {
  /** keep each schedule's current segment between calls (default true); false searches every time */
  cache?: boolean
}

export interface MarketHours {
  /** throws MarketHoursHorizonError outside the schedule's data, RangeError for a pair without a schedule */
  flagsAt(pairId: number, instantMs: number): MarketFlags
  evaluateAt(pairId: number, instantMs: number): MarketHoursState
  /** the next instant (ms) after instantMs at which isMarketOpen or isDayTradingClosed changes; Infinity if never */
  nextChangeAt(pairId: number, instantMs: number): number
}

export function createMarketHours(options: MarketHoursOptions = {}): MarketHours {
  const cache = options.cache ?? true
  const lookups: SegmentLookup[] = []

  function segmentAt(pairId: number, instantMs: number): Segment {
    const schedule = scheduleForPair(pairId)
    if (schedule === undefined) throw new RangeError(`pair ${pairId} has no market-hours schedule`)
    const lookup = (lookups[schedule.id] ??= lookupFor(schedule, cache))
    return lookup(instantMs)
  }

  return {
    flagsAt: (pairId, instantMs) => flagsOf(segmentAt(pairId, instantMs), instantMs),
    evaluateAt: (pairId, instantMs) => {
      const segment = segmentAt(pairId, instantMs)
      return { ...flagsOf(segment, instantMs), nextOpen: unixSeconds(segment.nextOpen), nextClose: unixSeconds(segment.nextClose) }
    },
    nextChangeAt: (pairId, instantMs) => segmentAt(pairId, instantMs).end,
  }
}

function lookupFor(schedule: MarketHoursSchedule, cache: boolean): SegmentLookup {
  const { name, validFrom, validThrough } = schedule
  const coverage = validFrom === null || validThrough === null ? null : { from: validFrom, through: validThrough }
  const timeline = buildTimeline(name, parsedSchedule(schedule), coverage)
  return cache ? cachedLookup(timeline) : (instantMs) => findSegment(timeline, instantMs)
}

function flagsOf(segment: Segment, instantMs: number): MarketFlags {
  return {
    isMarketOpen: segment.isMarketOpen,
    isDayTradingClosed: segment.isDayTradingClosed,
    secondsToToggleIsDayTradingClosed: secondsUntil(segment.dayTradingToggleAt, instantMs),
  }
}

/** Whole seconds, rounded up, so a flip 0.2 s away reads 1 and 0 never appears; -1 when it never flips. */
function secondsUntil(toggleAtMs: number, instantMs: number): number {
  return toggleAtMs === Number.POSITIVE_INFINITY ? -1 : Math.ceil((toggleAtMs - instantMs) / 1000)
}

/** Session boundaries fall on whole minutes, so this is an integer. */
function unixSeconds(instantMs: number): number | null {
  return instantMs === Number.POSITIVE_INFINITY ? null : instantMs / 1000
}

const shared = createMarketHours()

/** Answers from one shared, cached engine (for the market-hours route). */
export function evaluateAt(pairId: number, instantMs: number): MarketHoursState {
  return shared.evaluateAt(pairId, instantMs)
}
