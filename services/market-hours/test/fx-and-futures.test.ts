// Spot and emerging-market FX, CME Globex (metals, WTI) and ICE Brent.
// Answers are [isMarketOpen, isDayTradingClosed, seconds to flip].

import t from 'tap'
import { at, flags, hours, nextOpenClose, pairId, unix } from './fixtures/instants.ts'

t.test('Sunday opens: FX 17:00, emerging FX and CME 18:00 New York, Brent 23:00 London', async (t) => {
  // Sunday 2026-06-07, New York daylight time.
  t.strictSame(flags('EUR-USD', '2026-06-07T16:59:59-04:00'), [false, true, 61])
  t.strictSame(flags('EUR-USD', '2026-06-07T17:00-04:00'), [true, true, 60])
  t.strictSame(flags('EUR-USD', '2026-06-07T17:01-04:00'), [true, false, 431_040])
  t.strictSame(flags('USD-MXN', '2026-06-07T17:30-04:00'), [false, true, 1860])
  t.strictSame(flags('USD-MXN', '2026-06-07T18:00-04:00'), [true, true, 60])
  t.strictSame(flags('XAU-USD', '2026-06-07T17:59:59-04:00'), [false, true, 61])
  t.strictSame(flags('XAU-USD', '2026-06-07T18:00-04:00'), [true, true, 60])
  t.strictSame(flags('XAU-USD', '2026-06-07T18:01-04:00'), [true, false, 81_840])
  t.strictSame(flags('BRENT-USD', '2026-06-07T22:59:59+01:00'), [false, true, 61])
  t.strictSame(flags('BRENT-USD', '2026-06-07T23:00+01:00'), [true, true, 60])
})

t.test('Friday closes', async (t) => {
  t.strictSame(flags('GBP-USD', '2026-06-12T16:44:59-04:00'), [true, false, 1])
  t.strictSame(flags('GBP-USD', '2026-06-12T16:45-04:00'), [true, true, 173_760])
  t.strictSame(flags('GBP-USD', '2026-06-12T17:00-04:00'), [false, true, 172_860])
  t.strictSame(flags('XPT-USD', '2026-06-12T17:00-04:00'), [false, true, 176_460])
  t.strictSame(flags('BRENT-USD', '2026-06-12T23:00+01:00'), [false, true, 172_860])
})

t.test('CME daily break 17:00–18:00 New York, Monday to Thursday', async (t) => {
  for (const symbol of ['XAU-USD', 'WTI-USD']) {
    t.strictSame(flags(symbol, '2026-06-09T16:45-04:00'), [true, true, 4560], symbol)
    t.strictSame(flags(symbol, '2026-06-09T17:00-04:00'), [false, true, 3660], symbol)
    t.strictSame(flags(symbol, '2026-06-09T18:00-04:00'), [true, true, 60], symbol)
  }
})

t.test('Brent: 01:00–23:00 London, the Monday session opening on Sunday', async (t) => {
  t.strictSame(flags('BRENT-USD', '2026-06-08T22:44:59+01:00'), [true, false, 1])
  t.strictSame(flags('BRENT-USD', '2026-06-08T22:45+01:00'), [true, true, 8160])
  t.strictSame(flags('BRENT-USD', '2026-06-08T23:00+01:00'), [false, true, 7260])
  t.strictSame(flags('BRENT-USD', '2026-06-09T01:00+01:00'), [true, true, 60])
})

t.test('no false toggle at midnight for sessions running through it', async (t) => {
  t.equal(hours.nextChangeAt(pairId('EUR-USD'), at('2026-06-08T12:00-04:00')), at('2026-06-12T16:45-04:00'))
  t.strictSame(flags('EUR-USD', '2026-06-08T23:59:59-04:00'), [true, false, 319_501])
  t.strictSame(flags('EUR-USD', '2026-06-09T00:00-04:00'), [true, false, 319_500])
  t.equal(hours.nextChangeAt(pairId('XAU-USD'), at('2026-06-08T18:30-04:00')), at('2026-06-09T16:45-04:00'))
  t.strictSame(flags('XAU-USD', '2026-06-09T00:00-04:00'), [true, false, 60_300])
  t.equal(hours.nextChangeAt(pairId('BRENT-USD'), at('2026-06-07T23:30+01:00')), at('2026-06-08T22:45+01:00'))
})

