// Parser for the compact schedule text (Pyth's format, plus dated holidays):
//
//   Timezone;WeeklySchedule;Holidays
//
// - Timezone: an IANA name; daylight saving comes from the tz database.
// - WeeklySchedule: exactly 7 comma-separated day entries, Monday first. A day entry is `O` (open all
//   day), `C` (closed) or `HHMM-HHMM[&HHMM-HHMM...]` in local time, each range half-open [start, end),
//   `2400` only as an end.
// - Holidays: a comma list (may be empty) of `DATE/DayEntry`, replacing that date's weekly entry. DATE is
//   `MMDD` (every year, as Pyth writes it), `YYYYMMDD` or `YYYY-MM-DD`. A dated entry wins over a
//   year-less one for the same day.

import { DateTime, IANAZone } from 'luxon'

export const MINUTES_PER_DAY = 1440

/** Minutes after local midnight, half-open: [start, end). */
export interface MinuteRange {
  readonly start: number
  readonly end: number
}

/** One local day's trading ranges, ascending and not overlapping; empty when closed all day. */
export type DayHours = readonly MinuteRange[]

/** 0 = Monday … 6 = Sunday (luxon's weekday minus one). */
export type WeekdayIndex = 0 | 1 | 2 | 3 | 4 | 5 | 6

export type WeeklyHours = readonly [DayHours, DayHours, DayHours, DayHours, DayHours, DayHours, DayHours]

export interface ParsedSchedule {
  readonly timezone: string
  readonly weekly: WeeklyHours
  /** keyed `YYYY-MM-DD` */
  readonly datedHolidays: ReadonlyMap<string, DayHours>
  /** keyed `MM-DD`, applying every year */
  readonly yearlyHolidays: ReadonlyMap<string, DayHours>
  /** open around the clock every day, with no holidays */
  readonly alwaysOpen: boolean
}

export class ScheduleFormatError extends Error {
  override readonly name = 'ScheduleFormatError'

  constructor(
    readonly scheduleText: string,
    readonly problem: string,
  ) {
    super(`invalid schedule "${scheduleText}": ${problem}`)
  }
}

export function parseSchedule(text: string): ParsedSchedule {
  try {
    return parseFields(text)
  } catch (error) {
    if (error instanceof Problem) throw new ScheduleFormatError(text, error.message)
    throw error
  }
}

/** Thrown by the helpers below; parseSchedule adds the whole schedule text to the message. */
class Problem extends Error {}

function fail(message: string): never {
  throw new Problem(message)
}

const OPEN_ALL_DAY: DayHours = [{ start: 0, end: MINUTES_PER_DAY }]
const CLOSED_ALL_DAY: DayHours = []
const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

function parseFields(text: string): ParsedSchedule {
  const fields = text.split(';')
  if (fields.length !== 3) fail(`expected 3 fields "Timezone;WeeklySchedule;Holidays", found ${fields.length}`)
  const [timezone, weeklyField, holidaysField] = fields as [string, string, string]
  // IANAZone.create keeps one zone per name; isValidZone would build a new Intl formatter at every call
  if (!IANAZone.create(timezone).isValid) fail(`unknown time zone "${timezone}"`)
  const weekly = parseWeek(weeklyField)
  const { datedHolidays, yearlyHolidays } = parseHolidays(holidaysField)
  const alwaysOpen = weekly.every(isOpenAllDay) && datedHolidays.size === 0 && yearlyHolidays.size === 0
  return { timezone, weekly, datedHolidays, yearlyHolidays, alwaysOpen }
}

function isOpenAllDay(day: DayHours): boolean {
  return day.length === 1 && day[0]?.start === 0 && day[0].end === MINUTES_PER_DAY
}

function parseWeek(field: string): WeeklyHours {
  const entries = field.split(',')
  if (entries.length !== 7) fail(`the weekly schedule needs 7 day entries (Monday first), found ${entries.length}`)
  return entries.map((entry, index) => parseDayEntry(entry, DAY_NAMES[index] ?? '')) as unknown as WeeklyHours
}

const RANGE = /^(\d\d)(\d\d)-(\d\d)(\d\d)$/

function parseDayEntry(entry: string, where: string): DayHours {
  if (entry === 'O') return OPEN_ALL_DAY
  if (entry === 'C') return CLOSED_ALL_DAY
  const ranges = entry.split('&').map((range) => parseRange(range, where))
  ranges.reduce((previous, range) => {
    if (range.start < previous.end) fail(`${where}: ranges in "${entry}" overlap or are out of order`)
    return range
  })
  return ranges
}

function parseRange(text: string, where: string): MinuteRange {
  const match = RANGE.exec(text)
  if (match === null) fail(`${where}: "${text}" is not O, C or HHMM-HHMM`)
  const [, startHour, startMinute, endHour, endMinute] = match.map(Number) as [number, number, number, number, number]
  const start = startHour * 60 + startMinute
  const end = endHour * 60 + endMinute
  if (startHour > 23 || startMinute > 59) fail(`${where}: "${text}" starts at an impossible time`)
  if (end > MINUTES_PER_DAY || endMinute > 59) fail(`${where}: "${text}" ends at an impossible time (2400 is the latest)`)
  if (start >= end) fail(`${where}: "${text}" does not end after it starts`)
  return { start, end }
}

const YEARLESS_DATE = /^(\d\d)(\d\d)$/
const COMPACT_DATE = /^(\d{4})(\d\d)(\d\d)$/
const DASHED_DATE = /^(\d{4})-(\d\d)-(\d\d)$/
/** A leap year, so that a year-less 0229 is accepted. */
const ANY_LEAP_YEAR = 2024

function parseHolidays(field: string) {
  const datedHolidays = new Map<string, DayHours>()
  const yearlyHolidays = new Map<string, DayHours>()
  const items = field === '' ? [] : field.split(',')
  for (const item of items) {
    const slash = item.indexOf('/')
    if (slash < 0) fail(`holiday "${item}" is not DATE/DayEntry`)
    const dateText = item.slice(0, slash)
    const date = parseHolidayDate(dateText)
    const holidays = date.everyYear ? yearlyHolidays : datedHolidays
    if (holidays.has(date.key)) fail(`holiday date ${dateText} appears more than once`)
    holidays.set(date.key, parseDayEntry(item.slice(slash + 1), `holiday ${dateText}`))
  }
  return { datedHolidays, yearlyHolidays }
}

function parseHolidayDate(text: string): { everyYear: boolean; key: string } {
  const yearless = YEARLESS_DATE.exec(text)
  if (yearless !== null) {
    const [, month, day] = yearless as unknown as [string, string, string]
    requireCalendarDate(ANY_LEAP_YEAR, month, day, text)
    return { everyYear: true, key: `${month}-${day}` }
  }
  const dated = COMPACT_DATE.exec(text) ?? DASHED_DATE.exec(text)
  if (dated === null) fail(`holiday date "${text}" is not MMDD, YYYYMMDD or YYYY-MM-DD`)
  const [, year, month, day] = dated as unknown as [string, string, string, string]
  requireCalendarDate(Number(year), month, day, text)
  return { everyYear: false, key: `${year}-${month}-${day}` }
}

function requireCalendarDate(year: number, month: string, day: string, text: string): void {
  if (!DateTime.utc(year, Number(month), Number(day)).isValid) fail(`holiday date "${text}" is not a calendar date`)
}
