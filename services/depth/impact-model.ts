// The venue's price impact for opening a trade, as its contracts compute it (TradingCallbacksLib,
// v1.5: getDynamicTradePriceImpact and the functions it calls), in the same integer arithmetic and the
// same units, so a quote equals what the contract would charge on the same pair state:
//   prices ×1e18; impact percent ×1e18; volumes, threshold and notional USD ×1e18;
//   priceImpactK ×1e27; decayRate ×1e18 per second.
// Integer division truncates, as Solidity's does. No I/O here.

import type { Side } from '../../schemas/depth.ts'

const E18 = 10n ** 18n
const E27 = 10n ** 27n
const HUNDRED_PERCENT = 100n * E18
/** the decay slows at most threefold when the book is one-sided (MAX_DECAY_FACTOR) */
const MAX_DECAY_FACTOR = 3n * E18

/** The live book, ×1e18. */
export interface BookE18 {
  bid: bigint
  mid: bigint
  ask: bigint
}

/** A pair's dynamic-spread parameters and state (IOstiumPairInfos.DynamicSpreadParams/State). */
export interface DynamicSpread {
  priceImpactK: bigint
  netVolThreshold: bigint
  decayRate: bigint
  buyVolume: bigint
  sellVolume: bigint
  lastUpdateTimestamp: bigint
}

export interface PriceImpact {
  /** percent ×1e18 */
  priceImpactP: bigint
  /** ×1e18 */
  priceAfterImpact: bigint
  /** false: the pair has no K and fills at the bid or ask (the older model) */
  isDynamic: boolean
}

/** The decay slows as the book gets one-sided: decayRate / clamp(|buy − sell| / threshold, 1, 3). */
export function effectiveDecayRate(buyVolume: bigint, sellVolume: bigint, decayRate: bigint, netVolThreshold: bigint): bigint {
  if (netVolThreshold === 0n) return (decayRate * E18) / MAX_DECAY_FACTOR
  const absNetVol = buyVolume > sellVolume ? buyVolume - sellVolume : sellVolume - buyVolume
  let factor = E18
  if (absNetVol > netVolThreshold) {
    const ratio = (absNetVol * E18) / netVolThreshold
    factor = ratio > MAX_DECAY_FACTOR ? MAX_DECAY_FACTOR : ratio
  }
  return (decayRate * E18) / factor
}

/** Volume after `seconds` of decay, by the Padé form (1 − x/2) / (1 + x/2) with x = rate · seconds. */
export function decayVolumeWithPade(volume: bigint, seconds: bigint, decayRate: bigint): bigint {
  if (seconds === 0n) return volume
  const halfFactor = (decayRate * seconds) / 2n
  const numerator = E18 > halfFactor ? E18 - halfFactor : 0n
  const multiplier = (numerator * E18) / (E18 + halfFactor)
  return (volume * multiplier) / E18
}

/**
 * Impact percent ×1e18 of a trade of `tradeSize` after `initialVolume` of same-side volume: the half
 * spread, plus K · excess² / (2 · size) when the trade crosses the threshold, or K · (V0 − T + size/2)
 * when the volume is past it already.
 */
export function priceImpactFunction(
  netVolThreshold: bigint,
  priceImpactK: bigint,
  tradeSize: bigint,
  initialVolume: bigint,
  book: BookE18,
): bigint {
  const spreadComponent = ((book.ask - book.bid) * E18 * 100n) / (book.mid * 2n)
  let dynamicComponent = 0n
  const finalVolume = tradeSize + initialVolume
  if (finalVolume > netVolThreshold) {
    const excess = finalVolume - netVolThreshold
    dynamicComponent =
      initialVolume < netVolThreshold
        ? (priceImpactK * excess * excess * 100n) / (2n * tradeSize) / E27
        : (priceImpactK * (initialVolume - netVolThreshold + tradeSize / 2n) * 100n) / E27
  }
  return spreadComponent + dynamicComponent
}

/**
 * Opening a position of `notional` (USD ×1e18) on `side` at `now` (Unix seconds): a long buys, and
 * meets the decayed buy volume; a short sells, and meets the sell volume. Without K, the fill is the
 * ask (long) or the bid (short). A short's fill is floored at 0 (impact capped at 100 %).
 */
export function openingPriceImpact(book: BookE18, spread: DynamicSpread, side: Side, notional: bigint, now: bigint): PriceImpact {
  const buying = side === 'long'
  if (spread.priceImpactK === 0n) {
    const used = buying ? book.ask : book.bid
    const distance = book.mid > used ? book.mid - used : used - book.mid
    return { priceImpactP: (distance * E18 * 100n) / book.mid, priceAfterImpact: used, isDynamic: false }
  }
  const elapsed = now > spread.lastUpdateTimestamp ? now - spread.lastUpdateTimestamp : 0n
  const rate = effectiveDecayRate(spread.buyVolume, spread.sellVolume, spread.decayRate, spread.netVolThreshold)
  const initialVolume = decayVolumeWithPade(buying ? spread.buyVolume : spread.sellVolume, elapsed, rate)
  let priceImpactP = priceImpactFunction(spread.netVolThreshold, spread.priceImpactK, notional, initialVolume, book)
  let priceAfterImpact = book.mid
  if (priceImpactP > 0n) {
    if (buying) priceAfterImpact = (book.mid * (E18 + priceImpactP / 100n)) / E18
    else if (priceImpactP < HUNDRED_PERCENT) priceAfterImpact = (book.mid * (E18 - priceImpactP / 100n)) / E18
    else {
      priceAfterImpact = 0n
      priceImpactP = HUNDRED_PERCENT
    }
  }
  return { priceImpactP, priceAfterImpact, isDynamic: true }
}
