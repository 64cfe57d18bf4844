// US stocks (NYSE calendar) and crypto. Answers are [isMarketOpen, isDayTradingClosed, seconds to flip].

import t from 'tap'
import { at, flags, hours, nextOpenClose, pairId, unix } from './fixtures/instants.ts'

t.test('half-open session: 09:30:00 is open, 16:00:00 is closed; day trading 09:31–15:45', async (t) => {
  // Tuesday 2026-11-24, New York standard time.
  t.strictSame(flags('NVDA-USD', '2026-11-24T09:29:59.999-05:00'), [false, true, 61])
  t.strictSame(flags('NVDA-USD', '2026-11-24T09:30:00-05:00'), [true, true, 60])
  t.strictSame(flags('NVDA-USD', '2026-11-24T09:30:59.500-05:00'), [true, true, 1])
  t.strictSame(flags('NVDA-USD', '2026-11-24T09:31:00-05:00'), [true, false, 22_440])
  t.strictSame(flags('NVDA-USD', '2026-11-24T15:44:59-05:00'), [true, false, 1])
  t.strictSame(flags('NVDA-USD', '2026-11-24T15:45:00-05:00'), [true, true, 63_960])
  t.strictSame(flags('NVDA-USD', '2026-11-24T15:59:59.999-05:00'), [true, true, 63_061])
  t.strictSame(flags('NVDA-USD', '2026-11-24T16:00:00-05:00'), [false, true, 63_060])
  t.strictSame(nextOpenClose('NVDA-USD', '2026-11-24T09:30-05:00'), [unix('2026-11-25T09:30-05:00'), unix('2026-11-24T16:00-05:00')])
  t.strictSame(nextOpenClose('NVDA-USD', '2026-11-24T16:00-05:00'), [unix('2026-11-25T09:30-05:00'), unix('2026-11-25T16:00-05:00')])
})

t.test('seconds are rounded up', async (t) => {
  t.strictSame(flags('AAPL-USD', '2026-11-24T15:44:59.001-05:00'), [true, false, 1])
  t.strictSame(flags('AAPL-USD', '2026-11-24T15:44:58.999-05:00'), [true, false, 2])
})

t.test('NYSE half days close at 13:00 with the day-trading cut-off at 12:45', async (t) => {
  t.strictSame(flags('NVDA-USD', '2026-11-27T12:00-05:00'), [true, false, 2700])
  t.strictSame(flags('NVDA-USD', '2026-11-27T12:44:59-05:00'), [true, false, 1])
  // Friday 12:45 → Monday 2026-11-30 09:31.
  t.strictSame(flags('NVDA-USD', '2026-11-27T12:45-05:00'), [true, true, 247_560])
  t.strictSame(flags('NVDA-USD', '2026-11-27T12:59:59-05:00'), [true, true, 246_661])
  t.strictSame(flags('NVDA-USD', '2026-11-27T13:00-05:00'), [false, true, 246_660])
  t.strictSame(nextOpenClose('NVDA-USD', '2026-11-27T10:00-05:00'), [unix('2026-11-30T09:30-05:00'), unix('2026-11-27T13:00-05:00')])
  // Thursday 2026-12-24; Christmas Friday is closed, so the next day trading is Monday 2026-12-28 09:31.
  t.strictSame(flags('TSLA-USD', '2026-12-24T12:00-05:00'), [true, false, 2700])
  t.strictSame(flags('TSLA-USD', '2026-12-24T12:45-05:00'), [true, true, 333_960])
  t.strictSame(flags('TSLA-USD', '2026-12-24T13:00-05:00'), [false, true, 333_060])
  t.strictSame(flags('TSLA-USD', '2026-12-25T12:00-05:00'), [false, true, 250_260])
})

t.test('Thanksgiving is closed', async (t) => {
  t.strictSame(flags('NVDA-USD', '2026-11-26T12:00-05:00'), [false, true, 77_460])
})

t.test('Good Friday 2026-04-03: stocks and metals closed, FX open', async (t) => {
  // Stocks: next day trading Monday 2026-04-06 09:31.
  t.strictSame(flags('NVDA-USD', '2026-04-03T12:00-04:00'), [false, true, 250_260])
  // Metals: no reopen on Thursday evening; next day trading Sunday 2026-04-05 18:01.
  t.strictSame(flags('XAU-USD', '2026-04-02T16:44:59-04:00'), [true, false, 1])
  t.strictSame(flags('XAU-USD', '2026-04-02T18:30-04:00'), [false, true, 257_460])
  t.strictSame(flags('XAU-USD', '2026-04-03T12:00-04:00'), [false, true, 194_460])
  t.strictSame(nextOpenClose('XAG-USD', '2026-04-03T12:00-04:00'), [unix('2026-04-05T18:00-04:00'), unix('2026-04-06T17:00-04:00')])
  // FX trades as on any Friday, until 16:45 for day trading and 17:00 for the market.
  t.strictSame(flags('EUR-USD', '2026-04-03T12:00-04:00'), [true, false, 17_100])
  t.strictSame(nextOpenClose('EUR-USD', '2026-04-03T12:00-04:00'), [unix('2026-04-05T17:00-04:00'), unix('2026-04-03T17:00-04:00')])
})

t.test('US daylight-saving weekends move the Monday open in UTC', async (t) => {
  // [weekend, Friday close, Monday open, seconds from the close to Monday 09:31]
  const weekends: [string, string, string, number][] = [
    ['2026-03-08 spring', '2026-03-06T16:00-05:00', '2026-03-09T09:30-04:00', 232_260],
    ['2026-11-01 autumn', '2026-10-30T16:00-04:00', '2026-11-02T09:30-05:00', 239_460],
    ['2027-03-14 spring', '2027-03-12T16:00-05:00', '2027-03-15T09:30-04:00', 232_260],
    ['2027-11-07 autumn', '2027-11-05T16:00-04:00', '2027-11-08T09:30-05:00', 239_460],
  ]
  for (const [weekend, fridayClose, mondayOpen, seconds] of weekends) {
    t.strictSame(flags('MSFT-USD', fridayClose), [false, true, seconds], weekend)
    t.strictSame(nextOpenClose('MSFT-USD', fridayClose)[0], unix(mondayOpen), weekend)
  }
  // An ordinary weekend, for contrast: 65 h 31 min.
  t.strictSame(flags('MSFT-USD', '2026-03-13T16:00-04:00'), [false, true, 235_860])
})

t.test('US indices follow US stock hours (the chosen cash hours)', async (t) => {
  t.strictSame(flags('US500-USD', '2026-11-24T09:31-05:00'), [true, false, 22_440])
  t.strictSame(flags('US100-USD', '2026-11-24T20:00-05:00'), [false, true, 48_660])
})

t.test('crypto is always open, never flips (-1) and has no horizon', async (t) => {
  for (const iso of ['2026-06-01T00:00Z', '2019-01-01T00:00Z', '2035-12-31T23:59:59Z']) {
    t.strictSame(hours.evaluateAt(pairId('BTC-USD'), at(iso)), {
      isMarketOpen: true,
      isDayTradingClosed: false,
      secondsToToggleIsDayTradingClosed: -1,
      nextOpen: null,
      nextClose: null,
    })
    t.equal(hours.nextChangeAt(pairId('HYPE-USD'), at(iso)), Number.POSITIVE_INFINITY)
  }
})
