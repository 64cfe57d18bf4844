// The 83 pairs and their groups as the indexed source stores them: the listing from schemas/pairs.ts,
// with the source's legacy base spellings, its parameters and open interest.

import { createHash } from 'node:crypto'
import { PAIRS, type AssetClass } from '../../../schemas/pairs.ts'
import type { GroupRow, PairRow } from '../rows.ts'
import type { Random } from './random.ts'
import { referencePrice } from './reference-prices.ts'
import { toLeverage, toPrice, toRatePercent, toUsdc, unitsForNotional } from './units.ts'

/** Pair id → base symbol as the indexed source still spells it (copper, WTI, the S&P 500 index). */
export const LEGACY_BASE_SPELLINGS: Readonly<Record<number, string>> = { 6: 'HG', 7: 'CL', 10: 'SPX' }

interface ClassTerms {
  group: { id: string; name: string }
  minLeverage: number
  maxLeverage: number
  /** 0: no separate overnight limit */
  overnightMaxLeverage: number
  makerFeePercent: number
  takerFeePercent: number
  spreadPercent: number
  /** open-interest ceiling range, USD */
  maxOiUsd: readonly [number, number]
}

const CLASS_TERMS: Readonly<Record<AssetClass, ClassTerms>> = {
  crypto: {
    group: { id: '0', name: 'crypto' },
    minLeverage: 1.1,
    maxLeverage: 50,
    overnightMaxLeverage: 0,
    makerFeePercent: 0.05,
    takerFeePercent: 0.1,
    spreadPercent: 0,
    maxOiUsd: [5e6, 50e6],
  },
  fx: {
    group: { id: '1', name: 'forex' },
    minLeverage: 2,
    maxLeverage: 200,
    overnightMaxLeverage: 100,
    makerFeePercent: 0.01,
    takerFeePercent: 0.03,
    spreadPercent: 0.005,
    maxOiUsd: [10e6, 40e6],
  },
  metal: {
    group: { id: '2', name: 'metals' },
    minLeverage: 2,
    maxLeverage: 100,
    overnightMaxLeverage: 50,
    makerFeePercent: 0.01,
    takerFeePercent: 0.03,
    spreadPercent: 0.01,
    maxOiUsd: [5e6, 30e6],
  },
  energy: {
    group: { id: '3', name: 'energy' },
    minLeverage: 2,
    maxLeverage: 50,
    overnightMaxLeverage: 25,
    makerFeePercent: 0.02,
    takerFeePercent: 0.05,
    spreadPercent: 0.02,
    maxOiUsd: [2e6, 15e6],
  },
  index: {
    group: { id: '4', name: 'indices' },
    minLeverage: 2,
    maxLeverage: 100,
    overnightMaxLeverage: 50,
    makerFeePercent: 0.01,
    takerFeePercent: 0.03,
    spreadPercent: 0.01,
    maxOiUsd: [5e6, 25e6],
  },
  stock: {
    group: { id: '5', name: 'stocks' },
    minLeverage: 2,
    maxLeverage: 20,
    overnightMaxLeverage: 10,
    makerFeePercent: 0.03,
    takerFeePercent: 0.06,
    spreadPercent: 0.02,
    maxOiUsd: [0.5e6, 5e6],
  },
}

/** What the activity generator needs to know about a pair, in plain numbers. */
export interface TradeablePair {
  id: string
  price: number
  maxLeverage: number
}

export function buildGroups(): GroupRow[] {
  return Object.values(CLASS_TERMS).map((terms) => ({
    id: terms.group.id,
    name: terms.group.name,
    minLeverage: toLeverage(terms.minLeverage),
    maxLeverage: toLeverage(terms.maxLeverage),
  }))
}

export function buildPairs(random: Random): { rows: PairRow[]; tradeable: TradeablePair[] } {
  const rows: PairRow[] = []
  const tradeable: TradeablePair[] = []
  for (const pair of PAIRS) {
    const terms = CLASS_TERMS[pair.assetClass]
    const price = referencePrice(pair.symbol) * random.between(0.98, 1.02)
    const maxOiUsd = pair.tradeable ? Math.round(random.between(...terms.maxOiUsd) / 1e5) * 1e5 : 0
    const openInterestUnits = () => unitsForNotional(toUsdc(maxOiUsd * random.between(0.05, 0.7)), toPrice(price))
    rows.push({
      id: String(pair.id),
      from: LEGACY_BASE_SPELLINGS[pair.id] ?? pair.base,
      to: pair.quote,
      feed: feedIdFor(pair.symbol),
      group: terms.group.id,
      longOI: openInterestUnits(),
      shortOI: openInterestUnits(),
      maxOI: toUsdc(maxOiUsd),
      makerFeeP: toRatePercent(terms.makerFeePercent),
      takerFeeP: toRatePercent(terms.takerFeePercent),
      maxLeverage: toLeverage(terms.maxLeverage),
      overnightMaxLeverage: toLeverage(terms.overnightMaxLeverage),
      spreadP: toRatePercent(terms.spreadPercent),
      lastTradePrice: toPrice(price),
      // per-block rates around 1e-9, already in 18 decimals
      curFundingLong: BigInt(random.int(-2e9, 4e9)),
      curFundingShort: BigInt(random.int(-4e9, 2e9)),
      curRollover: BigInt(random.int(0, 1e9)),
    })
    if (pair.tradeable) tradeable.push({ id: String(pair.id), price, maxLeverage: terms.maxLeverage })
  }
  return { rows, tradeable }
}

/** A stable 32-byte feed id per asset, the same on every chain and for every seed. */
export function feedIdFor(symbol: string): string {
  return `0x${createHash('sha256').update(`feed:${symbol}`).digest('hex')}`
}
