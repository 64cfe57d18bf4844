// What the subgraph keeps as running totals, derived from the generated activity: open positions and
// resting orders per pair, collateral per group and side, per-user statistics, the protocol's metadata
// row and the vault.

import type { Activity } from './activity.ts'
import type { GroupRow, MetaDataRow, PairRow, StatFields, UserRow, VaultRow } from '../entities.ts'
import { toLeverage, toUsdc } from './units.ts'

/** The one metadata row, as clients address it: `metaData(id: "ostium")`. */
export const META_DATA_ID = 'ostium'
/** The one vault row, as clients address it: `vault(id: "usdc-vault")`. */
export const VAULT_ID = 'usdc-vault'
const VAULT_ASSETS_USD = 60_000_000

export function countOpenPerPair(pairs: PairRow[], activity: Activity): void {
  const openTrades = countBy(
    activity.trades.filter((trade) => trade.isOpen),
    (trade) => trade.pair,
  )
  const restingOrders = countBy(
    activity.limits.filter((limit) => limit.isActive),
    (limit) => limit.pair,
  )
  for (const pair of pairs) {
    pair.totalOpenTrades = BigInt(openTrades.get(pair.id) ?? 0)
    pair.totalOpenLimitOrders = BigInt(restingOrders.get(pair.id) ?? 0)
  }
}

/** Collateral of the open positions, per group and side (what the contract's group cap counts). */
export function sumGroupCollateral(groups: GroupRow[], pairs: readonly PairRow[], activity: Activity): void {
  const groupOf = new Map(pairs.map((pair) => [pair.id, pair.group]))
  for (const group of groups) {
    const open = activity.trades.filter((trade) => trade.isOpen && groupOf.get(trade.pair) === group.id)
    group.longCollateral = sum(open.filter((trade) => trade.isBuy).map((trade) => trade.collateral))
    group.shortCollateral = sum(open.filter((trade) => !trade.isBuy).map((trade) => trade.collateral))
  }
}

export function buildUsers(traders: readonly string[], activity: Activity): UserRow[] {
  const of = <Row extends { trader: string }>(rows: readonly Row[]) => groupBy(rows, (row) => row.trader)
  const [trades, limits, orders] = [of(activity.trades), of(activity.limits), of(activity.orders)]
  return traders.map((trader) => ({
    id: trader,
    keeperAllowance: 0n,
    ...statsOf({ trades: trades.get(trader) ?? [], limits: limits.get(trader) ?? [], orders: orders.get(trader) ?? [] }),
  }))
}

export function buildMetaData(activity: Activity, userCount: number): MetaDataRow {
  return {
    id: META_DATA_ID,
    liqMarginThresholdP: toLeverage(25),
    liqThresholdP: toLeverage(90),
    maxNegativePnlOnOpenP: 40n,
    isTradingPaused: false,
    isCallbackPaused: false,
    marketOrdersTimeout: 30n,
    maxAllowedCollateral: toUsdc(1_000_000),
    maxPendingMarketOrders: 5n,
    maxTradesPerPair: 3n,
    totalUsers: BigInt(userCount),
    ...protocolTotals(statsOf(activity)),
  }
}

/** The vault row; the settlement cycle (vault-settlements.ts) fills in its last settlement and pending requests. */
export function buildVault(): VaultRow {
  return {
    id: VAULT_ID,
    assets: toUsdc(VAULT_ASSETS_USD),
    shares: toUsdc(VAULT_ASSETS_USD * 0.9),
    sharePrice: toUsdc(1.11),
    currentEpoch: 100n,
    currentEpochStart: 0n,
    currentEpochEnd: 0n,
    currentMaxSupply: 0n,
    accPnlPerTokenUsed: 0n,
    maxDiscountP: 0n,
    maxDiscountThresholdP: 0n,
    rewardsPerToken: 0n,
    totalLockedUsers: 0n,
    withdrawWindow: 0n,
    lastSettlementId: null,
    lastSettlementTs: null,
    lastSettlementOpenPnl: null,
    maxSettlementInterval: null,
    withdrawSettlementDelay: null,
    totalPendingDepositAssets: null,
    totalPendingWithdrawShares: null,
    requestsStart: null,
    requestsEvery: null,
    requestsCount: null,
  }
}

function statsOf({ trades, limits, orders }: Activity): StatFields {
  const closes = orders.filter((order) => order.orderAction === 'Close')
  const executed = orders.filter((order) => !order.isPending && !order.isCancelled)
  const volumeOf = (rows: ReadonlyArray<{ notional: bigint }>) => sum(rows.map((row) => row.notional))
  const feeTotal = (field: 'devFee' | 'vaultFee' | 'oracleFee' | 'liquidationFee' | 'rolloverFee' | 'fundingFee') =>
    sum(orders.map((order) => order[field]))
  const typed = (orderType: string) => BigInt(orders.filter((order) => order.orderType === orderType).length)
  return {
    totalVolume: volumeOf(executed),
    totalOpenVolume: volumeOf(trades.filter((trade) => trade.isOpen)),
    totalClosedVolume: volumeOf(closes),
    totalClosedCollateral: sum(closes.map((order) => order.collateral)),
    totalPnL: sum(closes.map((order) => order.amountSentToTrader - order.collateral)),
    netFundingPayment: feeTotal('fundingFee'),
    totalTrades: BigInt(trades.length),
    totalOpenTrades: BigInt(trades.filter((trade) => trade.isOpen).length),
    totalMarketOrders: typed('Market'),
    totalOpenLimitOrders: BigInt(limits.filter((limit) => limit.isActive).length),
    totalCancelledOrders: BigInt(orders.filter((order) => order.isCancelled).length),
    totalProfitTrades: BigInt(closes.filter((order) => order.amountSentToTrader > order.collateral).length),
    totalLossTrades: BigInt(closes.filter((order) => order.amountSentToTrader <= order.collateral).length),
    totalTPOrders: typed('TP'),
    totalSLOrders: typed('SL'),
    totalLIQOrders: typed('LIQ'),
    totalDevFee: feeTotal('devFee'),
    totalVaultFee: feeTotal('vaultFee'),
    totalOracleFee: feeTotal('oracleFee'),
    totalLiquidationFee: feeTotal('liquidationFee'),
    totalRolloverFee: feeTotal('rolloverFee'),
  }
}

/** The protocol keeps the per-user totals less the user-only ones. */
function protocolTotals({
  totalClosedCollateral: _collateral,
  netFundingPayment: _funding,
  totalCancelledOrders: _cancelled,
  ...totals
}: StatFields): Omit<StatFields, 'totalClosedCollateral' | 'netFundingPayment' | 'totalCancelledOrders'> {
  return totals
}

function groupBy<Row>(rows: readonly Row[], key: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group) group.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}

function countBy<Row>(rows: readonly Row[], key: (row: Row) => string): Map<string, number> {
  return new Map([...groupBy(rows, key)].map(([name, group]) => [name, group.length]))
}

function sum(values: readonly bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n)
}
