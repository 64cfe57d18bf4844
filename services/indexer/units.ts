// The indexed source's on-chain units → the plain numbers of the service's JSON. Amounts arrive as
// fixed-point integers in decimal text (The Graph's BigInt); the text is split at the decimal point
// rather than divided as a float, so the result is the double nearest to the exact value. A field the
// source did not deliver (null) stays null.

/** `"1234500"` with 6 decimals → 1.2345; negative values keep their sign. */
export function fromFixedPoint(text: string, decimals: number): number {
  const negative = text.startsWith('-')
  const digits = (negative ? text.slice(1) : text).padStart(decimals + 1, '0')
  const point = digits.length - decimals
  return Number(`${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`)
}

function scale(decimals: number) {
  return <T extends string | null>(text: T): T extends string ? number : number | null =>
    (text === null ? null : fromFixedPoint(text, decimals)) as T extends string ? number : number | null
}

/** 18 decimals: prices, asset units (tradeNotional, longOI, shortOI), per-block rollover rates */
export const fromE18 = scale(18)
/** USDC amounts: 6 decimals */
export const fromUsdc = scale(6)
/** ×100: leverage and order percentages */
export const fromHundredths = scale(2)
/** fee and spread rates: percent ×1e6 */
export const fromRatePercent = scale(6)
/** funding rates: both public SDKs divide `curFundingLong/Short` and `lastFundingRate` by 1e9 */
export const fromFundingRate = scale(9)

/**
 * USDC a position owes on a per-OI accumulator (18 decimals, the pair's value now minus the trade's
 * value at open), as the venue's Python SDK computes it: Δacc / 1e18 × collateral × leverage. Positive:
 * paid; negative: received. Null when either accumulator is missing.
 */
export function accruedFee(
  pairAccumulator: string | null,
  tradeAccumulator: string | null,
  collateralUsdc: string,
  leverageHundredths: string,
): number | null {
  if (pairAccumulator === null || tradeAccumulator === null) return null
  const delta = BigInt(pairAccumulator) - BigInt(tradeAccumulator)
  // Δacc (1e18) × collateral (1e6) × leverage (1e2) → USDC at 26 decimals
  return fromFixedPoint(String(delta * BigInt(collateralUsdc) * BigInt(leverageHundredths)), 26)
}
