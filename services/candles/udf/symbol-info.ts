// A listed pair as UDF's symbol info and search item: its session and time zone from its market-hours
// schedule, its pricescale from its price decimals.

import type { AssetClass, Pair } from '../../../schemas/pairs.ts'
import { UDF_RESOLUTIONS, type UdfSearchItem, type UdfSymbolInfo } from '../../../schemas/udf.ts'
import { scheduleForPair } from '../../market-hours/market-hours.ts'
import { priceDecimals } from './price-precision.ts'
import { tradingSession } from './trading-session.ts'

/** The exchange name every pair is listed under. */
export const UDF_EXCHANGE = 'VENUE'

/** TradingView's symbol types (its `type` field) for our asset classes. */
export const UDF_TYPES: Readonly<Record<AssetClass, UdfSymbolInfo['type']>> = {
  crypto: 'crypto',
  fx: 'forex',
  metal: 'commodity',
  energy: 'commodity',
  index: 'index',
  stock: 'stock',
}

export function symbolInfo(pair: Pair): UdfSymbolInfo {
  const session = tradingSession(scheduleForPair(pair.id)!)
  return {
    name: pair.symbol,
    ticker: pair.symbol,
    full_name: `${UDF_EXCHANGE}:${pair.symbol}`,
    description: `${pair.base} / ${pair.quote}`,
    type: UDF_TYPES[pair.assetClass],
    exchange: UDF_EXCHANGE,
    listed_exchange: UDF_EXCHANGE,
    session: session.session,
    session_holidays: session.holidays,
    corrections: session.corrections,
    timezone: session.timezone,
    minmov: 1,
    pricescale: 10 ** priceDecimals(pair),
    format: 'price',
    has_intraday: true,
    has_daily: true,
    has_weekly_and_monthly: false,
    intraday_multipliers: ['1', '5', '15', '60', '240'],
    daily_multipliers: ['1'],
    supported_resolutions: [...UDF_RESOLUTIONS],
    visible_plots_set: 'ohlc',
    data_status: 'streaming',
    currency_code: pair.quote,
  }
}

export function searchItem(pair: Pair): UdfSearchItem {
  return {
    symbol: pair.symbol,
    full_name: `${UDF_EXCHANGE}:${pair.symbol}`,
    description: `${pair.base} / ${pair.quote}`,
    exchange: UDF_EXCHANGE,
    ticker: pair.symbol,
    type: UDF_TYPES[pair.assetClass],
  }
}
