// Generated trading history per wallet: closed and open positions, resting and inactive limit/stop
// orders, and orders in every state. The rows agree with each other: a position has the order that
// opened it (and the one that closed it), and a filled limit shares its order id with that order.

import type { LimitRow, LimitType, OrderRow, OrderType, TradeRow, CancelReason } from '../rows.ts'
import type { TradeablePair } from './pairs.ts'
import type { Random } from './random.ts'
import { Timeline } from './timeline.ts'
import type { TraderProfile } from './traders.ts'
import { notionalFor, toLeverage, toOrderPercent, toPrice, toUsdc, unitsForNotional } from './units.ts'

/** No seed row is later than this (2026-01-01T00:00:00Z), whatever the seed; history starts 90 days before. */
export const SEED_HEAD_TIMESTAMP = 1767225600
const HISTORY_SECONDS = 90 * 24 * 3600

const FIRST_ORDER_ID = 1_000_000n
const FIRST_TRADE_ID = 500_000n
const LEVERAGE_CHOICES = [2, 3, 5, 10, 15, 20, 25, 50, 75, 100, 150, 200]
const CLOSE_TYPES: readonly OrderType[] = ['MARKET', 'MARKET', 'MARKET', 'MARKET', 'TP', 'SL', 'LIQ']
const CANCEL_REASONS: readonly CancelReason[] = ['TIMEOUT', 'SLIPPAGE', 'MARKET_CLOSED']
/** a position is liquidated once it has lost this much of its collateral; the trader gets nothing back */
const LIQUIDATION_PNL_PERCENT = -90

export interface Activity {
  trades: TradeRow[]
  limits: LimitRow[]
  orders: OrderRow[]
}

export function generateActivity(random: Random, profiles: readonly TraderProfile[], pairs: readonly TradeablePair[]): Activity {
  const ledger = new Ledger()
  for (const profile of profiles) new TraderHistory(random, ledger, profile, pairs).generate()
  return ledger
}

/** Where the rows of all wallets go, with the chain-wide id counters. */
class Ledger implements Activity {
  trades: TradeRow[] = []
  limits: LimitRow[] = []
  orders: OrderRow[] = []
  private orderId = FIRST_ORDER_ID
  private tradeId = FIRST_TRADE_ID

  nextOrderId(): bigint {
    return this.orderId++
  }

  nextTradeId(): bigint {
    return this.tradeId++
  }
}

/** What a position or order is about, in plain numbers. */
interface Terms {
  pair: TradeablePair
  isBuy: boolean
  collateralUsd: number
  leverage: number
  /** market price when placed */
  price: number
}

type Step = 'closed-position' | 'open-position' | 'active-limit' | 'cancelled-limit' | 'cancelled-order' | 'pending-order'

class TraderHistory {
  private readonly timeline: Timeline
  private readonly trader: string
  private readonly limitSlots = new Map<string, number>()
  private readonly tradeSlots = new Map<string, number>()

  constructor(
    private readonly random: Random,
    private readonly ledger: Ledger,
    private readonly profile: TraderProfile,
    private readonly pairs: readonly TradeablePair[],
  ) {
    this.trader = profile.address
    const start = SEED_HEAD_TIMESTAMP - HISTORY_SECONDS + random.int(0, 24 * 3600)
    this.timeline = new Timeline(random, start, SEED_HEAD_TIMESTAMP, maxEventCount(profile))
  }

  /** History first, then what is still open or resting, then orders the keeper has not settled yet. */
  generate(): void {
    const { closedPositions, cancelledOrders, cancelledLimits, openPositions, activeLimits, pendingOrders } = this.profile
    const past = this.random.shuffled([
      ...repeat('closed-position', closedPositions),
      ...repeat('cancelled-order', cancelledOrders),
      ...repeat('cancelled-limit', cancelledLimits),
    ])
    const present = this.random.shuffled([...repeat('open-position', openPositions), ...repeat('active-limit', activeLimits)])
    for (const step of [...past, ...present, ...repeat('pending-order', pendingOrders)]) this.run(step)
  }

