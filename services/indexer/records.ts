import type { ExecutedOrder } from '../../schemas/orders.ts'
import type { ListedPair } from '../../schemas/pair-list.ts'
import { pairById } from '../../schemas/pairs.ts'
import type { RestingOrder } from '../../schemas/limits.ts'
import type { OpenTrade } from '../../schemas/trades.ts'
import type { SubgraphLimit, SubgraphOrder, SubgraphPair, SubgraphTrade } from './subgraph-schemas.ts'
import { fromE18, fromHundredths, fromRatePercent, fromUsdc } from './units.ts'

// Subgraph rows → the records the endpoints serve, in plain numbers. Field names follow the spec
// (2.4) where it defines them; `notional`/`tradeNotional` become `notionalInUsd`/`notionalInUnits`.

export function toListedPair(row: SubgraphPair): ListedPair {
  return {
    id: row.id,
    pair: pairById(Number(row.id))?.symbol ?? null,
    from: row.from,
    to: row.to,
    feed: row.feed,
    group: {
      id: row.group.id,
      name: row.group.name,
      minLeverage: fromHundredths(row.group.minLeverage),
      maxLeverage: fromHundredths(row.group.maxLeverage),
    },
    tradeable: BigInt(row.maxOI) > 0n,
    longOI: fromE18(row.longOI),
    shortOI: fromE18(row.shortOI),
    maxOI: fromUsdc(row.maxOI),
    makerFeeP: fromRatePercent(row.makerFeeP),
    takerFeeP: fromRatePercent(row.takerFeeP),
    spreadP: fromRatePercent(row.spreadP),
    maxLeverage: fromHundredths(row.maxLeverage),
    overnightMaxLeverage: fromHundredths(row.overnightMaxLeverage),
    lastTradePrice: fromE18(row.lastTradePrice),
    curFundingLong: fromE18(row.curFundingLong),
    curFundingShort: fromE18(row.curFundingShort),
    curRollover: fromE18(row.curRollover),
  }
}

/** Pairs in pairIndex order (the source orders ids as strings: 0, 1, 10, ...). */
export function toListedPairs(rows: SubgraphPair[]): ListedPair[] {
  return rows.map(toListedPair).sort((a, b) => Number(a.id) - Number(b.id))
}

export function toRestingOrder(row: SubgraphLimit): RestingOrder {
  return {
    id: row.id,
    trader: row.trader,
    isActive: row.isActive,
    isBuy: row.isBuy,
    isDayTrade: row.isDayTrade,
    limitType: row.limitType,
    openPrice: fromE18(row.openPrice),
    stopLossPrice: fromE18(row.stopLossPrice),
    takeProfitPrice: fromE18(row.takeProfitPrice),
    collateral: fromUsdc(row.collateral),
    notionalInUsd: fromUsdc(row.notional),
    notionalInUnits: fromE18(row.tradeNotional),
    leverage: fromHundredths(row.leverage),
    orderId: row.orderId,
    initiatedAt: row.initiatedAt,
    updatedAt: row.updatedAt,
    pair: row.pair,
  }
}

export function toOpenTrade(row: SubgraphTrade): OpenTrade {
  return {
    id: row.tradeID,
    trader: row.trader,
    pair: row.pair,
    index: Number(row.index),
    isBuy: row.isBuy,
    collateral: fromUsdc(row.collateral),
    leverage: fromHundredths(row.leverage),
    openPrice: fromE18(row.openPrice),
    stopLossPrice: fromE18(row.stopLossPrice),
    takeProfitPrice: fromE18(row.takeProfitPrice),
    notionalInUsd: fromUsdc(row.notional),
    notionalInUnits: fromE18(row.tradeNotional),
    funding: fromUsdc(row.funding),
    rollover: fromUsdc(row.rollover),
    openedAt: row.timestamp,
  }
}

export function toExecutedOrder(row: SubgraphOrder): ExecutedOrder {
  return {
    id: row.id,
    trader: row.trader,
    pair: row.pair,
    tradeId: row.tradeID,
    isBuy: row.isBuy,
    orderType: row.orderType,
    orderAction: row.orderAction,
    price: fromE18(row.price),
    priceAfterImpact: fromE18(row.priceAfterImpact),
    priceImpactPercent: fromHundredths(row.priceImpactP),
    collateral: fromUsdc(row.collateral),
    leverage: fromHundredths(row.leverage),
    notionalInUsd: fromUsdc(row.notional),
    notionalInUnits: fromE18(row.tradeNotional),
    profitPercent: fromHundredths(row.profitPercent),
    totalProfitPercent: fromHundredths(row.totalProfitPercent),
    amountSentToTrader: fromUsdc(row.amountSentToTrader),
    rolloverFee: fromUsdc(row.rolloverFee),
    fundingFee: fromUsdc(row.fundingFee),
    initiatedAt: row.initiatedAt,
    executedAt: row.executedAt,
    executedTx: row.executedTx,
    isCancelled: row.isCancelled,
    cancelReason: row.cancelReason,
  }
}
