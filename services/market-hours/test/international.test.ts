// London, Frankfurt, Tokyo, Hong Kong and Seoul. Answers are [isMarketOpen, isDayTradingClosed, seconds to flip].

import t from 'tap'
import { flags, nextOpenClose, unix } from './fixtures/instants.ts'

t.test('EU/UK daylight saving: London and Frankfurt opens in New York time', async (t) => {
  // [when, asked at (the evening before), expected open]. When only one side of the Atlantic has
  // switched, the European open moves from 03:00 to 04:00 New York time.
  const opens: [string, string, string][] = [
    ['2026 March, neither switched', '2026-03-02T20:00-05:00', '2026-03-03T03:00-05:00'],
    ['2026 March, US switched (03-08), Europe not', '2026-03-23T20:00-04:00', '2026-03-24T04:00-04:00'],
    ['2026 March, both switched (EU 03-29)', '2026-03-30T20:00-04:00', '2026-03-31T03:00-04:00'],
    ['2026 October, both on summer time', '2026-10-19T20:00-04:00', '2026-10-20T03:00-04:00'],
    ['2026 October, Europe back (10-25), US not', '2026-10-26T20:00-04:00', '2026-10-27T04:00-04:00'],
    ['2026 November, both back (US 11-01)', '2026-11-02T20:00-05:00', '2026-11-03T03:00-05:00'],
    ['2027 March, US switched (03-14), Europe not', '2027-03-15T20:00-04:00', '2027-03-16T04:00-04:00'],
    ['2027 March, both switched (EU 03-28)', '2027-03-29T20:00-04:00', '2027-03-30T03:00-04:00'],
    ['2027 November, Europe back (10-31), US not', '2027-11-01T20:00-04:00', '2027-11-02T04:00-04:00'],
    ['2027 November, both back (US 11-07)', '2027-11-08T20:00-05:00', '2027-11-09T03:00-05:00'],
  ]
  for (const [when, askedAt, open] of opens) {
    t.equal(nextOpenClose('UK100-GBP', askedAt)[0], unix(open), `UK100 ${when}`)
    t.equal(nextOpenClose('GER40-EUR', askedAt)[0], unix(open), `GER40 ${when}`)
  }
  t.strictSame(flags('UK100-GBP', '2026-03-24T03:59:59-04:00'), [false, true, 61])
  t.strictSame(flags('UK100-GBP', '2026-03-24T04:00-04:00'), [true, true, 60])
  t.strictSame(nextOpenClose('GER40-EUR', '2026-03-24T10:00-04:00')[1], unix('2026-03-24T12:30-04:00'))
})

t.test('EU/UK daylight-saving weekends are an hour shorter or longer', async (t) => {
  // Spring: Friday 16:30 GMT to Monday 08:01 BST.
  t.strictSame(flags('UK100-GBP', '2026-03-27T16:30+00:00'), [false, true, 225_060])
  // Autumn: Friday 16:30 BST to Monday 08:01 GMT.
  t.strictSame(flags('UK100-GBP', '2026-10-23T16:30+01:00'), [false, true, 232_260])
  // Spring 2027 falls on Easter: Thursday 17:30 CET to Tuesday 09:01 CEST.
  t.strictSame(flags('GER40-EUR', '2027-03-25T17:30+01:00'), [false, true, 397_860])
  t.strictSame(flags('GER40-EUR', '2027-10-29T17:30+02:00'), [false, true, 232_260])
})

t.test('Tokyo lunch break 11:30–12:30', async (t) => {
  // Tuesday 2026-11-24 (Monday was a holiday).
  t.strictSame(flags('JP225-JPY', '2026-11-24T11:14:59+09:00'), [true, false, 1])
  t.strictSame(flags('JP225-JPY', '2026-11-24T11:15+09:00'), [true, true, 4560])
  t.strictSame(flags('JP225-JPY', '2026-11-24T11:29:59+09:00'), [true, true, 3661])
  t.strictSame(flags('JP225-JPY', '2026-11-24T11:30+09:00'), [false, true, 3660])
  t.strictSame(flags('JP225-JPY', '2026-11-24T12:30+09:00'), [true, true, 60])
  t.strictSame(flags('JP225-JPY', '2026-11-24T12:31+09:00'), [true, false, 9840])
  t.strictSame(flags('JP225-JPY', '2026-11-24T15:30+09:00'), [false, true, 63_060])
  t.strictSame(flags('JP225-JPY', '2026-11-23T10:00+09:00'), [false, true, 82_860])
  // Closed Dec 31 and Jan 1; the weekend follows.
  t.strictSame(flags('JP225-JPY', '2026-12-30T15:30+09:00'), [false, true, 408_660])
})

t.test('Hong Kong lunch break 12:00–13:00 and half days', async (t) => {
  t.strictSame(flags('HK50-HKD', '2026-06-02T11:45+08:00'), [true, true, 4560])
  t.strictSame(flags('HK50-HKD', '2026-06-02T12:00+08:00'), [false, true, 3660])
  t.strictSame(flags('HK50-HKD', '2026-06-02T13:00+08:00'), [true, true, 60])
  t.strictSame(flags('HK50-HKD', '2026-06-02T13:01+08:00'), [true, false, 9840])
  // Thursday 2026-12-24 closes at 12:00; Christmas is closed; next day trading Monday 09:31.
  t.strictSame(flags('HK50-HKD', '2026-12-24T11:44:59+08:00'), [true, false, 1])
  t.strictSame(flags('HK50-HKD', '2026-12-24T11:45+08:00'), [true, true, 337_560])
  t.strictSame(flags('HK50-HKD', '2026-12-24T12:00+08:00'), [false, true, 336_660])
})

t.test('London and Frankfurt early closes', async (t) => {
  // LSE 2026-12-24 closes 12:30; closed Dec 25 and Dec 28; next day trading Tuesday 08:01.
  t.strictSame(flags('UK100-GBP', '2026-12-24T12:14:59+00:00'), [true, false, 1])
  t.strictSame(flags('UK100-GBP', '2026-12-24T12:15+00:00'), [true, true, 416_760])
  t.strictSame(flags('UK100-GBP', '2026-12-24T12:30+00:00'), [false, true, 415_860])
  // Xetra 2026-12-30 closes 14:00; closed Dec 31 and Jan 1; next day trading Monday 2027-01-04 09:01.
  t.strictSame(flags('GER40-EUR', '2026-12-30T13:45+01:00'), [true, true, 414_960])
  t.strictSame(flags('GER40-EUR', '2026-12-30T14:00+01:00'), [false, true, 414_060])
  t.strictSame(nextOpenClose('GER40-EUR', '2026-12-30T14:00+01:00'), [unix('2027-01-04T09:00+01:00'), unix('2027-01-04T17:30+01:00')])
})

t.test('Korea Exchange opens at 10:00 on the first trading day of the year', async (t) => {
  t.strictSame(flags('KR2550-USD', '2026-01-02T09:30+09:00'), [false, true, 1860])
  t.strictSame(flags('KR2550-USD', '2026-01-02T10:00+09:00'), [true, true, 60])
  t.strictSame(flags('KR2550-USD', '2026-01-02T10:01+09:00'), [true, false, 18_840])
  t.strictSame(flags('KR2550-USD', '2026-01-05T09:00+09:00'), [true, true, 60])
  t.strictSame(flags('SKHY-USD', '2027-01-04T09:30+09:00'), [false, true, 1860])
})
