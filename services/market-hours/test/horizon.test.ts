// Past (or before) the data, the engine throws rather than guesses.

import t from 'tap'
import { MarketHoursHorizonError } from '../market-hours.ts'
import { at, catchError, flags, hours, pairId } from './fixtures/instants.ts'

t.test('US stocks: answers stop at the last opening the data knows, 2027-12-31 09:30', async (t) => {
  t.strictSame(flags('NVDA-USD', '2027-12-31T09:29:59.999-05:00'), [false, true, 61])
  t.throws(() => flags('NVDA-USD', '2027-12-31T09:30-05:00'), MarketHoursHorizonError)
  const error = catchError(() => hours.flagsAt(pairId('NVDA-USD'), at('2028-01-03T10:00-05:00')))
  t.ok(error instanceof MarketHoursHorizonError)
  t.match(error, {
    name: 'MarketHoursHorizonError',
    scheduleName: 'US stocks and ETFs (NYSE / Nasdaq)',
    instantMs: at('2028-01-03T10:00-05:00'),
    answersFromMs: at('2026-01-01T00:00-05:00'),
    answersUntilMs: at('2027-12-31T09:30-05:00'),
  })
  t.equal(
    (error as Error).message,
    'US stocks and ETFs (NYSE / Nasdaq): no market-hours data for 2028-01-03T15:00:00.000Z; ' +
      'answers cover 2026-01-01T05:00:00.000Z up to 2027-12-31T14:30:00.000Z',
  )
})

t.test('before the data starts', async (t) => {
  t.throws(() => flags('NVDA-USD', '2025-12-31T12:00-05:00'), MarketHoursHorizonError)
  // CME's first session may have begun in 2025, so answers start when it ends.
  t.throws(() => flags('XAU-USD', '2026-01-01T12:59:59-05:00'), MarketHoursHorizonError)
  t.strictSame(flags('XAU-USD', '2026-01-01T13:00-05:00'), [false, true, 18_060])
})

t.test('FX: the last week of 2027 has no known next open, so answers stop at its Sunday open', async (t) => {
  t.strictSame(flags('EUR-USD', '2027-12-26T16:59:59-05:00'), [false, true, 61])
  t.throws(() => flags('EUR-USD', '2027-12-26T17:00-05:00'), MarketHoursHorizonError)
})

t.test('instants that are not finite are refused', async (t) => {
  t.throws(() => hours.flagsAt(pairId('NVDA-USD'), Number.NaN), MarketHoursHorizonError)
  t.throws(() => hours.evaluateAt(pairId('NVDA-USD'), Number.POSITIVE_INFINITY), MarketHoursHorizonError)
})

t.test('a refused instant leaves the cache intact', async (t) => {
  t.strictSame(flags('AMD-USD', '2027-06-01T10:00-04:00'), [true, false, 20_700])
  t.throws(() => flags('AMD-USD', '2028-06-01T10:00-04:00'), MarketHoursHorizonError)
  t.strictSame(flags('AMD-USD', '2027-06-01T10:00-04:00'), [true, false, 20_700])
})