  private run(step: Step): void {
    switch (step) {
      case 'closed-position':
        // History is generated one position at a time, so a closed position always had slot 0 free.
        this.closePosition(this.openPosition(this.drawPair(), 0n))
        return
      case 'open-position': {
        const pair = this.drawPair()
        this.openPosition(pair, this.takeSlot(this.tradeSlots, pair))
        return
      }
      case 'active-limit':
        this.placeLimit(this.drawTerms(), true)
        return
      case 'cancelled-limit': {
        const limit = this.placeLimit(this.drawTerms(), false)
        limit.updatedAt = this.timeline.next()
        return
      }
      case 'cancelled-order':
        this.ledger.orders.push(this.unsettledOrder(this.drawTerms(), this.random.pick(CANCEL_REASONS)))
        return
      case 'pending-order':
        this.ledger.orders.push(this.unsettledOrder(this.drawTerms(), null))
        return
    }
  }

  /** A market order, or a limit/stop order reaching its trigger, that opened a position. */
  private openPosition(pair: TradeablePair, slot: bigint): TradeRow {
    const terms = this.drawTerms(pair)
    const fromLimit = this.random.chance(this.profile.limitFillShare) ? this.placeLimit(terms, false) : undefined
    const initiatedAt = this.timeline.next()
    const executedAt = this.timeline.settle()
    if (fromLimit) fromLimit.updatedAt = executedAt
    const price = fromLimit ? fromLimit.openPrice : toPrice(terms.price)
    const fill = this.fillPrice(price, terms.isBuy)
    const { collateral, leverage, notional } = sizeOf(terms)
    const tradeID = this.ledger.nextTradeId()
    const trade: TradeRow = {
      id: String(tradeID),
      tradeID,
      trader: this.trader,
      pair: terms.pair.id,
      index: slot,
      isBuy: terms.isBuy,
      isOpen: true,
      collateral,
      leverage,
      openPrice: fill.price,
      closePrice: 0n,
      stopLossPrice: this.random.chance(0.4) ? priceAtPnl(fill.price, terms, -this.random.between(20, 80)) : 0n,
      takeProfitPrice: this.random.chance(0.4) ? priceAtPnl(fill.price, terms, this.random.between(25, 200)) : 0n,
      notional,
      tradeNotional: unitsForNotional(notional, fill.price),
      funding: toUsdc(terms.collateralUsd * this.random.between(-0.002, 0.004)),
      rollover: toUsdc(terms.collateralUsd * this.random.between(0, 0.003)),
      timestamp: executedAt,
    }
    this.ledger.trades.push(trade)
    this.ledger.orders.push({
      ...this.orderBasics(terms, fromLimit?.orderId ?? this.ledger.nextOrderId(), initiatedAt),
      tradeID,
      orderType: fromLimit?.limitType ?? 'MARKET',
      price,
      priceAfterImpact: fill.price,
      priceImpactP: fill.impactP,
      tradeNotional: trade.tradeNotional,
      executedAt,
      executedTx: this.random.hex(32),
    })
    return trade
  }

