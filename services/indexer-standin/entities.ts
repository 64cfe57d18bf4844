// The subset of the subgraph's schema this stand-in serves: each entity's GraphQL field types. The
// mapped types tie every spec to its row type, so a field missing on either side does not compile.

import type { GroupRow, LimitRow, OrderRow, PairRow, TradeRow } from './rows.ts'

type ScalarName = 'ID' | 'String' | 'Bytes' | 'BigInt' | 'Boolean'
export type EntityName = 'Group' | 'Pair' | 'Trade' | 'Limit' | 'Order'
type BaseType = ScalarName | EntityName
/** GraphQL type of a field; a field typed with an entity name is a relation holding that entity's id. */
export type FieldType = BaseType | `${BaseType}!`

export interface EntitySpec {
  name: EntityName
  /** plural query, e.g. `pairs` */
  collection: string
  /** single-row query by id, e.g. `pair` */
  single: string
  fields: Readonly<Record<string, FieldType>>
}

type FieldTypes<Row> = { readonly [Field in keyof Row]-?: FieldType }

function entity<Row>(name: EntityName, collection: string, single: string, fields: FieldTypes<Row>): EntitySpec {
  return { name, collection, single, fields }
}

const GROUP = entity<GroupRow>('Group', 'groups', 'group', {
  id: 'ID!',
  name: 'String!',
  minLeverage: 'BigInt!',
  maxLeverage: 'BigInt!',
})

const PAIR = entity<PairRow>('Pair', 'pairs', 'pair', {
  id: 'ID!',
  from: 'String!',
  to: 'String!',
  feed: 'Bytes!',
  group: 'Group!',
  longOI: 'BigInt!',
  shortOI: 'BigInt!',
  maxOI: 'BigInt!',
  makerFeeP: 'BigInt!',
  takerFeeP: 'BigInt!',
  maxLeverage: 'BigInt!',
  overnightMaxLeverage: 'BigInt!',
  spreadP: 'BigInt!',
  lastTradePrice: 'BigInt!',
  curFundingLong: 'BigInt!',
  curFundingShort: 'BigInt!',
  curRollover: 'BigInt!',
})

const TRADE = entity<TradeRow>('Trade', 'trades', 'trade', {
  id: 'ID!',
  tradeID: 'BigInt!',
  trader: 'Bytes!',
  pair: 'Pair!',
  index: 'BigInt!',
  isBuy: 'Boolean!',
  isOpen: 'Boolean!',
  collateral: 'BigInt!',
  leverage: 'BigInt!',
  openPrice: 'BigInt!',
  closePrice: 'BigInt!',
  stopLossPrice: 'BigInt!',
  takeProfitPrice: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  funding: 'BigInt!',
  rollover: 'BigInt!',
  timestamp: 'BigInt!',
})

const LIMIT = entity<LimitRow>('Limit', 'limits', 'limit', {
  id: 'ID!',
  trader: 'Bytes!',
  pair: 'Pair!',
  isActive: 'Boolean!',
  isBuy: 'Boolean!',
  isDayTrade: 'Boolean!',
  limitType: 'String!',
  openPrice: 'BigInt!',
  stopLossPrice: 'BigInt!',
  takeProfitPrice: 'BigInt!',
  collateral: 'BigInt!',
  leverage: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  orderId: 'BigInt!',
  initiatedAt: 'BigInt!',
  updatedAt: 'BigInt!',
})

const ORDER = entity<OrderRow>('Order', 'orders', 'order', {
  id: 'ID!',
  trader: 'Bytes!',
  pair: 'Pair!',
  tradeID: 'BigInt',
  isBuy: 'Boolean!',
  orderType: 'String!',
  orderAction: 'String!',
  price: 'BigInt!',
  priceAfterImpact: 'BigInt!',
  priceImpactP: 'BigInt!',
  collateral: 'BigInt!',
  leverage: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  profitPercent: 'BigInt!',
  totalProfitPercent: 'BigInt!',
  amountSentToTrader: 'BigInt!',
  rolloverFee: 'BigInt!',
  fundingFee: 'BigInt!',
  initiatedAt: 'BigInt!',
  executedAt: 'BigInt',
  executedTx: 'Bytes',
  isPending: 'Boolean!',
  isCancelled: 'Boolean!',
  cancelReason: 'String',
})

export const ENTITIES: readonly EntitySpec[] = [GROUP, PAIR, TRADE, LIMIT, ORDER]

const ENTITY_NAMES = new Set<string>(ENTITIES.map((spec) => spec.name))

/** The type without its non-null mark: `BigInt!` → `BigInt`. */
export function baseTypeOf(fieldType: FieldType): BaseType {
  return fieldType.replace(/!$/, '') as BaseType
}

/** The entity a relation field points to, or undefined for a scalar field. */
export function relationTarget(fieldType: FieldType): EntityName | undefined {
  const base = baseTypeOf(fieldType)
  return ENTITY_NAMES.has(base) ? (base as EntityName) : undefined
}
