// Which upstream oracle feed prices each venue pair (the `feed_id` of a price row, spec 2.1).
//
// Real ids are Pyth price feed ids, the ones Hermes serves (`/v2/price_feeds`), each checked against more
// than one published listing. Pairs Pyth does not carry (cash indices, some newer or non-US listings,
// copper) get a deterministic stand-in id, marked `synthetic`: it keeps `feed_id` a stable 32-byte id for
// every pair, and the Hermes adapter never subscribes to it.
//
// The same table names each pair's symbol on the candle history source (Pyth Pro's History API, read by
// services/candles/history). Pyth Pro spells a feed as Hermes does (`Crypto.BTC/USD`, `FX.EUR/USD`,
// `Metal.XAU/USD`, `Equity.US.BKNG/USD`) and lists the Hermes id of each feed beside it (`hermes_id` in
// its `/v1/symbols` answer: pyth-network/pyth-crosschain,
// apps/developer-hub/content/docs/price-feeds/pro/symbology-reference.mdx; the FAQ's history example asks
// for `Crypto.BTC/USD`, faq.mdx). So a real entry's history symbol is its Pyth symbol; synthetic entries
// have none, and their candles come from our own ticks only.

import { createHash } from 'node:crypto'

import { PAIRS, pairBySymbol } from '../../schemas/pairs.ts'

export type FeedIdSource = 'pyth' | 'synthetic'

export interface FeedIdEntry {
  /** pair symbol as in schemas/pairs.ts */
  pair: string
  /** 32-byte hex id, lowercase, 0x-prefixed */
  feedId: string
  source: FeedIdSource
  /** Pyth's own symbol for the feed, e.g. "Equity.US.AAPL/USD"; only for `pyth` entries */
  pythSymbol?: string
  /** the pair's symbol on the history source (Pyth Pro's History API); only for `pyth` entries, see above */
  historySymbol?: string
}

