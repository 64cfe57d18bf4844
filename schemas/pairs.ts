// The venue's pair list (spec 2.6). The id is the on-chain pairIndex; read it from here, never from a
// row's position. Symbols are the ones the price and depth endpoints use (not the indexed source's
// legacy spellings).

export type AssetClass = 'crypto' | 'fx' | 'metal' | 'energy' | 'index' | 'stock'

export interface Pair {
  id: number
  symbol: string
  base: string
  quote: string
  assetClass: AssetClass
  /** false for a pair listed on chain without an open-interest ceiling (pair 53 today) */
  tradeable: boolean
}

const LISTING: ReadonlyArray<readonly [string, AssetClass]> = [
  ['BTC-USD', 'crypto'],
  ['ETH-USD', 'crypto'],
  ['EUR-USD', 'fx'],
  ['GBP-USD', 'fx'],
  ['USD-JPY', 'fx'],
  ['XAU-USD', 'metal'],
  ['XCU-USD', 'metal'],
  ['WTI-USD', 'energy'],
  ['XAG-USD', 'metal'],
  ['SOL-USD', 'crypto'],
  ['US500-USD', 'index'],
  ['US30-USD', 'index'],
  ['US100-USD', 'index'],
  ['JP225-JPY', 'index'],
  ['UK100-GBP', 'index'],
  ['GER40-EUR', 'index'],
  ['USD-CAD', 'fx'],
  ['USD-MXN', 'fx'],
  ['NVDA-USD', 'stock'],
  ['GOOG-USD', 'stock'],
  ['AMZN-USD', 'stock'],
  ['META-USD', 'stock'],
  ['TSLA-USD', 'stock'],
  ['AAPL-USD', 'stock'],
  ['MSFT-USD', 'stock'],
  ['USD-CHF', 'fx'],
  ['AUD-USD', 'fx'],
  ['NZD-USD', 'fx'],
  ['XPD-USD', 'metal'],
  ['XPT-USD', 'metal'],
  ['HK50-HKD', 'index'],
  ['COIN-USD', 'stock'],
  ['HOOD-USD', 'stock'],
  ['MSTR-USD', 'stock'],
  ['CRCL-USD', 'stock'],
  ['BMNR-USD', 'stock'],
  ['SBET-USD', 'stock'],
  ['GLXY-USD', 'stock'],
  ['BNB-USD', 'crypto'],
  ['XRP-USD', 'crypto'],
  ['TRX-USD', 'crypto'],
  ['HYPE-USD', 'crypto'],
  ['LINK-USD', 'crypto'],
  ['ADA-USD', 'crypto'],
  ['PLTR-USD', 'stock'],
  ['AMD-USD', 'stock'],
  ['NFLX-USD', 'stock'],
  ['ORCL-USD', 'stock'],
  ['RIVN-USD', 'stock'],
  ['COST-USD', 'stock'],
  ['XOM-USD', 'stock'],
  ['CVX-USD', 'stock'],
  ['URA-USD', 'stock'],
  ['USD-KRW', 'fx'],
  ['KR2550-USD', 'index'],
  ['BRENT-USD', 'energy'],
  ['GEV-USD', 'stock'],
  ['SHEL-USD', 'stock'],
  ['UNG-USD', 'stock'],
  ['XLE-USD', 'stock'],
  ['ARM-USD', 'stock'],
  ['ASML-USD', 'stock'],
  ['AVGO-USD', 'stock'],
  ['CAT-USD', 'stock'],
  ['INTC-USD', 'stock'],
  ['SMCI-USD', 'stock'],
  ['TSM-USD', 'stock'],
  ['MU-USD', 'stock'],
  ['SNDK-USD', 'stock'],
  ['HYG-USD', 'stock'],
  ['TLT-USD', 'stock'],
  ['MP-USD', 'stock'],
  ['DRAM-USD', 'stock'],
  ['REMX-USD', 'stock'],
  ['BB-USD', 'stock'],
  ['CRWV-USD', 'stock'],
  ['DELL-USD', 'stock'],
  ['MRNA-USD', 'stock'],
  ['MRVL-USD', 'stock'],
  ['NBIS-USD', 'stock'],
  ['LLY-USD', 'stock'],
  ['SKHY-USD', 'stock'],
  ['SPCX-USD', 'stock'],
]

/** Listed on chain but without an open-interest ceiling yet. */
const NOT_TRADEABLE = new Set([53])

export const PAIRS: readonly Pair[] = LISTING.map(([symbol, assetClass], id) => {
  const [base, quote] = symbol.split('-') as [string, string]
  return { id, symbol, base, quote, assetClass, tradeable: !NOT_TRADEABLE.has(id) }
})

const BY_SYMBOL = new Map(PAIRS.map((pair) => [pair.symbol, pair]))

export function pairBySymbol(symbol: string): Pair | undefined {
  return BY_SYMBOL.get(symbol)
}

export function pairById(id: number): Pair | undefined {
  return PAIRS[id]
}

/**
 * The indexed source's own spelling of a pair's assets where it differs from the symbol's (renamed
 * assets keep their old names there): pair id → `from`/`to` as stored. One table for the pairs list,
 * the price endpoints and depth.
 */
const SOURCE_SPELLINGS: Readonly<Record<number, { from: string; to: string }>> = {
  6: { from: 'HG', to: 'USD' },
  7: { from: 'CL', to: 'USD' },
  10: { from: 'SPX', to: 'USD' },
}

const BY_SOURCE_SPELLING = new Map(PAIRS.map((pair) => [spellingKey(sourceSpellingOf(pair)), pair]))

/** `from`/`to` of a pair as the indexed source stores them. */
export function sourceSpellingOf(pair: Pair): { from: string; to: string } {
  return SOURCE_SPELLINGS[pair.id] ?? { from: pair.base, to: pair.quote }
}

/** The listed pair the indexed source spells `from`/`to` (legacy spellings included). */
export function pairBySourceSpelling(from: string, to: string): Pair | undefined {
  return BY_SOURCE_SPELLING.get(spellingKey({ from, to }))
}

/** The pair a legacy symbol such as `SPX-USD` stands for, to point a caller at the current symbol. */
export function pairByLegacySymbol(symbol: string): Pair | undefined {
  const [from, to] = symbol.split('-')
  const pair = from !== undefined && to !== undefined ? pairBySourceSpelling(from, to) : undefined
  return pair && pair.symbol !== symbol ? pair : undefined
}

function spellingKey(spelling: { from: string; to: string }): string {
  return `${spelling.from}/${spelling.to}`
}
