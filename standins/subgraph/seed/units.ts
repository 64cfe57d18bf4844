// The indexed source's on-chain units. Every amount is an integer (a bigint here, a decimal string on
// the wire):
//   prices                       18 decimals        openPrice, lastTradePrice, ...
//   USDC amounts                  6 decimals        collateral, notional, maxOI, fees paid, ...
//   asset units                  18 decimals        tradeNotional, longOI, shortOI
//   leverage                     ×100              leverage, maxLeverage, ...
//   order percentages            ×100              profitPercent, priceImpactP
//   pair fee and spread rates    percent ×1e6      makerFeeP, takerFeeP, spreadP
//   funding and rollover rates   18 decimals        curFundingLong, curFundingShort, curRollover
//   per-OI accumulators          18 decimals        accFundingLong/Short, accRolloverLong/Short, Trade.funding/rollover
//   dynamic-spread USD           18 decimals        buyVolume, sellVolume, netVolThreshold
//   price-impact slope           27 decimals        priceImpactK
//   decay rate                   18 decimals /s     decayRate
//   timestamps                   Unix seconds

/** Floats carry about 15 significant digits; keep at most 8 decimals exact, pad the rest with zeros. */
const EXACT_DECIMALS = 8

function scaled(value: number, decimals: number): bigint {
  const exact = Math.min(decimals, EXACT_DECIMALS)
  return BigInt(Math.round(value * 10 ** exact)) * 10n ** BigInt(decimals - exact)
}

export const toPrice = (value: number): bigint => scaled(value, 18)
export const toUsdc = (value: number): bigint => scaled(value, 6)
export const toLeverage = (times: number): bigint => scaled(times, 2)
export const toOrderPercent = (percent: number): bigint => scaled(percent, 2)
export const toRatePercent = (percent: number): bigint => scaled(percent, 6)

/** USDC notional (6 decimals) at a price (18 decimals) → asset units (18 decimals). */
export function unitsForNotional(notionalUsdc: bigint, price: bigint): bigint {
  return price === 0n ? 0n : (notionalUsdc * 10n ** 30n) / price
}

/** collateral × leverage, both in on-chain units → USDC notional (6 decimals). */
export function notionalFor(collateralUsdc: bigint, leverage: bigint): bigint {
  return (collateralUsdc * leverage) / 100n
}

/** 18 decimals: per-OI accumulators; USD volumes and thresholds of the dynamic spread */
export const toE18 = (value: number): bigint => scaled(value, 18)
/** the price-impact slope, a fraction of the price per USD, in 27 decimals */
export const toImpactK = (perUsd: number): bigint => BigInt(Math.round(perUsd * 1e18)) * 10n ** 9n
