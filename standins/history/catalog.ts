// The feeds the History API stand-in knows: one per venue pair whose feed is a real Pyth feed (the
// feed-id table's `historySymbol`), described as Pyth Pro's `/v1/symbols` describes a feed.

import { FEED_IDS } from '../../services/ingestor/feed-ids.ts'
import { scheduleForPair } from '../../services/market-hours/market-hours.ts'
import { pairBySymbol, type AssetClass, type Pair } from '../../schemas/pairs.ts'

/** Pyth Pro's channels (apps/mcp/src/constants.ts, `CHANNELS`), slowest last. */
export const CHANNELS = ['real_time', 'fixed_rate@50ms', 'fixed_rate@200ms', 'fixed_rate@1000ms'] as const
export type Channel = (typeof CHANNELS)[number]

export interface HistoryFeed {
  /** Pyth Pro's numeric feed id; BTC/USD is 1 and ETH/USD 2 as on Pyth, the others are the stand-in's own */
  lazerId: number
  /** e.g. `Crypto.BTC/USD` */
  symbol: string
  /** e.g. `BTCUSD` */
  name: string
  description: string
  assetType: 'crypto' | 'fx' | 'equity' | 'metal' | 'commodity'
  /** prices are integers scaled by 10^exponent; bars are rounded to that many decimals */
  exponent: number
  /** the fastest channel the feed is served on: slower channels serve it too, faster ones answer 404 */
  minChannel: Channel
  /** the Hermes id, 64 hex digits without 0x (how Pyth Pro lists it) */
  hermesId: string
  quoteCurrency: string
  /** the schedule text (Pyth's format): the pair's market hours from services/market-hours */
  schedule: string
  pair: Pair
}

const ASSET_TYPES: Record<AssetClass, HistoryFeed['assetType']> = {
  crypto: 'crypto',
  fx: 'fx',
  metal: 'metal',
  energy: 'commodity',
  index: 'equity',
  stock: 'equity',
}

/** BTC/USD's -8 and an equity's -5 are Pyth's (symbology-reference.mdx); the rest follow them by class. */
const EXPONENTS: Record<HistoryFeed['assetType'], number> = { crypto: -8, fx: -5, equity: -5, metal: -5, commodity: -5 }

/** Pyth Pro's own ids for the two feeds its documents show (BTC/USD 1, ETH/USD 2); the stand-in numbers the rest from 1000. */
const KNOWN_LAZER_IDS: Readonly<Record<string, number>> = { 'Crypto.BTC/USD': 1, 'Crypto.ETH/USD': 2 }

export const HISTORY_FEEDS: readonly HistoryFeed[] = FEED_IDS.flatMap((entry, index) => {
  if (!entry.historySymbol) return []
  const pair = pairBySymbol(entry.pair)!
  const assetType = ASSET_TYPES[pair.assetClass]
  const ticker = entry.historySymbol.split('.').pop()!
  return [
    {
      lazerId: KNOWN_LAZER_IDS[entry.historySymbol] ?? 1000 + index,
      symbol: entry.historySymbol,
      name: ticker.replace('/', ''),
      description: `${pair.base} / ${pair.quote}`,
      assetType,
      exponent: EXPONENTS[assetType],
      // the synthetic-price repository's note: stocks, metals and oil answer 404 on real_time
      minChannel: assetType === 'crypto' ? 'real_time' : 'fixed_rate@200ms',
      hermesId: entry.feedId.slice(2),
      quoteCurrency: pair.quote,
      schedule: scheduleForPair(pair.id)!.openingHours,
      pair,
    },
  ]
})

const BY_SYMBOL = new Map(HISTORY_FEEDS.map((feed) => [feed.symbol.toUpperCase(), feed]))
const BY_ID = new Map(HISTORY_FEEDS.map((feed) => [feed.lazerId, feed]))

/** The feed a `symbol` parameter names; Pyth reads it case-insensitively. */
export function feedBySymbol(symbol: string): HistoryFeed | undefined {
  return BY_SYMBOL.get(symbol.toUpperCase())
}

export function feedById(id: number): HistoryFeed | undefined {
  return BY_ID.get(id)
}

/** Whether a feed is served on a channel: its own minimum channel or a slower one. */
export function servedOn(feed: HistoryFeed, channel: Channel): boolean {
  return CHANNELS.indexOf(channel) >= CHANNELS.indexOf(feed.minChannel)
}
