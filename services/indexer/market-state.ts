import type { SubgraphPair } from './subgraph-schemas.ts'

// A pair's trading state as the contracts hold it, for the depth model: the integers of the indexed
// source in the contracts' own units, unconverted (the model redoes the contract's integer arithmetic).
// A figure the source did not deliver is null.

export interface PairMarketState {
  /** the pairIndex */
  id: string
  /** open interest per side, asset units ×1e18 */
  longOI: bigint | null
  shortOI: bigint | null
  /** open-interest ceiling per side, USDC ×1e6; 0: none */
  maxOI: bigint | null
  /** the pair's leverage ceiling ×100, the group's where the pair has none (OstiumPairsStorage) */
  maxLeverage: bigint | null
  /** dynamic spread (IOstiumPairInfos): K ×1e27, threshold and volumes USD ×1e18, decay ×1e18 per second */
  priceImpactK: bigint | null
  netVolThreshold: bigint | null
  decayRate: bigint | null
  buyVolume: bigint | null
  sellVolume: bigint | null
  /** Unix seconds of the last volume update */
  lastUpdateTimestamp: bigint | null
  /** the group's collateral ceiling, percent ×100 of the vault's assets, and its open collateral (USDC ×1e6) */
  groupMaxCollateralP: bigint | null
  groupCollateral: { long: bigint | null; short: bigint | null }
  /** the vault's assets, USDC ×1e6 (the base of the group ceiling) */
  vaultAssets: bigint | null
}

export function toMarketState(row: SubgraphPair, vaultAssets: string | null): PairMarketState {
  const pairMax = big(row.maxLeverage)
  return {
    id: row.id,
    longOI: big(row.longOI),
    shortOI: big(row.shortOI),
    maxOI: big(row.maxOI),
    maxLeverage: pairMax === 0n ? big(row.group.maxLeverage) : pairMax,
    priceImpactK: big(row.priceImpactK),
    netVolThreshold: big(row.netVolThreshold),
    decayRate: big(row.decayRate),
    buyVolume: big(row.buyVolume),
    sellVolume: big(row.sellVolume),
    lastUpdateTimestamp: big(row.lastUpdateTimestamp),
    groupMaxCollateralP: big(row.group.maxCollateralP),
    groupCollateral: { long: big(row.group.longCollateral), short: big(row.group.shortCollateral) },
    vaultAssets: big(vaultAssets),
  }
}

function big(text: string | null): bigint | null {
  return text === null ? null : BigInt(text)
}
