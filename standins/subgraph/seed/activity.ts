// Generated trading history per wallet: closed and open positions, resting and inactive limit/stop
// orders, and orders in every state. The rows agree with each other: a position has the order that
// opened it (and the one that closed it), and a filled limit shares its order id with that order.

import type { LimitRow, LimitType, OrderRow, TradeRow } from '../entities.ts'
import type { TradeablePair } from './pairs.ts'
import type { Random } from './random.ts'
import { HISTORY_SECONDS, SEED_HEAD_TIMESTAMP, Timeline } from './timeline.ts'
import type { TraderProfile } from './traders.ts'
import { notionalFor, toE18, toLeverage, toOrderPercent, toPrice, toUsdc, unitsForNotional } from './units.ts'

type OrderType = OrderRow['orderType']
type CancelReason = OrderRow['cancelReason']

const FIRST_ORDER_ID = 1_000_000n
const FIRST_TRADE_ID = 500_000n
const LEVERAGE_CHOICES = [2, 3, 5, 10, 15, 20, 25, 50, 75, 100, 150, 200]
const CLOSE_TYPES: readonly OrderType[] = ['Market', 'Market', 'Market', 'Market', 'TP', 'SL', 'LIQ']
const CANCEL_REASONS: readonly CancelReason[] = ['SLIPPAGE', 'MARKET_CLOSED', 'EXPOSURE_LIMITS', 'PRICE_IMPACT']
/** the order type of a position opened by a resting order of this kind */
const ORDER_TYPE_OF: Readonly<Record<LimitType, 'Limit' | 'Stop'>> = { LIMIT: 'Limit', STOP: 'Stop' }
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
/** opening fees, as fractions of the notional: to the venue and to the vault */
const DEV_FEE = 0.0008
const VAULT_FEE = 0.0002
const ORACLE_FEE_USD = 0.1
const LIQUIDATION_FEE = 0.05
/** a position is liquidated once it has lost this much of its collateral; the trader gets nothing back */
const LIQUIDATION_PNL_PERCENT = -90

export interface Activity {
  trades: TradeRow[]
  limits: LimitRow[]
  orders: OrderRow[]
}

/** The chain's block number at a Unix time. */
export type BlockAt = (timestamp: bigint) => bigint