t.test('US daylight-saving weekends: the FX and CME weekend is an hour shorter or longer', async (t) => {
  // [weekend, Friday 17:00 close, FX Sunday open, FX seconds to Sunday 17:01, CME seconds to Sunday 18:01]
  const weekends: [string, string, string, number, number][] = [
    ['2026-03-08 spring', '2026-03-06T17:00-05:00', '2026-03-08T17:00-04:00', 169_260, 172_860],
    ['2026-11-01 autumn', '2026-10-30T17:00-04:00', '2026-11-01T17:00-05:00', 176_460, 180_060],
    ['2027-03-14 spring', '2027-03-12T17:00-05:00', '2027-03-14T17:00-04:00', 169_260, 172_860],
    ['2027-11-07 autumn', '2027-11-05T17:00-04:00', '2027-11-07T17:00-05:00', 176_460, 180_060],
  ]
  for (const [weekend, fridayClose, sundayOpen, fxSeconds, cmeSeconds] of weekends) {
    t.strictSame(flags('EUR-USD', fridayClose), [false, true, fxSeconds], weekend)
    t.equal(nextOpenClose('EUR-USD', fridayClose)[0], unix(sundayOpen), weekend)
    t.strictSame(flags('XAG-USD', fridayClose), [false, true, cmeSeconds], weekend)
  }
  // An ordinary weekend, for contrast.
  t.strictSame(flags('EUR-USD', '2026-06-12T17:00-04:00'), [false, true, 172_860])
})

t.test('year boundary: FX closes 17:00 on Dec 31 and stays closed on Friday Jan 1, 2027', async (t) => {
  t.strictSame(flags('EUR-USD', '2026-12-31T16:44:59-05:00'), [true, false, 1])
  t.strictSame(flags('EUR-USD', '2026-12-31T16:45-05:00'), [true, true, 260_160])
  t.strictSame(flags('EUR-USD', '2026-12-31T17:00-05:00'), [false, true, 259_260])
  t.strictSame(flags('EUR-USD', '2027-01-01T00:00-05:00'), [false, true, 234_060])
  t.strictSame(flags('EUR-USD', '2027-01-01T16:59:59-05:00'), [false, true, 172_861])
  t.strictSame(flags('EUR-USD', '2027-01-01T17:00-05:00'), [false, true, 172_860])
  t.strictSame(nextOpenClose('EUR-USD', '2027-01-01T00:00-05:00'), [unix('2027-01-03T17:00-05:00'), unix('2027-01-08T17:00-05:00')])
  t.equal(nextOpenClose('USD-KRW', '2026-12-31T17:00-05:00')[0], unix('2027-01-03T18:00-05:00'))
})

t.test('FX on Thursday Jan 1, 2026 is closed until 17:00', async (t) => {
  t.strictSame(flags('USD-JPY', '2026-01-01T12:00-05:00'), [false, true, 18_060])
  t.strictSame(flags('USD-JPY', '2026-01-01T17:00-05:00'), [true, true, 60])
  t.strictSame(nextOpenClose('USD-JPY', '2026-01-01T12:00-05:00'), [unix('2026-01-01T17:00-05:00'), unix('2026-01-02T17:00-05:00')])
})

t.test('FX at Christmas 2026: closes Thursday 17:00, reopens Sunday 17:00', async (t) => {
  t.strictSame(flags('AUD-USD', '2026-12-24T17:00-05:00'), [false, true, 259_260])
  t.strictSame(flags('AUD-USD', '2026-12-25T12:00-05:00'), [false, true, 190_860])
})

t.test('CME on US holidays halts at 13:00 and reopens at 18:00', async (t) => {
  // Martin Luther King Jr. Day, Monday 2026-01-19.
  t.strictSame(flags('XAU-USD', '2026-01-19T12:44:59-05:00'), [true, false, 1])
  t.strictSame(flags('XAU-USD', '2026-01-19T12:45-05:00'), [true, true, 18_960])
  t.strictSame(flags('XAU-USD', '2026-01-19T13:00-05:00'), [false, true, 18_060])
  t.strictSame(flags('XAU-USD', '2026-01-19T18:00-05:00'), [true, true, 60])
  // New Year: Thursday evening reopens as usual, Friday Jan 1, 2027 halts at 13:00 until Sunday.
  t.strictSame(flags('XCU-USD', '2026-12-31T18:30-05:00'), [true, false, 65_700])
  t.strictSame(flags('XCU-USD', '2027-01-01T13:00-05:00'), [false, true, 190_860])
})
