// The 83 pairs, their groups and fee tiers as the indexed source stores them: the listing from
// schemas/pairs.ts with the source's own spellings, its parameters, open interest, accumulators and the
// dynamic-spread state of the newer contracts. The feed id is the one the price rows carry.

import { PAIRS, sourceSpellingOf, type AssetClass } from '../../../schemas/pairs.ts'
import { feedIdFor } from '../../../services/ingestor/feed-ids.ts'
import type { FeeRow, GroupRow, PairRow } from '../entities.ts'
import type { Random } from './random.ts'
import { referencePrice } from './reference-prices.ts'
import { SEED_HEAD_TIMESTAMP } from './timeline.ts'
import { toE18, toImpactK, toLeverage, toPrice, toRatePercent, toUsdc, unitsForNotional } from './units.ts'

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
  /** the group's collateral ceiling, percent of the vault's assets */
  maxCollateralPercent: number
  /** fee tier: smallest leveraged position, USD; oracle fee per trade, USD; liquidation fee, percent */
  fee: { minLevPosUsd: number; oracleFeeUsd: number; liqFeePercent: number }
  /** dynamic spread: price impact per USD past the threshold (0: bid/ask model), threshold in USD */
  impact: { k: number; netVolThresholdUsd: number }
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
    maxCollateralPercent: 40,
    fee: { minLevPosUsd: 500, oracleFeeUsd: 0.1, liqFeePercent: 5 },
    impact: { k: 1e-9, netVolThresholdUsd: 1e6 },
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
    maxCollateralPercent: 30,
    fee: { minLevPosUsd: 1000, oracleFeeUsd: 0.1, liqFeePercent: 5 },
    impact: { k: 0, netVolThresholdUsd: 0 },
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
    maxCollateralPercent: 25,
    fee: { minLevPosUsd: 1000, oracleFeeUsd: 0.1, liqFeePercent: 5 },
    impact: { k: 2e-9, netVolThresholdUsd: 5e5 },
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
    maxCollateralPercent: 15,
    fee: { minLevPosUsd: 500, oracleFeeUsd: 0.1, liqFeePercent: 5 },
    impact: { k: 4e-9, netVolThresholdUsd: 2.5e5 },
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
    maxCollateralPercent: 25,
    fee: { minLevPosUsd: 1000, oracleFeeUsd: 0.1, liqFeePercent: 5 },
    impact: { k: 1e-9, netVolThresholdUsd: 1e6 },
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
    maxCollateralPercent: 10,
    fee: { minLevPosUsd: 250, oracleFeeUsd: 0.1, liqFeePercent: 5 },
    impact: { k: 1e-8, netVolThresholdUsd: 1e5 },
  },
}

/** Pairs whose impact figures differ from their class's, with fixed recent volume (USD) for examples. */
const PAIR_TERMS: Readonly<Record<string, { k: number; netVolThresholdUsd: number; buyUsd: number; sellUsd: number }>> = {
  'BTC-USD': { k: 2e-10, netVolThresholdUsd: 5e6, buyUsd: 8e6, sellUsd: 1e6 },
  'ETH-USD': { k: 4e-10, netVolThresholdUsd: 3e6, buyUsd: 1e6, sellUsd: 2.5e6 },
}

/** Volume decays at 1/3600 per second (18 decimals), before the contract's imbalance factor. */
const DECAY_RATE = 277_777_777_777_778n

/** What the activity generator needs to know about a pair: plain numbers and its accumulators. */
export interface TradeablePair {
  id: string
  price: number
  maxLeverage: number
  accFunding: { long: bigint; short: bigint }
  accRollover: { long: bigint; short: bigint }
}

export function buildGroups(): GroupRow[] {
  return Object.values(CLASS_TERMS).map((terms) => ({
    id: terms.group.id,
    name: terms.group.name,
    minLeverage: toLeverage(terms.minLeverage),
    maxLeverage: toLeverage(terms.maxLeverage),
    maxCollateralP: toLeverage(terms.maxCollateralPercent),
    // filled in from the open trades
    longCollateral: 0n,
    shortCollateral: 0n,
  }))
}

/** One fee tier per group, with the group's id. */
export function buildFees(): FeeRow[] {
  return Object.values(CLASS_TERMS).map(({ group, fee }) => ({
    id: group.id,
    minLevPos: toUsdc(fee.minLevPosUsd),
    oracleFee: toUsdc(fee.oracleFeeUsd),
    liqFeeP: toLeverage(fee.liqFeePercent),
  }))
}

