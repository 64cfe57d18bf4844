// The stand-in's prices: one deterministic random walk per feed, minute by minute, that passes through the
// simulator's starting mid (services/ingestor/sources/simulated-markets.ts) at an anchor instant: the
// moment `npm start` starts its simulator. History before the anchor therefore ends where the simulator's
// prices begin, and the same anchor and seed always give the same bars.
//
// The walk is built in blocks of a day counted from the anchor: the price at each block's edge walks block
// by block (a day's move per step), and the minutes inside a block follow a bridge between its two edges.
// So any minute is reached in one day's work, whatever its distance from the anchor, and only the blocks in
// use are kept (the most recent few hundred).

import type { AssetClass } from '../../schemas/pairs.ts'
import { STARTING_MIDS } from '../../services/ingestor/sources/simulated-markets.ts'
import type { HistoryFeed } from './catalog.ts'

/** A day's typical move per asset class (standard deviation of the daily log return). */
const DAILY_VOLATILITY: Record<AssetClass, number> = { crypto: 0.03, fx: 0.005, metal: 0.012, energy: 0.02, index: 0.01, stock: 0.02 }
const BLOCK_MINUTES = 1440
/** blocks of minute prices kept per feed, the least recently used dropped first */
const KEPT_BLOCKS = 128

export interface MinuteBar {
  /** the minute's start, Unix seconds */
  time: number
  open: number
  high: number
  low: number
  close: number
}

export class PricePath {
  private readonly sigma: number
  private readonly decimals: number
  private readonly start: number
  /** log prices at the edges of blocks 0, 1, 2, … (forward) and 0, −1, −2, … (back), block 0 starting at the anchor */
  private readonly forwardEdges: number[]
  private readonly backEdges: number[]
  private readonly blocks = new Map<number, Float64Array>()
  /** the block read last: consecutive minutes mostly fall in it */
  private last: { block: number; prices: Float64Array } = { block: Number.NaN, prices: new Float64Array(0) }

  constructor(
    private readonly feed: HistoryFeed,
    private readonly anchorMinute: number,
    private readonly seed: number,
  ) {
    this.sigma = DAILY_VOLATILITY[feed.pair.assetClass] / Math.sqrt(BLOCK_MINUTES)
    this.decimals = -feed.exponent
    this.start = STARTING_MIDS[feed.pair.symbol] ?? 100
    this.forwardEdges = [Math.log(this.start)]
    this.backEdges = [Math.log(this.start)]
  }

  /** The bar of Unix minute k: from the price at k to the one at k + 1, with a wick each side; prices rounded to the feed's exponent. */
  bar(minute: number): MinuteBar {
    return this.rounded(this.rawBar(minute))
  }

  /** The bar unrounded: wider bars are made of these and rounded once (rounding keeps order, so the result is the same). */
  rawBar(minute: number): MinuteBar {
    const open = this.priceAt(minute)
    const close = this.priceAt(minute + 1)
    return {
      time: minute * 60,
      open,
      high: Math.max(open, close) * Math.exp(this.wick(minute, 1)),
      low: Math.min(open, close) * Math.exp(-this.wick(minute, 2)),
      close,
    }
  }

  rounded(bar: MinuteBar): MinuteBar {
    return {
      time: bar.time,
      open: this.round(bar.open),
      high: this.round(bar.high),
      low: this.round(bar.low),
      close: this.round(bar.close),
    }
  }

  /** The price at the start of Unix minute k (the anchor's minute: the starting mid, exactly). */
  priceAt(minute: number): number {
    const offset = minute - this.anchorMinute
    if (offset === 0) return this.start
    const block = Math.floor(offset / BLOCK_MINUTES)
    if (block !== this.last.block) this.last = { block, prices: this.blockPrices(block) }
    return this.last.prices[offset - block * BLOCK_MINUTES]!
  }

  private round(price: number): number {
    return Number(price.toFixed(this.decimals))
  }

  /** The log price at the edge where block `block` starts. */
  private edge(block: number): number {
    const edges = block >= 0 ? this.forwardEdges : this.backEdges
    const index = Math.abs(block)
    for (let next = edges.length; next <= index; next++) {
      // a day's move from one edge to the next, drawn once per block
      const step = this.sigma * Math.sqrt(BLOCK_MINUTES) * this.draw(this.anchorMinute + (block >= 0 ? next - 1 : -next) * BLOCK_MINUTES, 3)
      edges.push(edges[next - 1]! + (block >= 0 ? step : -step))
    }
    return edges[index]!
  }

  /** The prices at each minute start of one block: a bridge of minute steps between its two edges. */
  private blockPrices(block: number): Float64Array {
    const kept = this.blocks.get(block)
    if (kept) {
      this.blocks.delete(block)
      this.blocks.set(block, kept)
      return kept
    }
    const [from, to] = [this.edge(block), this.edge(block + 1)]
    const firstMinute = this.anchorMinute + block * BLOCK_MINUTES
    const walk = new Float64Array(BLOCK_MINUTES + 1)
    for (let index = 1; index <= BLOCK_MINUTES; index++) walk[index] = walk[index - 1]! + this.sigma * this.draw(firstMinute + index - 1, 0)
    const prices = new Float64Array(BLOCK_MINUTES + 1)
    for (let index = 0; index <= BLOCK_MINUTES; index++) {
      const share = index / BLOCK_MINUTES
      prices[index] = Math.exp(from + walk[index]! - share * walk[BLOCK_MINUTES]! + share * (to - from))
    }
    this.blocks.set(block, prices)
    if (this.blocks.size > KEPT_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!)
    return prices
  }

  /** A wick's size in log price, half a minute's move typically (a Rayleigh draw, cheaper than a normal's magnitude). */
  private wick(minute: number, salt: number): number {
    return (this.sigma / 2) * Math.sqrt(-2 * Math.log(1 - hashUnit(this.seed, this.feed.lazerId, minute, salt * 2)))
  }

  /** A standard normal draw that depends only on (seed, feed, minute, salt). */
  private draw(minute: number, salt: number): number {
    const u = 1 - hashUnit(this.seed, this.feed.lazerId, minute, salt * 2)
    const v = hashUnit(this.seed, this.feed.lazerId, minute, salt * 2 + 1)
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
  }
}

/** A uniform draw in [0, 1) from four integers (a murmur3-style finaliser over their mix). */
function hashUnit(seed: number, feed: number, minute: number, salt: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b)
  h = Math.imul(h ^ feed ^ (h >>> 13), 0xc2b2ae35)
  h = Math.imul(h ^ (minute | 0) ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ Math.floor(minute / 2 ** 32) ^ salt ^ (h >>> 13), 0xc2b2ae35)
  h ^= h >>> 16
  return (h >>> 0) / 4294967296
}
