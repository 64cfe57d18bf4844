// The venue's price-impact model (dynamic model of the newer contracts): a spread term plus a term
// that grows once same-side volume passes a threshold, and the open-interest cap. Pure arithmetic;
// percentages are percent (0.25 means 0.25 %).

import type { Side } from '../../schemas/depth.ts'

export interface ImpactParameters {
  /** same-side volume, USD, that trades without the dynamic term */
  netVolThresholdUsd: number
  /** price impact per USD of volume past the threshold, as a fraction of the price */
  priceImpactK: number
}

export interface BookPrice {
  bid: number
  mid: number
  ask: number
}

/** Half the quoted spread, in percent of mid: (ask − bid) / (2 · mid) × 100. */
export function spreadImpactPercent(price: BookPrice): number {
  return ((price.ask - price.bid) / (2 * price.mid)) * 100
}

/**
 * The dynamic term, in percent, for a trade of `notionalUsd` (S) after `priorVolumeUsd` (V0) of decayed
 * same-side volume, with threshold T and slope K: nothing while V0 + S ≤ T; K · (V0 + S − T)² / (2S)
 * when the trade crosses the threshold; K · (V0 − T + S/2) when V0 is already past it.
 */
export function dynamicImpactPercent(parameters: ImpactParameters, notionalUsd: number, priorVolumeUsd: number): number {
  const { netVolThresholdUsd: threshold, priceImpactK: k } = parameters
  if (priorVolumeUsd + notionalUsd <= threshold) return 0
  if (priorVolumeUsd < threshold) {
    const excess = priorVolumeUsd + notionalUsd - threshold
    return ((k * excess * excess) / (2 * notionalUsd)) * 100
  }
  return k * (priorVolumeUsd - threshold + notionalUsd / 2) * 100
}

export function impactPercent(price: BookPrice, parameters: ImpactParameters, notionalUsd: number, priorVolumeUsd: number): number {
  return spreadImpactPercent(price) + dynamicImpactPercent(parameters, notionalUsd, priorVolumeUsd)
}

/** A long (opening) fills above mid, a short below: mid · (1 ± impact % / 100). */
export function fillPrice(mid: number, side: Side, impact: number): number {
  return mid * (1 + (side === 'long' ? impact : -impact) / 100)
}

/** Same-side open interest plus a new trade must stay within the ceiling; no ceiling (0) leaves nothing. */
export function availableNotionalUsd(maxOpenInterestUsd: number, sameSideOpenInterestUsd: number): number {
  return Math.max(0, maxOpenInterestUsd - sameSideOpenInterestUsd)
}
