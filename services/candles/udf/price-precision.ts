// How many decimals a pair's price is quoted with: its tick. TradingView's `pricescale` is 10 to this
// power. By asset class, with the pairs whose quotes need more or fewer digits named (an FX pair quoted
// in yen or won, a crypto asset priced below a dollar).

import type { AssetClass, Pair } from '../../../schemas/pairs.ts'

const BY_CLASS: Record<AssetClass, number> = { crypto: 2, fx: 5, metal: 2, energy: 2, index: 2, stock: 2 }

const BY_PAIR: Readonly<Record<string, number>> = {
  'USD-JPY': 3,
  'USD-KRW': 2,
  'USD-MXN': 4,
  'XAG-USD': 3,
  'XCU-USD': 4,
  'SOL-USD': 3,
  'HYPE-USD': 3,
  'LINK-USD': 3,
  'XRP-USD': 4,
  'ADA-USD': 4,
  'TRX-USD': 5,
}

export function priceDecimals(pair: Pair): number {
  return BY_PAIR[pair.symbol] ?? BY_CLASS[pair.assetClass]
}
