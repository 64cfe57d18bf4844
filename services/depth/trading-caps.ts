// How much notional one more position on a side can still open, by the contract's two exposure checks
// (TradingCallbacksLib.withinExposureLimits): the pair's open-interest ceiling, and the group's
// collateral ceiling (OstiumPairsStorage.groupMaxCollateral: maxCollateralP × vault balance / 10000).
// Integers in the contracts' units; USDC ×1e6 out.

import type { Side } from '../../schemas/depth.ts'
import type { PairMarketState } from '../indexer/market-state.ts'

const E18 = 10n ** 18n
const E12 = 10n ** 12n

/** USDC ×1e6 of notional under the open-interest ceiling: maxOI − same-side OI × price; 0 without a ceiling. */
export function openInterestRoom(state: PairMarketState, side: Side, priceE18: bigint): bigint {
  const openInterest = side === 'long' ? state.longOI : state.shortOI
  if (state.maxOI === null || state.maxOI === 0n) return 0n
  const used = ((openInterest ?? 0n) * priceE18) / E18 / E12
  return state.maxOI > used ? state.maxOI - used : 0n
}

/**
 * USDC ×1e6 of notional the group's collateral ceiling leaves, at the pair's highest leverage (the most
 * notional any one trade could still open); undefined when the source lacks a figure it needs.
 */
export function groupCollateralRoom(state: PairMarketState, side: Side): bigint | undefined {
  const collateral = side === 'long' ? state.groupCollateral.long : state.groupCollateral.short
  const { groupMaxCollateralP, vaultAssets, maxLeverage } = state
  if (collateral === null || groupMaxCollateralP === null || vaultAssets === null || maxLeverage === null) return undefined
  const ceiling = (groupMaxCollateralP * vaultAssets) / 10_000n
  const room = ceiling > collateral ? ceiling - collateral : 0n
  return (room * maxLeverage) / 100n
}

/** The smaller of the two rooms, USDC ×1e6. */
export function availableNotional(state: PairMarketState, side: Side, priceE18: bigint): bigint {
  const byOpenInterest = openInterestRoom(state, side, priceE18)
  const byGroup = groupCollateralRoom(state, side)
  return byGroup !== undefined && byGroup < byOpenInterest ? byGroup : byOpenInterest
}
