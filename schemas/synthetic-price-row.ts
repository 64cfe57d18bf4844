// Made-up but valid price rows, for the load-test command and the tests: what they publish on the bus in
// place of a feed.
import { pairBySymbol } from './pairs.ts'
import { DAY_TRADING_HOURS, type PriceRow } from './price.ts'

/** A valid price row for a listed `pair` (mid 100, its feed id ending in the pair's id), with overrides. */
export function syntheticPriceRow(pair: string, overrides: Partial<PriceRow> = {}): PriceRow {
  const listed = pairBySymbol(pair)
  if (!listed) throw new Error(`unlisted pair ${pair}`)
  return {
    feed_id: '0x' + listed.id.toString(16).padStart(64, '0'),
    pair,
    from: listed.base,
    to: listed.quote,
    bid: 99.5,
    mid: 100,
    ask: 100.5,
    isMarketOpen: true,
    isDayTradingClosed: false,
    secondsToToggleIsDayTradingClosed: -1,
    timestampSeconds: Math.floor(Date.now() / 1000),
    schedule: {
      id: 0,
      alwaysOpen: listed.assetClass === 'crypto',
      timezone: 'UTC',
      openingHours: ['O', 'O', 'O', 'O', 'O', 'O', 'O'],
      dayTradingHours: DAY_TRADING_HOURS,
    },
    ...overrides,
  }
}

/** A row as the bus carries it: its JSON bytes. */
export const rowBytes = (row: PriceRow): Buffer => Buffer.from(JSON.stringify(row))