export function generateActivity(
  random: Random,
  profiles: readonly TraderProfile[],
  pairs: readonly TradeablePair[],
  blockAt: BlockAt,
): Activity {
  const ledger = new Ledger()
  for (const profile of profiles) new TraderHistory(random, ledger, profile, pairs, blockAt).generate()
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
    private readonly blockAt: BlockAt,
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
    const isDayTrade = this.random.chance(0.1)
    if (fromLimit) fromLimit.isDayTrade = isDayTrade
    const { collateral, leverage, notional } = sizeOf(terms)
    const tradeID = String(this.ledger.nextTradeId())
    const side = terms.isBuy ? 'long' : 'short'
    const trade: TradeRow = {
      id: tradeID,
      tradeID,
      trader: this.trader,
      pair: terms.pair.id,
      index: String(slot),
      tradeType: fromLimit ? ORDER_TYPE_OF[fromLimit.limitType] : 'Market',
      isBuy: terms.isBuy,
      isOpen: true,
      isDayTrade,
      closeInitiated: 0n,
      collateral,
      leverage,
      highestLeverage: leverage,
      openPrice: fill.price,
      closePrice: 0n,
      stopLossPrice: this.random.chance(0.4) ? priceAtPnl(fill.price, terms, -this.random.between(20, 80)) : 0n,
      takeProfitPrice: this.random.chance(0.4) ? priceAtPnl(fill.price, terms, this.random.between(25, 200)) : 0n,
      notional,
      tradeNotional: unitsForNotional(notional, fill.price),
      // the pair's per-OI accumulators when the position opened; the pair's have grown since by the
      // fraction of the notional the position owes (funding can be received: a negative fraction)
      funding: terms.pair.accFunding[side] - toE18(this.random.between(-0.002, 0.004)),
      rollover: terms.pair.accRollover[side] - toE18(this.random.between(0, 0.003)),
      builder: ZERO_ADDRESS,
      builderFee: 0n,
      timestamp: executedAt,
    }
    this.ledger.trades.push(trade)
    this.ledger.orders.push({
      ...this.orderBasics(terms, fromLimit?.orderId ?? String(this.ledger.nextOrderId()), initiatedAt),
      tradeID,
      limitID: fromLimit?.id ?? '',
      orderType: trade.tradeType,
      isDayTrade,
      price,
      priceAfterImpact: fill.price,
      priceImpactP: fill.impactP,
      tradeNotional: trade.tradeNotional,
      devFee: toUsdc(Number(notional) * 1e-6 * DEV_FEE),
      vaultFee: toUsdc(Number(notional) * 1e-6 * VAULT_FEE),
      oracleFee: toUsdc(ORACLE_FEE_USD),
      ...this.execution(executedAt),
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
    // what the position paid while open, as fractions of its notional
    const notionalUsd = terms.collateralUsd * terms.leverage
    const fundingFee = toUsdc(notionalUsd * this.random.between(-0.002, 0.004))
    const rolloverFee = toUsdc(notionalUsd * this.random.between(0, 0.003))
    const feesPercent = (Number(fundingFee + rolloverFee) / Number(trade.collateral)) * 100
    const totalPercent = orderType === 'LIQ' ? -100 : pnlPercent - feesPercent
    const initiatedAt = this.timeline.next()
    this.ledger.orders.push({
      ...this.orderBasics(terms, String(this.ledger.nextOrderId()), initiatedAt),
      tradeID: trade.tradeID,
      isBuy: trade.isBuy,
      orderType,
      orderAction: 'Close',
      isDayTrade: trade.isDayTrade,
      price,
      priceAfterImpact: fill.price,
      priceImpactP: fill.impactP,
      tradeNotional: trade.tradeNotional,
      profitPercent: toOrderPercent(pnlPercent),
      totalProfitPercent: toOrderPercent(totalPercent),
      amountSentToTrader: toUsdc(Math.max(0, terms.collateralUsd * (1 + totalPercent / 100))),
      closePercent: toOrderPercent(100),
      liquidationFee: orderType === 'LIQ' ? toUsdc(terms.collateralUsd * LIQUIDATION_FEE) : 0n,
      rolloverFee,
      fundingFee,
      ...this.execution(this.timeline.settle()),
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
    const id = `${this.trader}_${terms.pair.id}_${this.takeSlot(this.limitSlots, terms.pair)}`
    const limit: LimitRow = {
      id,
      uniqueId: `${id}_${initiatedAt}`,
      trader: this.trader,
      pair: terms.pair.id,
      block: this.blockAt(initiatedAt),
      isActive,
      isBuy: terms.isBuy,
      limitType,
      // a day trade is marked when the order opens its position
      isDayTrade: false,
      executionStarted: 0n,
      openPrice,
      stopLossPrice: this.random.chance(0.3) ? priceAtPnl(openPrice, terms, -this.random.between(20, 80)) : 0n,
      takeProfitPrice: this.random.chance(0.3) ? priceAtPnl(openPrice, terms, this.random.between(25, 200)) : 0n,
      collateral,
      leverage,
      notional,
      tradeNotional: unitsForNotional(notional, openPrice),
      orderId: String(this.ledger.nextOrderId()),
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
    return {
      ...this.orderBasics(terms, String(this.ledger.nextOrderId()), initiatedAt),
      price: toPrice(terms.price),
      ...(cancelReason ? this.execution(this.timeline.settle()) : {}),
      isPending: cancelReason === null,
      isCancelled: cancelReason !== null,
      cancelReason: cancelReason ?? 'NONE',
    }
  }

  /** When and in which block and transaction an order was executed (or cancelled). */
  private execution(executedAt: bigint): Pick<OrderRow, 'executedAt' | 'executedBlock' | 'executedTx'> {
    return { executedAt, executedBlock: this.blockAt(executedAt), executedTx: this.random.hex(32) }
  }

  /** What every order has, as for a market open with no outcome yet; callers fill in the rest. */
  private orderBasics(terms: Terms, id: string, initiatedAt: bigint): OrderRow {
    const { collateral, leverage, notional } = sizeOf(terms)
    return {
      id,
      trader: this.trader,
      pair: terms.pair.id,
      // no position yet
      tradeID: '0',
      limitID: '',
      isBuy: terms.isBuy,
      orderType: 'Market',
      orderAction: 'Open',
      price: 0n,
      priceAfterImpact: 0n,
      priceImpactP: 0n,
      collateral,
      leverage,
      notional,
      tradeNotional: unitsForNotional(notional, toPrice(terms.price)),
      closePercent: 0n,
      profitPercent: 0n,
      totalProfitPercent: 0n,
      amountSentToTrader: 0n,
      devFee: 0n,
      vaultFee: 0n,
      oracleFee: 0n,
      liquidationFee: 0n,
      rolloverFee: 0n,
      fundingFee: 0n,
      isDayTrade: false,
      builder: ZERO_ADDRESS,
      builderFee: 0n,
      initiatedAt,
      initiatedBlock: this.blockAt(initiatedAt),
      initiatedTx: this.random.hex(32),
      // graph-node keeps no nulls here: an unexecuted order has zeros and empty bytes
      executedAt: 0n,
      executedBlock: 0n,
      executedTx: '0x',
      isPending: false,
      isCancelled: false,
      cancelReason: 'NONE',
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
