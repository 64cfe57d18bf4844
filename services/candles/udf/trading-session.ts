// A market-hours schedule in TradingView's session syntax (the Charting Library's "Trading Sessions"
// page): `24x7`, or per trading day its sessions `HHMM-HHMM`, with `F` (or `F2` … `F6`) when a session
// starts that many days before the day it ends on, the days after `:` numbered 1 = Sunday … 7 = Saturday.
// A session that runs through midnight belongs to the day it ends on, as FX's `1700F-1700`.

import { parsedSchedule, type MarketHoursSchedule } from '../../market-hours/market-hours.ts'
import type { DayHours } from '../../market-hours/schedule-format.ts'

export interface TradingSession {
  session: string
  timezone: string
  /** whole days closed, `YYYYMMDD,…` */
  holidays: string
  /** days with other hours, `SESSION:YYYYMMDD;…` (only for schedules whose sessions stay within a day) */
  corrections: string
}

const DAY = 1440
const WEEK = 7 * DAY

/** The schedule's weekly hours, holidays and early closes as TradingView reads them. */
export function tradingSession(schedule: MarketHoursSchedule): TradingSession {
  const parsed = parsedSchedule(schedule)
  const timezone = parsed.timezone === 'UTC' ? 'Etc/UTC' : parsed.timezone
  if (parsed.weekly.every((day) => day.length === 1 && day[0]!.start === 0 && day[0]!.end === DAY)) {
    return { session: '24x7', timezone, holidays: '', corrections: '' }
  }
  const byDay = sessionsByDay(parsed.weekly)
  const groups = new Map<string, number[]>()
  byDay.forEach((sessions, day) => {
    if (sessions.length === 0) return
    const key = sessions.join(',')
    groups.set(key, [...(groups.get(key) ?? []), tradingViewDay(day)])
  })
  const session = [...groups].map(([sessions, days]) => `${sessions}:${days.sort().join('')}`).join('|')
  const closedDays: string[] = []
  const corrections: string[] = []
  const withinDays = byDay.every((sessions) => sessions.every((text) => !text.includes('F')))
  for (const [date, hours] of [...parsed.datedHolidays].sort(([a], [b]) => a.localeCompare(b))) {
    const compact = date.replaceAll('-', '')
    if (hours.length === 0) closedDays.push(compact)
    else if (withinDays) corrections.push(`${hours.map((range) => `${hhmm(range.start)}-${hhmm(range.end)}`).join(',')}:${compact}`)
  }
  return { session, timezone, holidays: closedDays.join(','), corrections: corrections.join(';') }
}

/** Each weekday's (0 = Monday) sessions, joined across midnights and cut at the time they close. */
function sessionsByDay(weekly: readonly DayHours[]): string[][] {
  const ranges = weekly.flatMap((hours, day) => hours.map((range) => ({ start: day * DAY + range.start, end: day * DAY + range.end })))
  // join ranges that touch, the last day's into the first's across the week's end
  const joined: Array<{ start: number; end: number }> = []
  for (const range of ranges) {
    const last = joined[joined.length - 1]
    if (last && last.end === range.start) last.end = range.end
    else joined.push({ ...range })
  }
  if (joined.length > 1 && joined[joined.length - 1]!.end === WEEK && joined[0]!.start === 0) {
    const wrapped = joined.pop()!
    joined[0] = { start: wrapped.start, end: joined[0]!.end + WEEK }
  }
  const byDay: string[][] = Array.from({ length: 7 }, () => [])
  for (const { start, end } of joined) {
    const close = end % DAY
    // cut where the session closes each day (at midnight when it closes at midnight)
    for (let from = start; from < end;) {
      const next = Math.min(end, (Math.floor((from - close) / DAY) + 1) * DAY + close)
      const piece = { start: from, end: next }
      const endDay = Math.floor((piece.end - (close === 0 ? 1 : 0)) / DAY)
      const startDay = Math.floor(piece.start / DAY)
      const back = (close === 0 ? endDay + 1 : endDay) - startDay
      const assignedDay = (close === 0 && piece.end - piece.start < DAY ? endDay + 1 : endDay) % 7
      byDay[assignedDay]!.push(
        piece.end - piece.start === DAY && piece.start % DAY === 0
          ? '0000-0000'
          : `${hhmm(piece.start % DAY)}${back === 0 ? '' : back === 1 ? 'F' : `F${back}`}-${hhmm(close)}`,
      )
      from = next
    }
  }
  return byDay.map((sessions) => sessions.sort())
}

/** Our weekday (0 = Monday) as TradingView numbers it (1 = Sunday, 2 = Monday … 7 = Saturday). */
function tradingViewDay(day: number): number {
  return ((day + 1) % 7) + 1
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`
}
