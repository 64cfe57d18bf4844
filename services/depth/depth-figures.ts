import type { DepthBook, DepthSide, Quote, Side } from '../../schemas/depth.ts'
import { availableNotionalUsd, fillPrice, impactPercent, type BookPrice, type ImpactParameters } from './impact-model.ts'

// The figures of the depth and quote endpoints for one pair, from its live price, its open interest
// and its model parameters. Rounded for the wire: impact to 1e-6 %, prices to 10 significant digits,
// available notional down to the cent.

/**
 * The model's prior same-side volume V0. The indexed source does not carry the venue's decaying
 * buy/sell volume, so figures are for a fresh window: the least impact a trade of that size gets.
 */
const PRIOR_VOLUME_USD = 0

export interface LivePrice extends BookPrice {
  timestampSeconds: number
}

export interface OpenInterest {
  /** ceiling per side, USD; 0 means none */
  maxUsd: number
  /** open interest per side, in units of the base asset */
  units: Record<Side, number>
}

export interface PairMarket {
  symbol: string
  chainId: number
  price: LivePrice
  openInterest: OpenInterest
  parameters: ImpactParameters
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
    availableNotionalUsd: toCentsDown(available(market, side)),
  }
}

function depthSide(market: PairMarket, side: Side, levelsUsd: readonly number[]): DepthSide {
  const room = available(market, side)
  return {
    availableNotionalUsd: toCentsDown(room),
    levels: levelsUsd.filter((notionalUsd) => notionalUsd <= room).map((notionalUsd) => level(market, side, notionalUsd)),
  }
}

function level(market: PairMarket, side: Side, notionalUsd: number) {
  const impact = impactPercent(market.price, market.parameters, notionalUsd, PRIOR_VOLUME_USD)
  return {
    notionalUsd,
    fillPrice: toSignificant(fillPrice(market.price.mid, side, impact)),
    impactPercent: toMillionths(impact),
  }
}

/** Open interest is held in asset units; at the live mid it is worth this much USD. */
function available(market: PairMarket, side: Side): number {
  const { maxUsd, units } = market.openInterest
  return availableNotionalUsd(maxUsd, units[side] * market.price.mid)
}

function pricedOff({ bid, mid, ask, timestampSeconds }: LivePrice) {
  return { bid, mid, ask, timestampSeconds }
}

const toMillionths = (value: number) => Math.round(value * 1e6) / 1e6
const toSignificant = (value: number) => Number(value.toPrecision(10))
const toCentsDown = (value: number) => Math.floor(value * 100) / 100
