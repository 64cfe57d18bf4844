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
 * Old names of renamed assets. The indexed source still stores these bases (its pairs list gives `from`/`to`
 * as stored), and clients build pair names from that list, so every route that takes a pair accepts them;
 * answers always name the pair by its current symbol. One table for the pairs list, the price, depth,
 * candle and stream routes, and the subgraph stand-in. Sources, per entry:
 * - C#: StockSharp/Connectors `Ostium/Native/OstiumExtensions.cs` lines 63-71 (`NormalizePairName`, nine bases)
 * - bot: Maxxit's Ostium symbol mapper (`SYMBOL_ALIASES`), which maps to the stored bases
 *   CL, HG, SPX, NDX, DJI, NIK, FTSE, HSI
 * - facts: the venue's subgraph, whose pairs list names pair 6 HG, pair 7 CL and pair 10 SPX
 */
const LEGACY_BASES: Readonly<Record<string, string>> = {
  CL: 'WTI', // C# line 63; bot; facts (pair 7)
  HG: 'XCU', // C# line 64; bot; facts (pair 6)
  SPX: 'US500', // C# line 65; bot; facts (pair 10)
  NDX: 'US100', // C# line 66; bot
  DJI: 'US30', // C# line 67; bot
  DAX: 'GER40', // C# line 68
  FTSE: 'UK100', // C# line 69; bot
  HSI: 'HK50', // C# line 70; bot
  NIK: 'JP225', // C# line 71; bot
}
// Display-layer names such as GOLD and SILVER (for XAU, XAG) are not in the table: no source stores them
// and no client sends them as pair names.

const LEGACY_BASE_OF = new Map(Object.entries(LEGACY_BASES).map(([legacy, current]) => [current, legacy]))

/** `from`/`to` of a pair as the indexed source stores them: the legacy base of a renamed asset. */
export function sourceSpellingOf(pair: Pair): { from: string; to: string } {
  return { from: LEGACY_BASE_OF.get(pair.base) ?? pair.base, to: pair.quote }
}

const BY_SOURCE_SPELLING = new Map(PAIRS.map((pair) => [spellingKey(sourceSpellingOf(pair)), pair]))

/** The listed pair the indexed source spells `from`/`to` (legacy spellings included). */
export function pairBySourceSpelling(from: string, to: string): Pair | undefined {
  return BY_SOURCE_SPELLING.get(spellingKey({ from, to }))
}

const BY_LEGACY_NAME = new Map(
  PAIRS.filter((pair) => LEGACY_BASE_OF.has(pair.base)).map((pair) => {
    const { from, to } = sourceSpellingOf(pair)
    return [`${from}-${to}`, pair]
  }),
)

/**
 * The listed pair a client names: its symbol (`US500-USD`) or its legacy spelling (`SPX-USD`), as the
 * venue's connector builds it from the pairs list. Anything else is undefined.
 */
export function pairByName(name: string): Pair | undefined {
  return BY_SYMBOL.get(name) ?? BY_LEGACY_NAME.get(name)
}

/** Every name `pairByName` knows: the symbols in pair-index order, then the legacy spellings. */
export const PAIR_NAMES: readonly string[] = [...BY_SYMBOL.keys(), ...BY_LEGACY_NAME.keys()]

function spellingKey(spelling: { from: string; to: string }): string {
  return `${spelling.from}/${spelling.to}`
}
