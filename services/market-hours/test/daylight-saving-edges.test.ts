// Non-existent (spring gap) and repeated (autumn overlap) local times: the rule is pinned here.

import t from 'tap'
import { DateTime, Settings } from 'luxon'
import { localDays } from '../local-time.ts'
import { parseSchedule } from '../schedule-format.ts'
import { buildTimeline } from '../session-timeline.ts'
import { findSegment } from '../timeline-lookup.ts'
import { at } from './fixtures/instants.ts'

function localInstant(timezone: string, isoDate: string, hhmm: string): number {
  const [day] = localDays(timezone, isoDate, isoDate)
  if (day === undefined) throw new Error('no day')
  return day.instantAt(Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2)))
}

t.test('spring gap: a local time that does not exist moves forward by the gap', async (t) => {
  t.equal(localInstant('America/New_York', '2026-03-08', '0130'), at('2026-03-08T01:30-05:00'))
  t.equal(localInstant('America/New_York', '2026-03-08', '0200'), at('2026-03-08T03:00-04:00'))
  t.equal(localInstant('America/New_York', '2026-03-08', '0230'), at('2026-03-08T03:30-04:00'))
  t.equal(localInstant('America/New_York', '2026-03-08', '0300'), at('2026-03-08T03:00-04:00'))
  t.equal(localInstant('Europe/London', '2026-03-29', '0130'), at('2026-03-29T02:30+01:00'))
  t.equal(localInstant('Europe/Berlin', '2027-03-28', '0230'), at('2027-03-28T03:30+02:00'))
})

t.test('autumn overlap: a repeated local time means its first occurrence (daylight time)', async (t) => {
  t.equal(localInstant('America/New_York', '2026-11-01', '0130'), at('2026-11-01T01:30-04:00'))
  t.equal(localInstant('America/New_York', '2026-11-01', '0200'), at('2026-11-01T02:00-05:00'))
  t.equal(localInstant('Europe/London', '2026-10-25', '0130'), at('2026-10-25T01:30+01:00'))
  t.equal(localInstant('Europe/Berlin', '2027-10-31', '0230'), at('2027-10-31T02:30+02:00'))
  t.equal(localInstant('America/New_York', '2027-11-07', '0100'), at('2027-11-07T01:00-04:00'))
})

t.test("the answer does not depend on the season the process runs in (luxon's fromObject does)", async (t) => {
  const original = Settings.now
  const repeated = { year: 2026, month: 11, day: 1, hour: 1, minute: 30 }
  const resolveIn = (nowIso: string) => {
    const nowMs = at(nowIso)
    Settings.now = () => nowMs
    try {
      return {
        luxon: DateTime.fromObject(repeated, { zone: 'America/New_York' }).toMillis(),
        ours: localInstant('America/New_York', '2026-11-01', '0130'),
      }
    } finally {
      Settings.now = original
    }
  }
  t.strictSame(resolveIn('2026-07-01T12:00Z'), { luxon: at('2026-11-01T01:30-04:00'), ours: at('2026-11-01T01:30-04:00') })
  t.strictSame(resolveIn('2027-01-15T12:00Z'), { luxon: at('2026-11-01T01:30-05:00'), ours: at('2026-11-01T01:30-04:00') })
})

t.test('local days carry their date, month-day and weekday (Monday = 0)', async (t) => {
  const days = localDays('Asia/Tokyo', '2026-12-31', '2027-01-01')
  t.strictSame(
    days.map(({ isoDate, monthDay, weekdayIndex }) => ({ isoDate, monthDay, weekdayIndex })),
    [
      { isoDate: '2026-12-31', monthDay: '12-31', weekdayIndex: 3 },
      { isoDate: '2027-01-01', monthDay: '01-01', weekdayIndex: 4 },
    ],
  )
  t.equal(days[1]?.instantAt(1440), at('2027-01-02T00:00+09:00'))
})

t.test('sessions written inside a gap or an overlap', async (t) => {
  // The last session only bounds the data: answers stop at the last opening the data knows.
  const schedule = parseSchedule('America/New_York;C,C,C,C,C,C,C;2026-03-08/0230-0400,2026-11-01/0130-0200,2026-11-02/0900-1000')

  const timeline = buildTimeline('edges', schedule, { from: '2026-03-01', through: '2026-11-30' })
  const openAt = (iso: string) => findSegment(timeline, at(iso)).isMarketOpen

  // 02:30 does not exist on 2026-03-08: the session runs 03:30–04:00 EDT.
  t.equal(openAt('2026-03-08T03:29:59-04:00'), false)
  t.equal(openAt('2026-03-08T03:30-04:00'), true)
  t.equal(openAt('2026-03-08T03:59:59-04:00'), true)
  t.equal(openAt('2026-03-08T04:00-04:00'), false)
  // 01:30 happens twice on 2026-11-01: the session runs from the first 01:30 (EDT) to 02:00 EST, 90 minutes.
  const overlap = findSegment(timeline, at('2026-11-01T01:30-04:00'))
  t.equal(overlap.isMarketOpen, true)
  t.equal(overlap.nextClose, at('2026-11-01T02:00-05:00'))
  t.equal(overlap.nextClose - overlap.start, 90 * 60_000)
  t.equal(openAt('2026-11-01T01:29:59-04:00'), false)
})

t.test('a range lying wholly in the spring gap gives no session', async (t) => {
  // 02:30 moves forward to 03:30 EDT, after the range's end at 03:00 EDT.
  const schedule = parseSchedule('America/New_York;C,C,C,C,C,C,C;2026-03-08/0230-0300,2026-03-09/0900-1000,2026-03-10/0900-1000')
  const timeline = buildTimeline('gap', schedule, { from: '2026-03-01', through: '2026-03-31' })
  const segment = findSegment(timeline, at('2026-03-08T03:15-04:00'))
  t.equal(segment.isMarketOpen, false)
  t.equal(segment.nextOpen, at('2026-03-09T09:00-04:00'))
  t.equal(segment.start, at('2026-03-01T00:00-05:00'))
})
