import type { DepthBook, DepthSide, Quote, Side } from '../../schemas/depth.ts'
import { fromFixedPoint } from '../indexer/units.ts'
import type { PairMarketState } from '../indexer/market-state.ts'
import { openingPriceImpact, type BookE18, type DynamicSpread } from './impact-model.ts'
import { availableNotional } from './trading-caps.ts'

// The figures of the depth and quote endpoints for one pair, from its live price and its state on the
// indexed source, by the contract's arithmetic. Rounded for the wire: impact to 1e-6 %, prices to 10
// significant digits, available notional down to the cent.

export interface LivePrice {
  bid: number
  mid: number
  ask: number
  timestampSeconds: number
}

export interface PairMarket {
  symbol: string
  chainId: number
  price: LivePrice
  state: PairMarketState
  /** Unix seconds: how long the recorded volume has been decaying */
  now: number
}

export function depthBook(market: PairMarket, levelsUsd: readonly number[]): DepthBook {
  return {
    pair: market.symbol,
    chainId: market.chainId,
    ...pricedOff(market.price),
    long: depthSide(market, 'long', levelsUsd),
    short: depthSide(market, 'short', levelsUsd),
  }
}

export function quote(market: PairMarket, side: Side, notionalUsd: number): Quote {
  const priced = level(market, side, notionalUsd)
  return {
    pair: market.symbol,
    chainId: market.chainId,
    side,
    notionalUsd,
    ...pricedOff(market.price),
    fillPrice: priced.fillPrice,
    impactPercent: priced.impactPercent,
    availableNotionalUsd: available(market, side),
  }
}

function depthSide(market: PairMarket, side: Side, levelsUsd: readonly number[]): DepthSide {
  const room = available(market, side)
  return {
    availableNotionalUsd: room,
    levels: levelsUsd.filter((notionalUsd) => notionalUsd <= room).map((notionalUsd) => level(market, side, notionalUsd)),
  }
}

function level(market: PairMarket, side: Side, notionalUsd: number) {
  const impact = openingPriceImpact(
    bookOf(market.price),
    spreadOf(market.state),
    side,
    usdToE18(notionalUsd),
    BigInt(Math.floor(market.now)),
  )
  return {
    notionalUsd,
    fillPrice: toSignificant(fromFixedPoint(String(impact.priceAfterImpact), 18)),
    impactPercent: toMillionths(fromFixedPoint(String(impact.priceImpactP), 18)),
  }
}

/** USD down to the cent. */
function available(market: PairMarket, side: Side): number {
  const usdc = availableNotional(market.state, side, toE18(market.price.mid))
  return fromFixedPoint(String((usdc / 10_000n) * 10_000n), 6)
}

/** A deployment without the dynamic-spread fields is an older contract: K 0, the bid/ask model. */
function spreadOf(state: PairMarketState): DynamicSpread {
  return {
    priceImpactK: state.priceImpactK ?? 0n,
    netVolThreshold: state.netVolThreshold ?? 0n,
    decayRate: state.decayRate ?? 0n,
    buyVolume: state.buyVolume ?? 0n,
    sellVolume: state.sellVolume ?? 0n,
    lastUpdateTimestamp: state.lastUpdateTimestamp ?? 0n,
  }
}

function bookOf({ bid, mid, ask }: LivePrice): BookE18 {
  return { bid: toE18(bid), mid: toE18(mid), ask: toE18(ask) }
}

/** A price row's number ×1e18 (its first 8 decimals are kept exactly). */
function toE18(value: number): bigint {
  return BigInt(Math.round(value * 1e8)) * 10n ** 10n
}

/** A notional in USD as the contract sizes a trade (collateral ×1e6 · leverage ×1e2 · 1e10): USD ×1e18, to the micro-dollar. */
function usdToE18(usd: number): bigint {
  return BigInt(Math.round(usd * 1e6)) * 10n ** 12n
}

function pricedOff({ bid, mid, ask, timestampSeconds }: LivePrice) {
  return { bid, mid, ask, timestampSeconds }
}

const toMillionths = (value: number) => Math.round(value * 1e6) / 1e6
const toSignificant = (value: number) => Number(value.toPrecision(10))
