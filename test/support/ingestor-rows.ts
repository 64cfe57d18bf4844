import fc from 'fast-check'
import { PAIRS } from '../../schemas/pairs.ts'
import type { PriceRow } from '../../schemas/price.ts'
import { calendarMarketClock } from '../../services/market-hours/calendar-market-clock.ts'
import { normaliseQuote } from '../../services/ingestor/normalize.ts'

const clock = calendarMarketClock()

/**
 * Price rows as the ingestor makes them from a quote (normalised at the quote's own instant), for any pair, any
 * mid from 1e-9 to 1e22 with a spread around it, and any instant of 2020 to 2033; quotes it refuses are left out.
 */
export const ingestorRows = (): fc.Arbitrary<PriceRow> =>
  fc
    .tuple(
      fc.constantFrom(...PAIRS),
      fc.double({ min: 1e-9, max: 1e22, noNaN: true }),
      fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
    )
    .map(([pair, mid, seconds]) => {
      const quote = {
        pair: pair.symbol,
        feedId: `0x${'ab'.repeat(32)}`,
        bid: mid * 0.999,
        mid,
        ask: mid * 1.001,
        publishTimeSeconds: seconds,
      }
      const normalised = normaliseQuote(quote, clock, seconds * 1000)
      return normalised.ok ? normalised.row : undefined
    })
    .filter((row): row is PriceRow => row !== undefined)
