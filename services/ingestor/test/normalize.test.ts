import t from 'tap'
import { PriceRow } from '../../../schemas/price.ts'
import { alwaysOpenMarketClock, type MarketClock } from '../../market-hours/market-clock.ts'
import { normaliseQuote } from '../normalize.ts'
import { calendarMarketClock } from '../../market-hours/calendar-market-clock.ts'
import type { UpstreamQuote } from '../sources/feed-source.ts'

const clock = alwaysOpenMarketClock()
const now = 1_795_000_000_000
const quote: UpstreamQuote = { pair: 'ETH-USD', feedId: '0xabc', bid: 3399, mid: 3400, ask: 3401, publishTimeSeconds: 1_794_999_999.7 }

t.test('a good quote becomes a spec price row', async (t) => {
  const result = normaliseQuote(quote, clock, now)
  t.ok(result.ok)
  if (!result.ok) return
  t.equal(result.pairId, 1)
  t.same(result.row, {
    feed_id: '0xabc',
    pair: 'ETH-USD',
    from: 'ETH',
    to: 'USD',
    bid: 3399,
    mid: 3400,
    ask: 3401,
    isMarketOpen: true,
    isDayTradingClosed: false,
    secondsToToggleIsDayTradingClosed: -1,
    timestampSeconds: 1_794_999_999,
    schedule: {
      id: 0,
      alwaysOpen: true,
      timezone: 'UTC',
      openingHours: ['O', 'O', 'O', 'O', 'O', 'O', 'O'],
      dayTradingHours: { from: 'open+00:01', to: 'close-00:15' },
    },
  })
  t.ok(PriceRow.safeParse(result.row).success)
})

t.test('bad quotes are refused with a stable reason', async (t) => {
  const cases: Array<[string, Partial<UpstreamQuote>]> = [
    ['unknown_pair', { pair: 'DOGE-USD' }],
    ['non_positive_price', { bid: 0 }],
    ['non_positive_price', { mid: Number.NaN }],
    ['non_positive_price', { ask: Number.POSITIVE_INFINITY }],
    ['crossed_prices', { bid: 3402 }],
    ['crossed_prices', { ask: 3399.5 }],
    ['invalid_timestamp', { publishTimeSeconds: 0 }],
    ['future_timestamp', { publishTimeSeconds: now / 1000 + 61 }],
  ]
  for (const [reason, change] of cases) t.same(normaliseQuote({ ...quote, ...change }, clock, now), { ok: false, reason }, reason)
})

t.test('past the calendar horizon a quote is refused rather than flagged by guess', async (t) => {
  const horizon: MarketClock = {
    ...clock,
    flagsAt: () => {
      throw new RangeError('past the horizon')
    },
  }
  t.same(normaliseQuote(quote, horizon, now), { ok: false, reason: 'beyond_calendar_horizon' })
})

t.test('with the calendar, rows carry the market-hours flags and schedule of their pair', async (t) => {
  const calendar = calendarMarketClock()
  // Saturday 2026-11-21 15:00 UTC: US stocks closed until Monday 09:30 ET, day trading from 09:31 ET
  const saturday = Date.UTC(2026, 10, 21, 15, 0, 0)
  const aapl = normaliseQuote(
    { ...quote, pair: 'AAPL-USD', bid: 269, mid: 270, ask: 271, publishTimeSeconds: saturday / 1000 },
    calendar,
    saturday,
  )
  t.ok(aapl.ok)
  if (!aapl.ok) return
  const mondayDayTradeOpen = Date.UTC(2026, 10, 23, 14, 31, 0)
  t.same(
    [aapl.row.isMarketOpen, aapl.row.isDayTradingClosed, aapl.row.secondsToToggleIsDayTradingClosed],
    [false, true, (mondayDayTradeOpen - saturday) / 1000],
  )
  t.same(aapl.row.schedule, {
    id: 5,
    alwaysOpen: false,
    timezone: 'America/New_York',
    openingHours: ['0930-1600', '0930-1600', '0930-1600', '0930-1600', '0930-1600', 'C', 'C'],
    dayTradingHours: { from: 'open+00:01', to: 'close-00:15' },
  })
  const btc = normaliseQuote({ ...quote, pair: 'BTC-USD', publishTimeSeconds: saturday / 1000 }, calendar, saturday)
  t.same(
    btc.ok && [btc.row.isMarketOpen, btc.row.isDayTradingClosed, btc.row.secondsToToggleIsDayTradingClosed, btc.row.schedule.alwaysOpen],
    [true, false, -1, true],
  )
})

t.test('an asset without a trading schedule is left out', async (t) => {
  const noSchedules: MarketClock = { ...clock, scheduleFor: () => undefined }
  t.same(normaliseQuote(quote, noSchedules, now), { ok: false, reason: 'no_schedule' })
})
