import t from 'tap'
import { parseSchedule, ScheduleFormatError } from '../schedule-format.ts'
import { MARKET_HOURS_SCHEDULES } from '../market-hours.ts'
import { catchError } from './fixtures/instants.ts'

const FX_EXAMPLE = 'America/New_York;O,O,O,O,0000-1700,C,1700-2400;1224/0000-1700,1225/1700-2400,1231/0000-1700,0101/1700-2400'
const CRYPTO_EXAMPLE = 'America/New_York;O,O,O,O,O,O,O;'
const METALS_WEEK = '0000-1700&1800-2400,0000-1700&1800-2400,0000-1700&1800-2400,0000-1700&1800-2400,0000-1700,C,1800-2400'

const ALL_DAY = [{ start: 0, end: 1440 }]

t.test("Pyth's FX example", async (t) => {
  const schedule = parseSchedule(FX_EXAMPLE)
  t.equal(schedule.timezone, 'America/New_York')
  t.strictSame(schedule.weekly, [ALL_DAY, ALL_DAY, ALL_DAY, ALL_DAY, [{ start: 0, end: 1020 }], [], [{ start: 1020, end: 1440 }]])
  t.strictSame(
    [...schedule.yearlyHolidays],
    [
      ['12-24', [{ start: 0, end: 1020 }]],
      ['12-25', [{ start: 1020, end: 1440 }]],
      ['12-31', [{ start: 0, end: 1020 }]],
      ['01-01', [{ start: 1020, end: 1440 }]],
    ],
  )
  t.equal(schedule.datedHolidays.size, 0)
  t.equal(schedule.alwaysOpen, false)
})

t.test("Pyth's crypto example is always open", async (t) => {
  const schedule = parseSchedule(CRYPTO_EXAMPLE)
  t.strictSame(schedule.weekly, [ALL_DAY, ALL_DAY, ALL_DAY, ALL_DAY, ALL_DAY, ALL_DAY, ALL_DAY])
  t.equal(schedule.alwaysOpen, true)
})

t.test("Pyth's metals example: the weekly part parses, the elided holiday list does not", async (t) => {
  const schedule = parseSchedule(`America/New_York;${METALS_WEEK};`)
  const weekday = [
    { start: 0, end: 1020 },
    { start: 1080, end: 1440 },
  ]
  t.strictSame(schedule.weekly, [weekday, weekday, weekday, weekday, [{ start: 0, end: 1020 }], [], [{ start: 1080, end: 1440 }]])
  t.throws(() => parseSchedule(`America/New_York;${METALS_WEEK};...`), {
    name: 'ScheduleFormatError',
    problem: 'holiday "..." is not DATE/DayEntry',
  })
})

t.test('dated holidays in both spellings; a dated entry is separate from a year-less one', async (t) => {
  const schedule = parseSchedule('UTC;O,O,O,O,O,C,C;20261224/0000-1300,2027-12-24/C,1224/0000-1700,0229/C')
  t.strictSame(
    [...schedule.datedHolidays],
    [
      ['2026-12-24', [{ start: 0, end: 780 }]],
      ['2027-12-24', []],
    ],
  )
  t.strictSame([...schedule.yearlyHolidays.keys()], ['12-24', '02-29'])
  t.equal(schedule.alwaysOpen, false)
})

t.test('an all-O week with a holiday is not always open; 0000-2400 counts as open all day', async (t) => {
  t.equal(parseSchedule('UTC;O,O,O,O,O,O,O;2026-12-25/C').alwaysOpen, false)
  t.equal(parseSchedule('UTC;O,O,O,O,O,O,0000-2400;').alwaysOpen, true)
})

t.test('touching ranges are accepted', async (t) => {
  t.strictSame(parseSchedule('UTC;0900-1200&1200-1500,C,C,C,C,C,C;').weekly[0], [
    { start: 540, end: 720 },
    { start: 720, end: 900 },
  ])
})