  /** Closes a position later: by hand, at its take-profit or stop-loss, or by liquidation. */
  private closePosition(trade: TradeRow): void {
    const terms = this.termsOf(trade)
    const orderType = this.random.pick(CLOSE_TYPES)
    const pnlPercent = this.closingPnl(orderType)
    const price = priceAtPnl(trade.openPrice, terms, pnlPercent)
    const fill = this.fillPrice(price, !trade.isBuy)
    if (orderType === 'TP') trade.takeProfitPrice = price
    if (orderType === 'SL') trade.stopLossPrice = price
    trade.isOpen = false
    trade.closePrice = fill.price
    trade.funding = toUsdc(terms.collateralUsd * this.random.between(-0.01, 0.02))
    trade.rollover = toUsdc(terms.collateralUsd * this.random.between(0, 0.015))
    const feesPercent = (Number(trade.funding + trade.rollover) / Number(trade.collateral)) * 100
    const totalPercent = orderType === 'LIQ' ? -100 : pnlPercent - feesPercent
    const initiatedAt = this.timeline.next()
    this.ledger.orders.push({
      ...this.orderBasics(terms, this.ledger.nextOrderId(), initiatedAt),
      tradeID: trade.tradeID,
      isBuy: trade.isBuy,
      orderType,
      orderAction: 'Close',
      price,
      priceAfterImpact: fill.price,
      priceImpactP: fill.impactP,
      tradeNotional: trade.tradeNotional,
      profitPercent: toOrderPercent(pnlPercent),
      totalProfitPercent: toOrderPercent(totalPercent),
      amountSentToTrader: toUsdc(Math.max(0, terms.collateralUsd * (1 + totalPercent / 100))),
      rolloverFee: trade.rollover,
      fundingFee: trade.funding,
      executedAt: this.timeline.settle(),
      executedTx: this.random.hex(32),
    })
  }

  private closingPnl(orderType: OrderType): number {
    switch (orderType) {
      case 'TP':
        return this.random.between(25, 200)
      case 'SL':
        return -this.random.between(20, 80)
      case 'LIQ':
        return LIQUIDATION_PNL_PERCENT
      default:
        return this.random.between(-60, 120)
    }
  }

  /** A limit/stop order placed now; the caller sets `updatedAt` when it later fills or is cancelled. */
  private placeLimit(terms: Terms, isActive: boolean): LimitRow {
    const limitType: LimitType = this.random.chance(0.7) ? 'LIMIT' : 'STOP'
    // A LIMIT waits for a better price, a STOP for a breakout.
    const towardsBetter = (limitType === 'LIMIT') === terms.isBuy ? -1 : 1
    const openPrice = toPrice(terms.price * (1 + towardsBetter * this.random.between(0.005, 0.08)))
    const { collateral, leverage, notional } = sizeOf(terms)
    const initiatedAt = this.timeline.next()
    const limit: LimitRow = {
      id: `${this.trader}_${terms.pair.id}_${this.takeSlot(this.limitSlots, terms.pair)}`,
      trader: this.trader,
      pair: terms.pair.id,
      isActive,
      isBuy: terms.isBuy,
      isDayTrade: this.random.chance(0.1),
      limitType,
      openPrice,
      stopLossPrice: this.random.chance(0.3) ? priceAtPnl(openPrice, terms, -this.random.between(20, 80)) : 0n,
      takeProfitPrice: this.random.chance(0.3) ? priceAtPnl(openPrice, terms, this.random.between(25, 200)) : 0n,
      collateral,
      leverage,
      notional,
      tradeNotional: unitsForNotional(notional, openPrice),
      orderId: this.ledger.nextOrderId(),
      initiatedAt,
      // A resting order is sometimes edited after placement (never after the data ends).
      updatedAt:
        isActive && this.random.chance(0.2)
          ? earliest(initiatedAt + BigInt(this.random.int(60, 3600)), BigInt(SEED_HEAD_TIMESTAMP))
          : initiatedAt,
    }
    this.ledger.limits.push(limit)
    return limit
  }

  /** A market open the keeper has not executed: still pending (no reason) or cancelled (with one). */
  private unsettledOrder(terms: Terms, cancelReason: CancelReason | null): OrderRow {
    const initiatedAt = this.timeline.next()
    const executedAt = cancelReason ? this.timeline.settle() : null
    return {
      ...this.orderBasics(terms, this.ledger.nextOrderId(), initiatedAt),
      price: toPrice(terms.price),
      executedAt,
      executedTx: executedAt === null ? null : this.random.hex(32),
      isPending: cancelReason === null,
      isCancelled: cancelReason !== null,
      cancelReason,
    }
  }

