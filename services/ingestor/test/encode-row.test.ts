import t from 'tap'
import { PAIRS } from '../../../schemas/pairs.ts'
import { calendarMarketClock } from '../../market-hours/calendar-market-clock.ts'
import { encodeRow } from '../encode-row.ts'
import { normaliseQuote } from '../normalize.ts'

t.test('writes exactly what JSON.stringify writes, for every pair and awkward numbers', async (t) => {
  const clock = calendarMarketClock()
  const now = Date.UTC(2026, 10, 24, 15, 0, 0)
  const prices = [
    [94_999.123456789, 95_000.5, 95_001.000001],
    [1e-7, 2e-7, 3e-7],
    [1e21, 1.5e21, 2e21],
    [0.1 + 0.2, 0.5, 0.7],
  ]
  for (const pair of PAIRS) {
    for (const [bid, mid, ask] of prices) {
      const quote = {
        pair: pair.symbol,
        feedId: `0x${'ab'.repeat(32)}`,
        bid: bid!,
        mid: mid!,
        ask: ask!,
        publishTimeSeconds: now / 1000 - 3,
      }
      const normalised = normaliseQuote(quote, clock, now)
      if (!normalised.ok) {
        t.fail(`${pair.symbol}: ${normalised.reason}`)
        continue
      }
      const encoded = encodeRow(normalised.row).toString()
      if (encoded !== JSON.stringify(normalised.row)) t.fail(`${pair.symbol} ${bid}: ${encoded}`)
    }
  }
  t.pass('every row identical')
})

t.test('a feed id with characters JSON must escape is escaped', async (t) => {
  const clock = calendarMarketClock()
  const now = Date.UTC(2026, 10, 24, 15, 0, 0)
  const normalised = normaliseQuote(
    { pair: 'BTC-USD', feedId: 'a"b\\c', bid: 1, mid: 2, ask: 3, publishTimeSeconds: now / 1000 },
    clock,
    now,
  )
  t.ok(normalised.ok)
  if (normalised.ok) t.equal(encodeRow(normalised.row).toString(), JSON.stringify(normalised.row))
})
