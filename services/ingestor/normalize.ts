import { pairBySymbol } from '../../schemas/pairs.ts'
import type { PriceRow } from '../../schemas/price.ts'
import type { UpstreamQuote } from './sources/feed-source.ts'
import { flagsOrUndefined, type MarketClock } from '../market-hours/market-clock.ts'

/** Upstream prices more than this far ahead of our clock are refused as corrupt. */
const MAX_FUTURE_SKEW_SECONDS = 60

export type Normalised = { ok: true; pairId: number; row: PriceRow } | { ok: false; reason: string }

/** Turns an upstream quote into a price row (spec 2.1), or names why it cannot be one. */
export function normaliseQuote(quote: UpstreamQuote, clock: MarketClock, nowMs: number): Normalised {
  const pair = pairBySymbol(quote.pair)
  if (!pair) return { ok: false, reason: 'unknown_pair' }
  const { bid, mid, ask } = quote
  if (!isPositive(bid) || !isPositive(mid) || !isPositive(ask)) return { ok: false, reason: 'non_positive_price' }
  if (!(bid <= mid && mid <= ask)) return { ok: false, reason: 'crossed_prices' }
  if (!Number.isFinite(quote.publishTimeSeconds) || quote.publishTimeSeconds <= 0) return { ok: false, reason: 'invalid_timestamp' }
  if (quote.publishTimeSeconds > nowMs / 1000 + MAX_FUTURE_SKEW_SECONDS) return { ok: false, reason: 'future_timestamp' }
  // rule 2.1.2: an asset without a trading schedule is left out entirely
  const schedule = clock.scheduleFor(pair.id)
  if (!schedule) return { ok: false, reason: 'no_schedule' }
  const flags = flagsOrUndefined(clock, pair.id, nowMs)
  if (!flags) return { ok: false, reason: 'beyond_calendar_horizon' }
  return {
    ok: true,
    pairId: pair.id,
    row: {
      feed_id: quote.feedId,
      pair: pair.symbol,
      from: pair.base,
      to: pair.quote,
      bid,
      mid,
      ask,
      isMarketOpen: flags.isMarketOpen,
      isDayTradingClosed: flags.isDayTradingClosed,
      secondsToToggleIsDayTradingClosed: flags.secondsToToggleIsDayTradingClosed,
      timestampSeconds: Math.floor(quote.publishTimeSeconds),
      schedule,
    },
  }
}

const isPositive = (price: number) => Number.isFinite(price) && price > 0