  /** What every order has, as for a market open with no outcome yet; callers fill in the rest. */
  private orderBasics(terms: Terms, id: bigint, initiatedAt: bigint): OrderRow {
    const { collateral, leverage, notional } = sizeOf(terms)
    return {
      id: String(id),
      trader: this.trader,
      pair: terms.pair.id,
      tradeID: null,
      isBuy: terms.isBuy,
      orderType: 'MARKET',
      orderAction: 'Open',
      price: 0n,
      priceAfterImpact: 0n,
      priceImpactP: 0n,
      collateral,
      leverage,
      notional,
      tradeNotional: unitsForNotional(notional, toPrice(terms.price)),
      profitPercent: 0n,
      totalProfitPercent: 0n,
      amountSentToTrader: 0n,
      rolloverFee: 0n,
      fundingFee: 0n,
      initiatedAt,
      executedAt: null,
      executedTx: null,
      isPending: false,
      isCancelled: false,
      cancelReason: null,
    }
  }

  /** Buying fills a little above the oracle price, selling a little below. */
  private fillPrice(price: bigint, buying: boolean): { price: bigint; impactP: bigint } {
    const impactPercent = this.random.between(0, 0.08)
    const impact = (price * toOrderPercent(impactPercent)) / 10_000n
    return { price: buying ? price + impact : price - impact, impactP: toOrderPercent(impactPercent) }
  }

  private drawPair(): TradeablePair {
    return this.random.pick(this.pairs)
  }

  private drawTerms(pair = this.drawPair()): Terms {
    return {
      pair,
      isBuy: this.random.chance(0.55),
      collateralUsd: Math.round(this.random.between(20, 5000)),
      leverage: this.random.pick(LEVERAGE_CHOICES.filter((choice) => choice <= pair.maxLeverage)),
      price: pair.price * this.random.between(0.93, 1.07),
    }
  }

  private termsOf(trade: TradeRow): Terms {
    const pair = this.pairs.find((candidate) => candidate.id === trade.pair)
    if (!pair) throw new Error(`trade ${trade.id} is on an unknown pair`)
    return {
      pair,
      isBuy: trade.isBuy,
      collateralUsd: Number(trade.collateral) / 1e6,
      leverage: Number(trade.leverage) / 100,
      price: Number(trade.openPrice) / 1e18,
    }
  }

  /** The next free index of this trader on this pair. */
  private takeSlot(slots: Map<string, number>, pair: TradeablePair): bigint {
    const index = slots.get(pair.id) ?? 0
    slots.set(pair.id, index + 1)
    return BigInt(index)
  }
}

/** Collateral, leverage and notional in on-chain units. */
function sizeOf(terms: Terms): { collateral: bigint; leverage: bigint; notional: bigint } {
  const collateral = toUsdc(terms.collateralUsd)
  const leverage = toLeverage(terms.leverage)
  return { collateral, leverage, notional: notionalFor(collateral, leverage) }
}

/** The price at which a position shows `pnlPercent` of its collateral as profit (negative: loss). */
function priceAtPnl(openPrice: bigint, terms: Pick<Terms, 'isBuy' | 'leverage'>, pnlPercent: number): bigint {
  const moveBasisPoints = BigInt(Math.round((pnlPercent / terms.leverage) * 100 * (terms.isBuy ? 1 : -1)))
  return (openPrice * (10_000n + moveBasisPoints)) / 10_000n
}

/** How many times at most the history of this profile calls Timeline.next(). */
function maxEventCount(profile: TraderProfile): number {
  // A position takes one event to open (two when it opens from a limit order) and one to close; a
  // cancelled limit takes two (placed, cancelled); everything else takes one.
  return (
    3 * profile.closedPositions +
    2 * profile.openPositions +
    profile.activeLimits +
    2 * profile.cancelledLimits +
    profile.cancelledOrders +
    profile.pendingOrders
  )
}

function earliest(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

function repeat<T extends Step>(item: T, times: number): T[] {
  return Array.from({ length: times }, () => item)
}
