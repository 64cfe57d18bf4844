// Which pair follows which schedule, the schedule object of a price row, and the MarketClock adapter.

import t from 'tap'
import { PAIRS } from '../../../schemas/pairs.ts'
import { calendarMarketClock } from '../calendar-market-clock.ts'
import { evaluateAt, MARKET_HOURS_SCHEDULES, PAIR_SCHEDULE_IDS } from '../market-hours.ts'
import { at, hours, pairId } from './fixtures/instants.ts'

t.test('every pair has a schedule; the ids per reference market', async (t) => {
  t.equal(PAIR_SCHEDULE_IDS.size, 83)
  const symbolsBySchedule = new Map<number, string[]>()
  for (const pair of PAIRS) {
    const scheduleId = PAIR_SCHEDULE_IDS.get(pair.id) ?? -1
    symbolsBySchedule.set(scheduleId, [...(symbolsBySchedule.get(scheduleId) ?? []), pair.symbol])
  }
  const usStocks = PAIRS.filter((pair) => pair.assetClass === 'stock' && pair.symbol !== 'SKHY-USD').map((pair) => pair.symbol)
  t.equal(usStocks.length, 49)
  t.strictSame(Object.fromEntries([...symbolsBySchedule].sort(([a], [b]) => a - b)), {
    0: ['BTC-USD', 'ETH-USD', 'SOL-USD', 'BNB-USD', 'XRP-USD', 'TRX-USD', 'HYPE-USD', 'LINK-USD', 'ADA-USD'],
    1: ['EUR-USD', 'GBP-USD', 'USD-JPY', 'USD-CAD', 'USD-CHF', 'AUD-USD', 'NZD-USD'],
    2: ['XAU-USD', 'XCU-USD', 'XAG-USD', 'XPD-USD', 'XPT-USD'],
    3: ['WTI-USD'],
    4: ['US500-USD', 'US30-USD', 'US100-USD'],
    5: usStocks,
    6: ['USD-MXN', 'USD-KRW'],
    7: ['BRENT-USD'],
    8: ['UK100-GBP'],
    9: ['GER40-EUR'],
    10: ['JP225-JPY'],
    11: ['HK50-HKD'],
    12: ['KR2550-USD', 'SKHY-USD'],
  })
})

t.test('the schedule list', async (t) => {
  t.strictSame(
    MARKET_HOURS_SCHEDULES.map(({ id, alwaysOpen, timezone, validThrough }) => [id, alwaysOpen, timezone, validThrough]),
    [
      [0, true, 'UTC', null],
      [1, false, 'America/New_York', '2027-12-31'],
      [2, false, 'America/New_York', '2027-12-31'],
      [3, false, 'America/New_York', '2027-12-31'],
      [4, false, 'America/New_York', '2027-12-31'],
      [5, false, 'America/New_York', '2027-12-31'],
      [6, false, 'America/New_York', '2027-12-31'],
      [7, false, 'Europe/London', '2027-12-31'],
      [8, false, 'Europe/London', '2027-12-31'],
      [9, false, 'Europe/Berlin', '2027-12-31'],
      [10, false, 'Asia/Tokyo', '2027-12-31'],
      [11, false, 'Asia/Hong_Kong', '2027-12-31'],
      [12, false, 'Asia/Seoul', '2027-12-31'],
    ],
  )
})

t.test('scheduleFor gives the schedule object of a price row', async (t) => {
  const clock = calendarMarketClock()
  t.strictSame(clock.scheduleFor(pairId('BTC-USD')), {
    id: 0,
    alwaysOpen: true,
    timezone: 'UTC',
    openingHours: ['O', 'O', 'O', 'O', 'O', 'O', 'O'],
    dayTradingHours: { from: 'open+00:01', to: 'close-00:15' },
  })
  const nvda = clock.scheduleFor(pairId('NVDA-USD'))
  t.match(nvda, { id: 5, alwaysOpen: false, timezone: 'America/New_York' })
  t.strictSame(
    nvda?.openingHours,
    ['0930-1600', '0930-1600', '0930-1600', '0930-1600', '0930-1600', 'C', 'C'],
    'the weekly part only, a day an entry',
  )
  t.equal(clock.scheduleFor(pairId('NVDA-USD')), nvda, 'the same object every time')
  t.equal(clock.scheduleFor(83), undefined)
  t.equal(clock.scheduleFor(-1), undefined)
})

t.test('flagsAt and nextChangeAt', async (t) => {
  const clock = calendarMarketClock()
  const nvda = pairId('NVDA-USD')
  t.strictSame(clock.flagsAt(nvda, at('2026-11-24T10:00-05:00')), {
    isMarketOpen: true,
    isDayTradingClosed: false,
    secondsToToggleIsDayTradingClosed: 20_700,
  })
  t.equal(clock.nextChangeAt(nvda, at('2026-11-24T10:00-05:00')), at('2026-11-24T15:45-05:00'))
  t.equal(clock.nextChangeAt(nvda, at('2026-11-24T15:50-05:00')), at('2026-11-24T16:00-05:00'))
  t.equal(clock.nextChangeAt(nvda, at('2026-11-24T16:00-05:00')), at('2026-11-25T09:30-05:00'))
  t.equal(clock.nextChangeAt(nvda, at('2026-11-25T09:30-05:00')), at('2026-11-25T09:31-05:00'))
  t.equal(clock.nextChangeAt(pairId('ETH-USD'), at('2026-11-24T10:00-05:00')), Number.POSITIVE_INFINITY)
  t.throws(() => clock.flagsAt(83, at('2026-11-24T10:00-05:00')), new RangeError('pair 83 has no market-hours schedule'))
})

t.test('evaluateAt: the route answer, in Unix seconds', async (t) => {
  t.strictSame(evaluateAt(pairId('XAU-USD'), at('2026-06-09T17:30-04:00')), {
    isMarketOpen: false,
    isDayTradingClosed: true,
    secondsToToggleIsDayTradingClosed: 1860,
    nextOpen: at('2026-06-09T18:00-04:00') / 1000,
    nextClose: at('2026-06-10T17:00-04:00') / 1000,
  })
  t.strictSame(
    evaluateAt(pairId('XAU-USD'), at('2026-06-09T17:30-04:00')),
    hours.evaluateAt(pairId('XAU-USD'), at('2026-06-09T17:30-04:00')),
  )
})
