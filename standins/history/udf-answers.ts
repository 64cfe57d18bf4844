// The TradingView UDF answers of the stand-in besides history: `/{channel}/config`, `/{channel}/symbols`
// (resolve one symbol) and `/{channel}/search`, shaped by the UDF specification (symbol info, search
// items); the values Pyth fills in are not published, so they are the stand-in's reading of its feeds.

import { HISTORY_FEEDS, type HistoryFeed } from './catalog.ts'
import { RESOLUTIONS } from './bars.ts'

const SUPPORTED_RESOLUTIONS = ['1', '2', '5', '15', '30', '60', '120', '240', '360', '720', 'D', 'W', 'M']
const EXCHANGE = 'PYTH'

export function configAnswer(): object {
  return {
    supported_resolutions: SUPPORTED_RESOLUTIONS,
    supports_group_request: false,
    supports_marks: false,
    supports_search: true,
    supports_timescale_marks: false,
    supports_time: false,
    exchanges: [{ value: EXCHANGE, name: EXCHANGE, desc: 'Pyth Network' }],
    symbols_types: [...new Set(HISTORY_FEEDS.map((feed) => feed.assetType))].map((type) => ({ name: type, value: type })),
  }
}

/** A symbol as UDF's resolve call answers it. Pyth prices around the clock, so every session is `24x7` in UTC. */
export function symbolInfo(feed: HistoryFeed): object {
  return {
    name: feed.symbol,
    ticker: feed.symbol,
    full_name: `${EXCHANGE}:${feed.symbol}`,
    description: feed.description,
    type: feed.assetType,
    session: '24x7',
    exchange: EXCHANGE,
    listed_exchange: EXCHANGE,
    timezone: 'Etc/UTC',
    format: 'price',
    minmov: 1,
    pricescale: 10 ** -feed.exponent,
    has_intraday: true,
    has_daily: true,
    has_weekly_and_monthly: true,
    supported_resolutions: SUPPORTED_RESOLUTIONS,
    intraday_multipliers: RESOLUTIONS.filter((resolution) => /^\d+$/.test(resolution)),
    volume_precision: 0,
    data_status: 'streaming',
    currency_code: feed.quoteCurrency,
  }
}

/** UDF search: symbols containing the query (any case), of a type and exchange when given, at most `limit`. */
export function searchAnswer(query: string, type: string, exchange: string, limit: number): object[] {
  const wanted = query.toUpperCase()
  return HISTORY_FEEDS.filter(
    (feed) =>
      (feed.symbol.toUpperCase().includes(wanted) || feed.description.toUpperCase().includes(wanted)) &&
      (type === '' || feed.assetType === type) &&
      (exchange === '' || exchange === EXCHANGE),
  )
    .slice(0, limit)
    .map((feed) => ({
      symbol: feed.symbol,
      full_name: `${EXCHANGE}:${feed.symbol}`,
      description: feed.description,
      exchange: EXCHANGE,
      ticker: feed.symbol,
      type: feed.assetType,
    }))
}

/** A feed as Pyth Pro's `/v1/symbols` lists it (symbology-reference.mdx; fields the stand-in cannot know are null). */
export function symbolListEntry(feed: HistoryFeed): object {
  return {
    pyth_lazer_id: feed.lazerId,
    name: feed.name,
    symbol: feed.symbol,
    description: feed.description.toUpperCase(),
    asset_type: feed.assetType,
    instrument_type: 'spot',
    exponent: feed.exponent,
    cmc_id: null,
    interval: null,
    min_publishers: 3,
    min_channel: feed.minChannel,
    state: 'stable',
    schedule: feed.schedule,
    market_session_schedule: { regular: feed.schedule },
    hermes_id: feed.hermesId,
    quote_currency: feed.quoteCurrency,
    groups: [],
  }
}