/** pair symbol → [Pyth symbol, Pyth price feed id]. Pairs missing here are synthetic. */
const PYTH_FEEDS: Readonly<Record<string, readonly [pythSymbol: string, feedId: string]>> = {
  // crypto
  'BTC-USD': ['Crypto.BTC/USD', '0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43'],
  'ETH-USD': ['Crypto.ETH/USD', '0xff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace'],
  'SOL-USD': ['Crypto.SOL/USD', '0xef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d'],
  'BNB-USD': ['Crypto.BNB/USD', '0x2f95862b045670cd22bee3114c39763a4a08beeb663b145d283c31d7d1101c4f'],
  'XRP-USD': ['Crypto.XRP/USD', '0xec5d399846a9209f3fe5881d70aae9268c94339ff9817e8d18ff19fa05eea1c8'],
  'TRX-USD': ['Crypto.TRX/USD', '0x67aed5a24fdad045475e7195c98a98aea119c763f272d4523f5bac93a4f33c2b'],
  'HYPE-USD': ['Crypto.HYPE/USD', '0x4279e31cc369bbcc2faf022b382b080e32a8e689ff20fbc530d2a603eb6cd98b'],
  'LINK-USD': ['Crypto.LINK/USD', '0x8ac0c70fff57e9aefdf5edf44b51d62c2d433653cbb2cf5cc06bb115af04d221'],
  'ADA-USD': ['Crypto.ADA/USD', '0x2a01deaec9e51a579277b34b122399984d0bbf57e2458a7e42fecd2829867a0d'],

  // FX: Pyth quotes each pair in the same direction as the venue symbol
  'EUR-USD': ['FX.EUR/USD', '0xa995d00bb36a63cef7fd2c287dc105fc8f3d93779f062f09551b0af3e81ec30b'],
  'GBP-USD': ['FX.GBP/USD', '0x84c2dde9633d93d1bcad84e7dc41c9d56578b7ec52fabedc1f335d673df0a7c1'],
  'USD-JPY': ['FX.USD/JPY', '0xef2c98c804ba503c6a707e38be4dfbb16683775f195b091252bf24693042fd52'],
  'USD-CAD': ['FX.USD/CAD', '0x3112b03a41c910ed446852aacf67118cb1bec67b2cd0b9a214c58cc0eaa2ecca'],
  'USD-MXN': ['FX.USD/MXN', '0xe13b1c1ffb32f34e1be9545583f01ef385fde7f42ee66049d30570dc866b77ca'],
  'USD-CHF': ['FX.USD/CHF', '0x0b1e3297e69f162877b577b0d6a47a0d63b2392bc8499e6540da4187a63e28f8'],
  'AUD-USD': ['FX.AUD/USD', '0x67a6f93030420c1c9e3fe37c1ab6b77966af82f995944a9fefce357a22854a80'],
  'NZD-USD': ['FX.NZD/USD', '0x92eea8ba1b00078cdc2ef6f64f091f262e8c7d0576ee4677572f314ebfafa4c7'],
  'USD-KRW': ['FX.USD/KRW', '0xe539120487c29b4defdf9a53d337316ea022a2688978a468f9efd847201be7e3'],

  // metals (spot, per troy ounce)
  'XAU-USD': ['Metal.XAU/USD', '0x765d2ba906dbc32ca17cc11f5310a89e9ee1f6420508c63861f2f8ba4ee34bb2'],
  'XAG-USD': ['Metal.XAG/USD', '0xf2fb02c32b055c805e7238d628e5e9dadef274376114eb1f012337cabe93871e'],
  'XPD-USD': ['Metal.XPD/USD', '0x80367e9664197f37d89a07a804dffd2101c479c7c4e8490501bc9d9e1e7f9021'],
  'XPT-USD': ['Metal.XPT/USD', '0x398e4bbc7cbf89d6648c21e08019d878967677753b3096799595c78f805a34e5'],

  // energy: Pyth's spot CFD feeds, not a futures contract (those expire and change id)
  'WTI-USD': ['Commodities.USOILSPOT', '0x925ca92ff005ae943c158e3563f59698ce7e75c5a8c8dd43303a0a154887b3e6'],
  'BRENT-USD': ['Commodities.UKOILSPOT', '0x27f0d5e09a830083e5491795cac9ca521399c8f7fd56240d09484b14e614d57a'],

  // US equities and ETFs
  'NVDA-USD': ['Equity.US.NVDA/USD', '0xb1073854ed24cbc755dc527418f52b7d271f6cc967bbf8d8129112b18860a593'],
  'GOOG-USD': ['Equity.US.GOOG/USD', '0xe65ff435be42630439c96396653a342829e877e2aafaeaf1a10d0ee5fd2cf3f2'],
  'AMZN-USD': ['Equity.US.AMZN/USD', '0xb5d0e0fa58a1f8b81498ae670ce93c872d14434b72c364885d4fa1b257cbb07a'],
  'META-USD': ['Equity.US.META/USD', '0x78a3e3b8e676a8f73c439f5d749737034b139bbbe899ba5775216fba596607fe'],
  'TSLA-USD': ['Equity.US.TSLA/USD', '0x16dad506d7db8da01c87581c87ca897a012a153557d4d578c3b9c9e1bc0632f1'],
  'AAPL-USD': ['Equity.US.AAPL/USD', '0x49f6b65cb1de6b10eaf75e7c03ca029c306d0357e91b5311b175084a5ad55688'],
  'MSFT-USD': ['Equity.US.MSFT/USD', '0xd0ca23c1cc005e004ccf1db5bf76aeb6a49218f43dac3d4b275e92de12ded4d1'],
  'COIN-USD': ['Equity.US.COIN/USD', '0xfee33f2a978bf32dd6b662b65ba8083c6773b494f8401194ec1870c640860245'],
  'HOOD-USD': ['Equity.US.HOOD/USD', '0x306736a4035846ba15a3496eed57225b64cc19230a50d14f3ed20fd7219b7849'],
  'MSTR-USD': ['Equity.US.MSTR/USD', '0xe1e80251e5f5184f2195008382538e847fafc36f751896889dd3d1b1f6111f09'],
  'CRCL-USD': ['Equity.US.CRCL/USD', '0x92b8527aabe59ea2b12230f7b532769b133ffb118dfbd48ff676f14b273f1365'],
  'PLTR-USD': ['Equity.US.PLTR/USD', '0x11a70634863ddffb71f2b11f2cff29f73f3db8f6d0b78c49f2b5f4ad36e885f0'],
  'AMD-USD': ['Equity.US.AMD/USD', '0x3622e381dbca2efd1859253763b1adc63f7f9abb8e76da1aa8e638a57ccde93e'],
  'NFLX-USD': ['Equity.US.NFLX/USD', '0x8376cfd7ca8bcdf372ced05307b24dced1f15b1afafdeff715664598f15a3dd2'],
  'ORCL-USD': ['Equity.US.ORCL/USD', '0xe47ff732eaeb6b4163902bdee61572659ddf326511917b1423bae93fcdf3153c'],
  'COST-USD': ['Equity.US.COST/USD', '0x163f6a6406d65305e8e27965b9081ac79b0cf9529f0fcdc14fe37e65e3b6b5cb'],
  'XOM-USD': ['Equity.US.XOM/USD', '0x4a1a12070192e8db9a89ac235bb032342a390dde39389b4ee1ba8e41e7eae5d8'],
  'CVX-USD': ['Equity.US.CVX/USD', '0xf464e36fd4ef2f1c3dc30801a9ab470dcdaaa0af14dd3cf6ae17a7fca9e051c5'],
  'GEV-USD': ['Equity.US.GEV/USD', '0x57e28b0f0ab18923f5c987629c0c714b9b46c87e729ed95ed6e23e466e8d1e0c'],
  'XLE-USD': ['Equity.US.XLE/USD', '0x8bf649e08e5a86129c57990556c8eec30e296069b524f4639549282bc5c07bb4'],
  'ARM-USD': ['Equity.US.ARM/USD', '0x957bf692b35cc62f222dbf4dc6929130df42fe17c9f03373f44c01f78b05391e'],
  'ASML-USD': ['Equity.US.ASML/USD', '0x1a6e324589a0e355919fb1c0389edc3fdf4c46034626bd82aad4e47714cfa94f'],
  'AVGO-USD': ['Equity.US.AVGO/USD', '0xd0c9aef79b28308b256db7742a0a9b08aaa5009db67a52ea7fa30ed6853f243b'],
  'CAT-USD': ['Equity.US.CAT/USD', '0xad04597ba688c350a97265fcb60585d6a80ebd37e147b817c94f101a32e58b4c'],
  'INTC-USD': ['Equity.US.INTC/USD', '0xc1751e085ee292b8b3b9dd122a135614485a201c35dfc653553f0e28c1baf3ff'],
  'SMCI-USD': ['Equity.US.SMCI/USD', '0x8f34132a42f8bb7a47568d77a910f97174a30719e16904e9f2915d5b2c6c2d52'],
  'TSM-USD': ['Equity.US.TSM/USD', '0xe722560a66e4ab00522ef20a38fa2ba5d1b41f1c5404723ed895d202a7af7cc4'],
  'MU-USD': ['Equity.US.MU/USD', '0x152244dc24665ca7dd3f257b8f442dc449b6346f48235b7b229268cb770dda2d'],
  'SNDK-USD': ['Equity.US.SNDK/USD', '0xc86a1f20cd7d5d07932baea30bcd8e479b775c4f51f82526bf1de6dc79fa3f76'],
  'HYG-USD': ['Equity.US.HYG/USD', '0x2077043ee3b67b9a70949c8396c110f6cf43de8e6d9e6efdcbd557a152cf2c6e'],
  'TLT-USD': ['Equity.US.TLT/USD', '0x9f383d612ac09c7e6ffda24deca1502fce72e0ba58ff473fea411d9727401cc1'],
  'CRWV-USD': ['Equity.US.CRWV/USD', '0x2a78b78189d6d6eff30a825e4698fd14a0b1ca659bb0079bb7e80521c0e8c75d'],
  'DELL-USD': ['Equity.US.DELL/USD', '0xa2950270a22ce39a22cb3488ba91e60474cd93c6d01da2ecc5a97c1dd40f4995'],
  'MRNA-USD': ['Equity.US.MRNA/USD', '0x4083b0b1471123cf4d3e8edee7890940cafad866f06cadae638c23e555a1f4fc'],
  'MRVL-USD': ['Equity.US.MRVL/USD', '0x7aef4e90557add5289266340ccd1e1aa7a225f1220206b07aaf98e53101ce116'],
  'LLY-USD': ['Equity.US.LLY/USD', '0x70dcf5fd56553d0023693e4b590336a8c9bcfd0d98dd9f093b1f697820d98325'],
}