t.test('malformed strings give a ScheduleFormatError naming the problem', async (t) => {
  const week = 'O,O,O,O,O,C,C'
  const cases: [string, string][] = [
    [`America/New_York;${week}`, 'expected 3 fields "Timezone;WeeklySchedule;Holidays", found 2'],
    [`UTC;${week};;`, 'expected 3 fields "Timezone;WeeklySchedule;Holidays", found 4'],
    [`Mars/Olympus;${week};`, 'unknown time zone "Mars/Olympus"'],
    ['UTC;O,O,O,O,O,O;', 'the weekly schedule needs 7 day entries (Monday first), found 6'],
    ['UTC;O,O,O,O,O,O,X;', 'Sunday: "X" is not O, C or HHMM-HHMM'],
    ['UTC;O,,O,O,O,O,O;', 'Tuesday: "" is not O, C or HHMM-HHMM'],
    ['UTC;0900-12:00,C,C,C,C,C,C;', 'Monday: "0900-12:00" is not O, C or HHMM-HHMM'],
    ['UTC;2400-2400,C,C,C,C,C,C;', 'Monday: "2400-2400" starts at an impossible time'],
    ['UTC;0960-1000,C,C,C,C,C,C;', 'Monday: "0960-1000" starts at an impossible time'],
    ['UTC;0900-2430,C,C,C,C,C,C;', 'Monday: "0900-2430" ends at an impossible time (2400 is the latest)'],
    ['UTC;0900-1060,C,C,C,C,C,C;', 'Monday: "0900-1060" ends at an impossible time (2400 is the latest)'],
    ['UTC;1700-0900,C,C,C,C,C,C;', 'Monday: "1700-0900" does not end after it starts'],
    ['UTC;0900-0900,C,C,C,C,C,C;', 'Monday: "0900-0900" does not end after it starts'],
    ['UTC;0900-1200&1100-1500,C,C,C,C,C,C;', 'Monday: ranges in "0900-1200&1100-1500" overlap or are out of order'],
    ['UTC;1300-1500&0900-1000,C,C,C,C,C,C;', 'Monday: ranges in "1300-1500&0900-1000" overlap or are out of order'],
    [`UTC;${week};1224`, 'holiday "1224" is not DATE/DayEntry'],
    [`UTC;${week};1224/C,`, 'holiday "" is not DATE/DayEntry'],
    [`UTC;${week};26-12-24/C`, 'holiday date "26-12-24" is not MMDD, YYYYMMDD or YYYY-MM-DD'],
    [`UTC;${week};1332/C`, 'holiday date "1332" is not a calendar date'],
    [`UTC;${week};2026-02-29/C`, 'holiday date "2026-02-29" is not a calendar date'],
    [`UTC;${week};1224/0900`, 'holiday 1224: "0900" is not O, C or HHMM-HHMM'],
    [`UTC;${week};20261224/C,2026-12-24/C`, 'holiday date 2026-12-24 appears more than once'],
  ]
  for (const [text, problem] of cases) {
    const error = catchError(() => parseSchedule(text))
    t.ok(error instanceof ScheduleFormatError, text)
    t.equal((error as ScheduleFormatError).problem, problem, text)
    t.equal((error as ScheduleFormatError).message, `invalid schedule "${text}": ${problem}`)
  }
})

t.test('every dated holiday of the data lies inside its validFrom..validThrough', async (t) => {
  for (const schedule of MARKET_HOURS_SCHEDULES) {
    const { datedHolidays, yearlyHolidays } = parseSchedule(schedule.openingHours)
    const outside = [...datedHolidays.keys()].filter(
      (date) => schedule.validFrom === null || schedule.validThrough === null || date < schedule.validFrom || date > schedule.validThrough,
    )
    t.strictSame(outside, [], schedule.name)
    t.equal(yearlyHolidays.size, 0, `${schedule.name} uses dated holidays only`)
  }
})
