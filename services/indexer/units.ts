// The indexed source's on-chain units → the plain numbers of the service's JSON. Amounts arrive as
// fixed-point integers in decimal text (The Graph's BigInt); the text is split at the decimal point
// rather than divided as a float, so the result is the double nearest to the exact value.

/** `"1234500"` with 6 decimals → 1.2345; negative values keep their sign. */
export function fromFixedPoint(text: string, decimals: number): number {
  const negative = text.startsWith('-')
  const digits = (negative ? text.slice(1) : text).padStart(decimals + 1, '0')
  const point = digits.length - decimals
  return Number(`${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`)
}

/** 18 decimals: prices, asset units (tradeNotional, longOI, shortOI), funding and rollover rates */
export const fromE18 = (text: string): number => fromFixedPoint(text, 18)
/** USDC amounts: 6 decimals */
export const fromUsdc = (text: string): number => fromFixedPoint(text, 6)
/** ×100: leverage and order percentages */
export const fromHundredths = (text: string): number => fromFixedPoint(text, 2)
/** fee and spread rates: percent ×1e6 */
export const fromRatePercent = (text: string): number => fromFixedPoint(text, 6)