for (const symbol of Object.keys(PYTH_FEEDS)) {
  if (!pairBySymbol(symbol)) throw new Error(`feed id listed for unknown pair ${symbol}`)
}

/** A stable stand-in for a pair without an upstream feed: sha256 of "venue-feed:" + symbol. */
function syntheticFeedId(symbol: string): string {
  return `0x${createHash('sha256').update(`venue-feed:${symbol}`).digest('hex')}`
}

/** One entry per pair, in pair-id order. */
export const FEED_IDS: readonly FeedIdEntry[] = PAIRS.map(({ symbol }) => {
  const pyth = PYTH_FEEDS[symbol]
  if (!pyth) return { pair: symbol, feedId: syntheticFeedId(symbol), source: 'synthetic' }
  const [pythSymbol, feedId] = pyth
  return { pair: symbol, feedId, source: 'pyth', pythSymbol, historySymbol: pythSymbol }
})

/** Pairs whose feed id is a real upstream feed, in pair-id order. */
export const UPSTREAM_PAIRS: readonly string[] = FEED_IDS.filter((entry) => entry.source === 'pyth').map((entry) => entry.pair)

/** Canonical spelling of a feed id: lowercase with 0x. Hermes sends ids without the prefix. */
export function normalizeFeedId(id: string): string {
  return `0x${id.replace(/^0x/i, '').toLowerCase()}`
}

const ENTRY_BY_PAIR = new Map(FEED_IDS.map((entry) => [entry.pair, entry]))
const PAIR_BY_FEED_ID = new Map(FEED_IDS.map((entry) => [entry.feedId, entry.pair]))

export function feedIdFor(symbol: string): string {
  const entry = ENTRY_BY_PAIR.get(symbol)
  if (!entry) throw new Error(`no feed id for unknown pair ${symbol}`)
  return entry.feedId
}

/** The pair's symbol on the history source, or undefined when the source has no such feed (synthetic entries). */
export function historySymbolFor(symbol: string): string | undefined {
  return ENTRY_BY_PAIR.get(symbol)?.historySymbol
}

/** The pair priced by a feed id; accepts the id with or without 0x, in any case. */
export function pairForFeedId(id: string): string | undefined {
  return PAIR_BY_FEED_ID.get(normalizeFeedId(id))
}
