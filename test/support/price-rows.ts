import { pairBySymbol } from '../../schemas/pairs.ts'
import type { PriceRow } from '../../schemas/price.ts'

/** A valid price row for `pair`, with overrides. */
export function priceRow(pair: string, overrides: Partial<PriceRow> = {}): PriceRow {
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
    schedule: { id: 0, alwaysOpen: listed.assetClass === 'crypto', timezone: 'UTC', openingHours: 'UTC;O,O,O,O,O,O,O' },
    ...overrides,
  }
}

export const rowBytes = (row: PriceRow) => Buffer.from(JSON.stringify(row))

/** The bytes of a row of about `extraBytes` more than usual (padded at its end, in the schedule), to fill buffers in few ticks. */
export const bulkyRowBytes = (pair: string, mid: number, extraBytes = 2000) =>
  rowBytes(priceRow(pair, { mid, schedule: { ...priceRow(pair).schedule, openingHours: 'UTC;O,O,O,O,O,O,O' + ' '.repeat(extraBytes) } }))
