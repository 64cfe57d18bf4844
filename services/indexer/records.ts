import type { ExecutedOrder } from '../../schemas/orders.ts'
import type { ListedPair } from '../../schemas/pair-list.ts'
import { pairById, pairBySourceSpelling } from '../../schemas/pairs.ts'
import type { RestingOrder } from '../../schemas/limits.ts'
import type { OpenTrade } from '../../schemas/trades.ts'
import type { SubgraphLimit, SubgraphOrder, SubgraphPair, SubgraphTrade } from './subgraph-schemas.ts'
import { accruedFee, fromE18, fromFundingRate, fromHundredths, fromRatePercent, fromUsdc } from './units.ts'

// Subgraph rows → the records the endpoints serve, in plain numbers. Field names follow the spec
// (2.4) where it defines them; `notional`/`tradeNotional` become `notionalInUsd`/`notionalInUnits`.
// Each scaling follows the public clients' arithmetic (see README, "Units").

export function toListedPair(row: SubgraphPair): ListedPair {
  // the pair's symbol by its spelling on the source, falling back to its id for an unknown spelling
  const listed = pairBySourceSpelling(row.from, row.to) ?? pairById(Number(row.id))
  return {
    id: row.id,
    pair: listed?.symbol ?? null,
    from: row.from,
    to: row.to,
    feed: row.feed,
    group: {
      id: row.group.id,
      name: row.group.name,
      minLeverage: fromHundredths(row.group.minLeverage),
      maxLeverage: fromHundredths(row.group.maxLeverage),
    },
    tradeable: row.maxOI !== null && BigInt(row.maxOI) > 0n,
    longOI: fromE18(row.longOI),
    shortOI: fromE18(row.shortOI),
    maxOI: fromUsdc(row.maxOI),
    makerFeeP: fromRatePercent(row.makerFeeP),
    takerFeeP: fromRatePercent(row.takerFeeP),
    spreadP: fromRatePercent(row.spreadP),
    maxLeverage: fromHundredths(row.maxLeverage),
    overnightMaxLeverage: fromHundredths(row.overnightMaxLeverage),
    lastTradePrice: fromE18(row.lastTradePrice),
    curFundingLong: fromFundingRate(row.curFundingLong),
    curFundingShort: fromFundingRate(row.curFundingShort),
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
    // the subgraph's Limit has no such field (no public client reads one); resting orders placed
    // through the venue's SDK are not day trades
    isDayTrade: false,
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
    pair: pairRef(row.pair),
  }
}

export function toOpenTrade(row: SubgraphTrade): OpenTrade {
  const { pair } = row
  return {
    id: row.tradeID,
    trader: row.trader,
    pair: pairRef(pair),
    index: Number(row.index),
    isBuy: row.isBuy,
    collateral: fromUsdc(row.collateral),
    leverage: fromHundredths(row.leverage),
    openPrice: fromE18(row.openPrice),
    stopLossPrice: fromE18(row.stopLossPrice),
    takeProfitPrice: fromE18(row.takeProfitPrice),
    notionalInUsd: fromUsdc(row.notional),
    notionalInUnits: fromE18(row.tradeNotional),
    funding: accruedFee(row.isBuy ? pair.accFundingLong : pair.accFundingShort, row.funding, row.collateral, row.leverage),
    rollover: accruedFee(row.isBuy ? pair.accRolloverLong : pair.accRolloverShort, row.rollover, row.collateral, row.leverage),
    openedAt: row.timestamp,
  }
}

export function toExecutedOrder(row: SubgraphOrder): ExecutedOrder {
  return {
    id: row.id,
    trader: row.trader,
    pair: pairRef(row.pair),
    // the source keeps no nulls: "0" (or "") for no position, NONE for no cancellation, zeros and empty
    // bytes for an order not executed
    tradeId: row.tradeID === null || row.tradeID === '0' || row.tradeID === '' ? null : row.tradeID,
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
    executedAt: row.executedAt === null || row.executedAt === '0' ? null : row.executedAt,
    executedTx: row.executedTx === null || row.executedTx === '0x' ? null : row.executedTx,
    isCancelled: row.isCancelled,
    cancelReason: row.cancelReason === null || row.cancelReason === 'NONE' ? null : row.cancelReason,
  }
}

function pairRef(pair: { id: string; from: string; to: string }): { id: string; from: string; to: string } {
  return { id: pair.id, from: pair.from, to: pair.to }
}