export function buildPairs(random: Random, headBlock: number): { rows: PairRow[]; tradeable: TradeablePair[] } {
  const rows: PairRow[] = []
  const tradeable: TradeablePair[] = []
  for (const pair of PAIRS) {
    const terms = CLASS_TERMS[pair.assetClass]
    const price = referencePrice(pair.symbol) * random.between(0.98, 1.02)
    const maxOiUsd = pair.tradeable ? Math.round(random.between(...terms.maxOiUsd) / 1e5) * 1e5 : 0
    const openInterestUnits = () => unitsForNotional(toUsdc(maxOiUsd * random.between(0.05, 0.7)), toPrice(price))
    const impact = PAIR_TERMS[pair.symbol] ?? terms.impact
    const recentVolume = () => (pair.tradeable ? impact.netVolThresholdUsd * random.between(0, 1.5) : 0)
    const accFunding = { long: toE18(random.between(-0.05, 0.2)), short: toE18(random.between(-0.2, 0.05)) }
    const accRollover = { long: toE18(random.between(0, 0.3)), short: toE18(random.between(0, 0.3)) }
    const rolloverPure = BigInt(random.int(-2e9, 2e9))
    const lastUpdateBlock = BigInt(headBlock - random.int(0, 2400))
    rows.push({
      id: String(pair.id),
      ...sourceSpellingOf(pair),
      feed: feedIdFor(pair.symbol),
      oracle: 'chainlink',
      group: terms.group.id,
      fee: terms.group.id,
      longOI: openInterestUnits(),
      shortOI: openInterestUnits(),
      maxOI: toUsdc(maxOiUsd),
      volume: toUsdc(maxOiUsd * random.between(5, 50)),
      buyVolume: toE18(PAIR_TERMS[pair.symbol]?.buyUsd ?? recentVolume()),
      sellVolume: toE18(PAIR_TERMS[pair.symbol]?.sellUsd ?? recentVolume()),
      lastUpdateTimestamp: BigInt(SEED_HEAD_TIMESTAMP - random.int(0, 600)),
      netVolThreshold: toE18(impact.netVolThresholdUsd),
      decayRate: impact.k === 0 ? 0n : DECAY_RATE,
      priceImpactK: toImpactK(impact.k),
      makerFeeP: toRatePercent(terms.makerFeePercent),
      takerFeeP: toRatePercent(terms.takerFeePercent),
      usageFeeP: 0n,
      vaultFeePercent: 20n,
      utilizationThresholdP: toLeverage(80),
      makerMaxLeverage: toLeverage(terms.maxLeverage / 2),
      maxLeverage: toLeverage(terms.maxLeverage),
      overnightMaxLeverage: toLeverage(terms.overnightMaxLeverage),
      spreadP: toRatePercent(terms.spreadPercent),
      lastTradePrice: toPrice(price),
      totalOpenTrades: 0n,
      totalOpenLimitOrders: 0n,
      // per-block rates around 1e-9, in 18 decimals
      curFundingLong: BigInt(random.int(-2e9, 4e9)),
      curFundingShort: BigInt(random.int(-4e9, 2e9)),
      accFundingLong: accFunding.long,
      accFundingShort: accFunding.short,
      lastFundingRate: BigInt(random.int(-2e9, 2e9)),
      lastFundingVelocity: 0n,
      lastFundingBlock: lastUpdateBlock,
      lastFundingTime: BigInt(SEED_HEAD_TIMESTAMP),
      maxFundingFeePerBlock: 10_000_000_000n,
      maxFundingFeeVelocity: 0n,
      fundingFeeSlope: 0n,
      lastOiDelta: 0n,
      hillInflectionPoint: toE18(0.5),
      hillPosScale: 100n,
      hillNegScale: 100n,
      springFactor: toE18(0.0001),
      sFactorUpScaleP: 100n,
      sFactorDownScaleP: 100n,
      curRollover: BigInt(random.int(0, 1e9)),
      accRollover: accRollover.long,
      accRolloverLong: accRollover.long,
      accRolloverShort: accRollover.short,
      rolloverFeePerBlock: BigInt(random.int(0, 1e9)),
      maxRolloverFeePerBlock: 5_000_000_000n,
      maxRolloverVolatility: 0n,
      rolloverFeeSlope: 0n,
      lastRolloverBlock: lastUpdateBlock,
      lastRolloverTime: BigInt(SEED_HEAD_TIMESTAMP),
      lastRolloverLongPure: rolloverPure,
      brokerPremium: BigInt(random.int(0, 1e9)),
      isNegativeRolloverAllowed: pair.assetClass === 'fx',
      tradeSizeRef: 0n,
    })
    if (pair.tradeable) tradeable.push({ id: String(pair.id), price, maxLeverage: terms.maxLeverage, accFunding, accRollover })
  }
  return { rows, tradeable }
}
