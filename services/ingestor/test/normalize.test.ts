import t from 'tap'
import { PriceRow } from '../../../schemas/price.ts'
import { placeholderMarketClock, type MarketClock } from '../market-clock.ts'
import { normaliseQuote } from '../normalize.ts'
import type { UpstreamQuote } from '../sources/feed-source.ts'

const clock = placeholderMarketClock()
const now = 1_795_000_000_000
const quote: UpstreamQuote = { pair: 'ETH-USD', feedId: '0xabc', bid: 3399, mid: 3400, ask: 3401, publishTimeSeconds: 1_794_999_999.7 }

t.test('a good quote becomes a spec price row', async (t) => {
  const result = normaliseQuote(quote, clock, now)
  t.ok(result.ok)
  if (!result.ok) return
  t.equal(result.pairId, 1)
  t.same(result.row, {
    feed_id: '0xabc', pair: 'ETH-USD', from: 'ETH', to: 'USD', bid: 3399, mid: 3400, ask: 3401,
    isMarketOpen: true, isDayTradingClosed: false, secondsToToggleIsDayTradingClosed: -1,
    timestampSeconds: 1_794_999_999, schedule: { id: 0, alwaysOpen: true },
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

t.test('an asset without a trading schedule is left out', async (t) => {
  const noSchedules: MarketClock = { ...clock, scheduleFor: () => undefined }
  t.same(normaliseQuote(quote, noSchedules, now), { ok: false, reason: 'no_schedule' })
})
