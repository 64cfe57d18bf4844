// Finding the segment of a time line that holds an instant: a binary search, and a cached variant that
// keeps the last segment found so that most calls on the hot path are two comparisons.

import { DateTime } from 'luxon'
import type { Segment, Timeline } from './session-timeline.ts'

/** The instant lies outside the dates the schedule's data covers; the engine does not guess. */
export class MarketHoursHorizonError extends RangeError {
  override readonly name = 'MarketHoursHorizonError'

  constructor(
    readonly scheduleName: string,
    readonly instantMs: number,
    readonly answersFromMs: number,
    readonly answersUntilMs: number,
  ) {
    super(
      `${scheduleName}: no market-hours data for ${describe(instantMs)}; ` +
        `answers cover ${describe(answersFromMs)} up to ${describe(answersUntilMs)}`,
    )
  }
}

function describe(instantMs: number): string {
  return Number.isFinite(instantMs) ? (DateTime.fromMillis(instantMs, { zone: 'utc' }).toISO() ?? '') : String(instantMs)
}

export type SegmentLookup = (instantMs: number) => Segment

export function findSegment(timeline: Timeline, instantMs: number): Segment {
  const { segments } = timeline
  const first = segments[0] as Segment
  const last = segments[segments.length - 1] as Segment
  // Written so that NaN fails the test too.
  if (!(instantMs >= first.start && instantMs < last.end)) {
    throw new MarketHoursHorizonError(timeline.scheduleName, instantMs, first.start, last.end)
  }
  let low = 0
  let high = segments.length - 1
  while (low < high) {
    const middle = (low + high + 1) >>> 1
    if ((segments[middle] as Segment).start <= instantMs) low = middle
    else high = middle - 1
  }
  return segments[low] as Segment
}

/** A lookup that searches again only when the instant leaves the segment found last time. */
export function cachedLookup(timeline: Timeline): SegmentLookup {
  let current = timeline.segments[0] as Segment
  return (instantMs) => {
    if (instantMs >= current.start && instantMs < current.end) return current
    current = findSegment(timeline, instantMs)
    return current
  }
}
