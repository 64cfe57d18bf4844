// Turns a parsed schedule into a time line: UTC segments over which every market-hours answer is
// constant (apart from the seconds still to wait), each knowing the next open, close and day-trading flip.

import { localDays, type LocalDay } from './local-time.ts'
import { MINUTES_PER_DAY, type DayHours, type ParsedSchedule } from './schedule-format.ts'
import { DAY_TRADING_MINUTES } from '../../schemas/price.ts'

/** Day trading opens a little after a session opens and ends a little before it closes. */
const DAY_TRADING_OPENS_AFTER_MS = DAY_TRADING_MINUTES.afterOpen * 60_000
const DAY_TRADING_ENDS_BEFORE_CLOSE_MS = DAY_TRADING_MINUTES.beforeClose * 60_000

/** Local dates (inclusive) that a schedule's holiday data covers. */
export interface Coverage {
  readonly from: string
  readonly through: string
}

/** A UTC stretch [start, end) with constant flags. Instants in ms; Infinity means never. */
export interface Segment {
  readonly start: number
  /** the next instant at which isMarketOpen or isDayTradingClosed changes */
  readonly end: number
  readonly isMarketOpen: boolean
  readonly isDayTradingClosed: boolean
  readonly dayTradingToggleAt: number
  /** the first session opening after any instant of the segment */
  readonly nextOpen: number
  /** the first session closing after any instant of the segment */
  readonly nextClose: number
}

/** Contiguous segments; the engine answers only for instants in [first start, last end). */
export interface Timeline {
  readonly scheduleName: string
  readonly segments: readonly Segment[]
}

const ALWAYS_OPEN: Segment = {
  start: Number.NEGATIVE_INFINITY,
  end: Number.POSITIVE_INFINITY,
  isMarketOpen: true,
  isDayTradingClosed: false,
  dayTradingToggleAt: Number.POSITIVE_INFINITY,
  nextOpen: Number.POSITIVE_INFINITY,
  nextClose: Number.POSITIVE_INFINITY,
}

export function buildTimeline(scheduleName: string, schedule: ParsedSchedule, coverage: Coverage | null): Timeline {
  if (schedule.alwaysOpen) return { scheduleName, segments: [ALWAYS_OPEN] }
  if (coverage === null) throw new Error(`${scheduleName}: a schedule with closed hours needs dates it covers`)
  const { sessions, answersFrom } = knownSessions(schedule, coverage)
  const segments = segmentsOf(sessions, answersFrom)
  if (segments.length === 0)
    throw new Error(`${scheduleName}: no complete trading session between ${coverage.from} and ${coverage.through}`)
  return { scheduleName, segments }
}

interface Session {
  open: number
  close: number
}

/**
 * Sessions whose open and close both lie inside the covered days, merged where they touch (so a session
 * running through midnight has no boundary at 00:00). A session touching the first or last covered
 * midnight may extend beyond the data; it is dropped, and answers start after the first one closes.
 */
function knownSessions(schedule: ParsedSchedule, coverage: Coverage): { sessions: Session[]; answersFrom: number } {
  const days = localDays(schedule.timezone, coverage.from, coverage.through)
  const firstDay = days[0]
  const lastDay = days.at(-1)
  if (firstDay === undefined || lastDay === undefined) throw new Error(`coverage ${coverage.from}..${coverage.through} holds no day`)
  const sessions: Session[] = []
  for (const day of days) {
    for (const range of hoursOn(schedule, day)) {
      const open = day.instantAt(range.start)
      const close = day.instantAt(range.end)
      // A range inside a spring gap can end before its start, moved forward past the gap: no trading.
      if (close <= open) continue
      const previous = sessions.at(-1)
      if (previous !== undefined && open <= previous.close) previous.close = Math.max(previous.close, close)
      else sessions.push({ open, close })
    }
  }
  let answersFrom = firstDay.instantAt(0)
  const first = sessions[0]
  if (first !== undefined && first.open === answersFrom) {
    sessions.shift()
    answersFrom = first.close
  }
  if (sessions.at(-1)?.close === lastDay.instantAt(MINUTES_PER_DAY)) sessions.pop()
  return { sessions, answersFrom }
}

function hoursOn(schedule: ParsedSchedule, day: LocalDay): DayHours {
  return schedule.datedHolidays.get(day.isoDate) ?? schedule.yearlyHolidays.get(day.monthDay) ?? schedule.weekly[day.weekdayIndex]
}

interface FlagState {
  start: number
  isMarketOpen: boolean
  isDayTradingClosed: boolean
}

/** The flag states from `answersFrom` on, one per change; the market is closed at `answersFrom`. */
function flagStates(sessions: readonly Session[], answersFrom: number): FlagState[] {
  const states: FlagState[] = [{ start: answersFrom, isMarketOpen: false, isDayTradingClosed: true }]
  for (const { open, close } of sessions) {
    const dayTradingFrom = open + DAY_TRADING_OPENS_AFTER_MS
    const dayTradingUntil = close - DAY_TRADING_ENDS_BEFORE_CLOSE_MS
    states.push({ start: open, isMarketOpen: true, isDayTradingClosed: true })
    if (dayTradingFrom < dayTradingUntil) {
      states.push({ start: dayTradingFrom, isMarketOpen: true, isDayTradingClosed: false })
      states.push({ start: dayTradingUntil, isMarketOpen: true, isDayTradingClosed: true })
    }
    states.push({ start: close, isMarketOpen: false, isDayTradingClosed: true })
  }
  return states
}

/**
 * Walks the states backwards, carrying the next open, close and day-trading flip. The last states lack
 * some of these (they lie past the data); they are left out, which sets the horizon.
 */
function segmentsOf(sessions: readonly Session[], answersFrom: number): Segment[] {
  const states = flagStates(sessions, answersFrom)
  const segments: Segment[] = []
  let nextOpen = Number.NaN
  let nextClose = Number.NaN
  let dayTradingToggleAt = Number.NaN
  for (let index = states.length - 2; index >= 0; index--) {
    const here = states[index] as FlagState
    const following = states[index + 1] as FlagState
    if (!here.isMarketOpen && following.isMarketOpen) nextOpen = following.start
    if (here.isMarketOpen && !following.isMarketOpen) nextClose = following.start
    if (here.isDayTradingClosed !== following.isDayTradingClosed) dayTradingToggleAt = following.start
    if (Number.isNaN(nextOpen) || Number.isNaN(nextClose) || Number.isNaN(dayTradingToggleAt)) continue
    const { start, isMarketOpen, isDayTradingClosed } = here
    segments.push({ start, end: following.start, isMarketOpen, isDayTradingClosed, dayTradingToggleAt, nextOpen, nextClose })
  }
  return segments.reverse()
}
