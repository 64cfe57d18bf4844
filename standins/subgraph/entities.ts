// The venue subgraph's schema as reconstructed from its public clients (see README, "Where each field
// comes from"): each entity's GraphQL field types, from which the schema text, the filters and the row
// types are generated. A relation field holds the target's id; an enum field holds the value's name.

type ScalarName = 'ID' | 'String' | 'Bytes' | 'BigInt' | 'Boolean'
export type EntityName =
  | 'Group'
  | 'Fee'
  | 'Pair'
  | 'Trade'
  | 'Limit'
  | 'Order'
  | 'MetaData'
  | 'User'
  | 'UserPairStat'
  | 'UserGroupStat'
  | 'Vault'
  | 'LpAction'
  | 'LpNFT'
  | 'LpShare'
  | 'ShareToAssetsPriceDaily'
  | 'EpochShare'

/** Enum types and their values, as the subgraph stores them (clients filter `orderType: "Market"`). */
export const ENUMS = {
  OrderType: ['Market', 'Limit', 'Stop', 'TP', 'SL', 'LIQ'],
  OrderAction: ['Open', 'Close'],
  CancelReason: [
    'NONE',
    'PAUSED',
    'MARKET_CLOSED',
    'SLIPPAGE',
    'TP_REACHED',
    'SL_REACHED',
    'EXPOSURE_LIMITS',
    'PRICE_IMPACT',
    'MAX_LEVERAGE',
    'NO_TRADE',
    'UNDER_LIQUIDATION',
    'NOT_HIT',
    'GAIN_LOSS',
    'DAY_TRADE_NOT_ALLOWED',
    'CLOSE_DAY_TRADE_NOT_ALLOWED',
  ],
  TradeType: ['Market', 'Limit', 'Stop'],
} as const
export type EnumName = keyof typeof ENUMS

type BaseType = ScalarName | EnumName | EntityName
/** GraphQL type of a field; a field typed with an entity name is a relation holding that entity's id. */
export type FieldType = BaseType | `${BaseType}!`
type Fields = Readonly<Record<string, FieldType>>

export interface EntitySpec {
  name: EntityName
  /** plural query, e.g. `pairs`, `metaDatas`, `shareToAssetsPriceDailies` */
  collection: string
  /** single-row query by id, e.g. `pair` */
  single: string
  fields: Fields
}

const GROUP_FIELDS = {
  id: 'ID!',
  name: 'String!',
  minLeverage: 'BigInt!',
  maxLeverage: 'BigInt!',
  maxCollateralP: 'BigInt!',
  longCollateral: 'BigInt!',
  shortCollateral: 'BigInt!',
} as const satisfies Fields

const FEE_FIELDS = { id: 'ID!', minLevPos: 'BigInt!', oracleFee: 'BigInt!', liqFeeP: 'BigInt!' } as const satisfies Fields

const PAIR_FIELDS = {
  id: 'ID!',
  from: 'String!',
  to: 'String!',
  feed: 'Bytes!',
  oracle: 'String!',
  group: 'Group!',
  fee: 'Fee!',
  longOI: 'BigInt!',
  shortOI: 'BigInt!',
  maxOI: 'BigInt!',
  volume: 'BigInt!',
  buyVolume: 'BigInt!',
  sellVolume: 'BigInt!',
  lastUpdateTimestamp: 'BigInt!',
  netVolThreshold: 'BigInt!',
  decayRate: 'BigInt!',
  priceImpactK: 'BigInt!',
  makerFeeP: 'BigInt!',
  takerFeeP: 'BigInt!',
  usageFeeP: 'BigInt!',
  vaultFeePercent: 'BigInt!',
  utilizationThresholdP: 'BigInt!',
  makerMaxLeverage: 'BigInt!',
  maxLeverage: 'BigInt!',
  overnightMaxLeverage: 'BigInt!',
  spreadP: 'BigInt!',
  lastTradePrice: 'BigInt!',
  totalOpenTrades: 'BigInt!',
  totalOpenLimitOrders: 'BigInt!',
  curFundingLong: 'BigInt!',
  curFundingShort: 'BigInt!',
  accFundingLong: 'BigInt!',
  accFundingShort: 'BigInt!',
  lastFundingRate: 'BigInt!',
  lastFundingVelocity: 'BigInt!',
  lastFundingBlock: 'BigInt!',
  lastFundingTime: 'BigInt!',
  maxFundingFeePerBlock: 'BigInt!',
  maxFundingFeeVelocity: 'BigInt!',
  fundingFeeSlope: 'BigInt!',
  lastOiDelta: 'BigInt!',
  hillInflectionPoint: 'BigInt!',
  hillPosScale: 'BigInt!',
  hillNegScale: 'BigInt!',
  springFactor: 'BigInt!',
  sFactorUpScaleP: 'BigInt!',
  sFactorDownScaleP: 'BigInt!',
  curRollover: 'BigInt!',
  accRollover: 'BigInt!',
  accRolloverLong: 'BigInt!',
  accRolloverShort: 'BigInt!',
  rolloverFeePerBlock: 'BigInt!',
  maxRolloverFeePerBlock: 'BigInt!',
  maxRolloverVolatility: 'BigInt!',
  rolloverFeeSlope: 'BigInt!',
  lastRolloverBlock: 'BigInt!',
  lastRolloverTime: 'BigInt!',
  lastRolloverLongPure: 'BigInt!',
  brokerPremium: 'BigInt!',
  isNegativeRolloverAllowed: 'Boolean!',
  tradeSizeRef: 'BigInt!',
} as const satisfies Fields

const TRADE_FIELDS = {
  id: 'ID!',
  tradeID: 'String!',
  trader: 'Bytes!',
  pair: 'Pair!',
  index: 'String!',
  tradeType: 'TradeType!',
  isBuy: 'Boolean!',
  isOpen: 'Boolean!',
  isDayTrade: 'Boolean!',
  closeInitiated: 'BigInt!',
  collateral: 'BigInt!',
  leverage: 'BigInt!',
  highestLeverage: 'BigInt!',
  openPrice: 'BigInt!',
  closePrice: 'BigInt!',
  stopLossPrice: 'BigInt!',
  takeProfitPrice: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  funding: 'BigInt!',
  rollover: 'BigInt!',
  builder: 'Bytes!',
  builderFee: 'BigInt!',
  timestamp: 'BigInt!',
} as const satisfies Fields

const LIMIT_FIELDS = {
  id: 'ID!',
  uniqueId: 'String!',
  orderId: 'String!',
  trader: 'Bytes!',
  pair: 'Pair!',
  block: 'BigInt!',
  isActive: 'Boolean!',
  isBuy: 'Boolean!',
  limitType: 'String!',
  executionStarted: 'BigInt!',
  openPrice: 'BigInt!',
  stopLossPrice: 'BigInt!',
  takeProfitPrice: 'BigInt!',
  collateral: 'BigInt!',
  leverage: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  initiatedAt: 'BigInt!',
  updatedAt: 'BigInt!',
} as const satisfies Fields

const ORDER_FIELDS = {
  id: 'ID!',
  trader: 'Bytes!',
  pair: 'Pair!',
  tradeID: 'String!',
  limitID: 'String!',
  isBuy: 'Boolean!',
  orderType: 'OrderType!',
  orderAction: 'OrderAction!',
  price: 'BigInt!',
  priceAfterImpact: 'BigInt!',
  priceImpactP: 'BigInt!',
  collateral: 'BigInt!',
  leverage: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  closePercent: 'BigInt!',
  profitPercent: 'BigInt!',
  totalProfitPercent: 'BigInt!',
  amountSentToTrader: 'BigInt!',
  devFee: 'BigInt!',
  vaultFee: 'BigInt!',
  oracleFee: 'BigInt!',
  liquidationFee: 'BigInt!',
  rolloverFee: 'BigInt!',
  fundingFee: 'BigInt!',
  builder: 'Bytes!',
  builderFee: 'BigInt!',
  initiatedAt: 'BigInt!',
  initiatedBlock: 'BigInt!',
  initiatedTx: 'Bytes!',
  executedAt: 'BigInt!',
  executedBlock: 'BigInt!',
  executedTx: 'Bytes!',
  isPending: 'Boolean!',
  isCancelled: 'Boolean!',
  cancelReason: 'CancelReason!',
} as const satisfies Fields

/** Totals the protocol keeps, and each user, user and pair, user and group. */
const TOTAL_FIELDS = {
  totalVolume: 'BigInt!',
  totalOpenVolume: 'BigInt!',
  totalClosedVolume: 'BigInt!',
  totalPnL: 'BigInt!',
  totalTrades: 'BigInt!',
  totalOpenTrades: 'BigInt!',
  totalMarketOrders: 'BigInt!',
  totalOpenLimitOrders: 'BigInt!',
  totalProfitTrades: 'BigInt!',
  totalLossTrades: 'BigInt!',
  totalTPOrders: 'BigInt!',
  totalSLOrders: 'BigInt!',
  totalLIQOrders: 'BigInt!',
  totalDevFee: 'BigInt!',
  totalVaultFee: 'BigInt!',
  totalOracleFee: 'BigInt!',
  totalLiquidationFee: 'BigInt!',
  totalRolloverFee: 'BigInt!',
} as const satisfies Fields

/** Totals kept per user, per user and pair, and per user and group. */
const STAT_FIELDS = {
  ...TOTAL_FIELDS,
  totalClosedCollateral: 'BigInt!',
  netFundingPayment: 'BigInt!',
  totalCancelledOrders: 'BigInt!',
} as const satisfies Fields

const META_DATA_FIELDS = {
  id: 'ID!',
  liqMarginThresholdP: 'BigInt!',
  liqThresholdP: 'BigInt!',
  maxNegativePnlOnOpenP: 'BigInt!',
  isTradingPaused: 'Boolean!',
  isCallbackPaused: 'Boolean!',
  marketOrdersTimeout: 'BigInt!',
  maxAllowedCollateral: 'BigInt!',
  maxPendingMarketOrders: 'BigInt!',
  maxTradesPerPair: 'BigInt!',
  totalUsers: 'BigInt!',
  ...TOTAL_FIELDS,
} as const satisfies Fields

const USER_FIELDS = { id: 'ID!', keeperAllowance: 'BigInt!', ...STAT_FIELDS } as const satisfies Fields
const USER_PAIR_STAT_FIELDS = { id: 'ID!', user: 'User!', pair: 'Pair!', ...STAT_FIELDS } as const satisfies Fields
const USER_GROUP_STAT_FIELDS = { id: 'ID!', user: 'User!', group: 'Group!', ...STAT_FIELDS } as const satisfies Fields

const VAULT_FIELDS = {
  id: 'ID!',
  assets: 'BigInt!',
  shares: 'BigInt!',
  sharePrice: 'BigInt!',
  currentEpoch: 'BigInt!',
  currentEpochStart: 'BigInt!',
  currentEpochEnd: 'BigInt!',
  currentMaxSupply: 'BigInt!',
  accPnlPerTokenUsed: 'BigInt!',
  maxDiscountP: 'BigInt!',
  maxDiscountThresholdP: 'BigInt!',
  rewardsPerToken: 'BigInt!',
  totalLockedUsers: 'BigInt!',
  withdrawWindow: 'BigInt!',
} as const satisfies Fields

const LP_ACTION_FIELDS = {
  id: 'ID!',
  user: 'Bytes!',
  type: 'String!',
  assets: 'BigInt!',
  shares: 'BigInt!',
  epoch: 'BigInt!',
  withdrawRequestEpoch: 'BigInt!',
  withdrawUnlockEpoch: 'BigInt!',
  withdrawShares: 'BigInt!',
  timestamp: 'BigInt!',
} as const satisfies Fields

const LP_NFT_FIELDS = {
  id: 'ID!',
  user: 'Bytes!',
  shares: 'BigInt!',
  assetsDeposited: 'BigInt!',
  assetsDiscount: 'BigInt!',
  atTime: 'BigInt!',
  lockDuration: 'BigInt!',
  isUnlocked: 'Boolean!',
} as const satisfies Fields

const LP_SHARE_FIELDS = {
  id: 'ID!',
  user: 'Bytes!',
  shares: 'BigInt!',
  assets: 'BigInt!',
  lockedShares: 'BigInt!',
  lockedAssets: 'BigInt!',
  hasLocked: 'Boolean!',
} as const satisfies Fields

const SHARE_PRICE_DAILY_FIELDS = { id: 'ID!', day: 'String!', timestamp: 'BigInt!', sharePrice: 'BigInt!' } as const satisfies Fields

const EPOCH_SHARE_FIELDS = {
  id: 'ID!',
  epoch: 'BigInt!',
  timestamp: 'BigInt!',
  sharePrice: 'BigInt!',
  sharePriceDiff: 'BigInt!',
  rewardsPerToken: 'BigInt!',
  rewardsPerTokenDiff: 'BigInt!',
} as const satisfies Fields

type ValueOf<T extends FieldType> = T extends `${infer Base}!` ? NonNull<Base> : NonNull<T> | null
type NonNull<Base> = Base extends 'BigInt' ? bigint : Base extends 'Boolean' ? boolean : string
/** A stored row of an entity: BigInt as bigint, Bytes lowercase hex, a relation as the target's id. */
export type RowOf<F extends Fields> = { -readonly [Field in keyof F]: ValueOf<F[Field]> }

export type GroupRow = RowOf<typeof GROUP_FIELDS>
export type FeeRow = RowOf<typeof FEE_FIELDS>
export type PairRow = RowOf<typeof PAIR_FIELDS>
export type TradeRow = RowOf<typeof TRADE_FIELDS> & { tradeType: (typeof ENUMS.TradeType)[number] }
/** The resting-order kinds the seed stores in `Limit.limitType` (a String on the subgraph) */
export type LimitType = 'LIMIT' | 'STOP'
export type LimitRow = RowOf<typeof LIMIT_FIELDS> & { limitType: LimitType }
export type OrderRow = RowOf<typeof ORDER_FIELDS> & {
  orderType: (typeof ENUMS.OrderType)[number]
  orderAction: (typeof ENUMS.OrderAction)[number]
  cancelReason: (typeof ENUMS.CancelReason)[number]
}
export type MetaDataRow = RowOf<typeof META_DATA_FIELDS>
export type UserRow = RowOf<typeof USER_FIELDS>
export type UserPairStatRow = RowOf<typeof USER_PAIR_STAT_FIELDS>
export type UserGroupStatRow = RowOf<typeof USER_GROUP_STAT_FIELDS>
export type VaultRow = RowOf<typeof VAULT_FIELDS>
export type StatFields = RowOf<typeof STAT_FIELDS>
export type TotalFields = RowOf<typeof TOTAL_FIELDS>

function entity(name: EntityName, collection: string, fields: Fields): EntitySpec {
  return { name, collection, single: name[0]!.toLowerCase() + name.slice(1), fields }
}

export const ENTITIES: readonly EntitySpec[] = [
  entity('Group', 'groups', GROUP_FIELDS),
  entity('Fee', 'fees', FEE_FIELDS),
  entity('Pair', 'pairs', PAIR_FIELDS),
  entity('Trade', 'trades', TRADE_FIELDS),
  entity('Limit', 'limits', LIMIT_FIELDS),
  entity('Order', 'orders', ORDER_FIELDS),
  entity('MetaData', 'metaDatas', META_DATA_FIELDS),
  entity('User', 'users', USER_FIELDS),
  entity('UserPairStat', 'userPairStats', USER_PAIR_STAT_FIELDS),
  entity('UserGroupStat', 'userGroupStats', USER_GROUP_STAT_FIELDS),
  entity('Vault', 'vaults', VAULT_FIELDS),
  entity('LpAction', 'lpActions', LP_ACTION_FIELDS),
  entity('LpNFT', 'lpNFTs', LP_NFT_FIELDS),
  entity('LpShare', 'lpShares', LP_SHARE_FIELDS),
  entity('ShareToAssetsPriceDaily', 'shareToAssetsPriceDailies', SHARE_PRICE_DAILY_FIELDS),
  entity('EpochShare', 'epochShares', EPOCH_SHARE_FIELDS),
]

export const ENTITY_BY_NAME: ReadonlyMap<EntityName, EntitySpec> = new Map(ENTITIES.map((spec) => [spec.name, spec]))
const ENTITY_NAMES = new Set<string>(ENTITIES.map((spec) => spec.name))

/** The type without its non-null mark: `BigInt!` → `BigInt`. */
export function baseTypeOf(fieldType: FieldType): BaseType {
  return fieldType.replace(/!$/, '') as BaseType
}

/** The entity a relation field points to, or undefined for a scalar or enum field. */
export function relationTarget(fieldType: FieldType): EntityName | undefined {
  const base = baseTypeOf(fieldType)
  return ENTITY_NAMES.has(base) ? (base as EntityName) : undefined
}

/** The enum a field holds a value of, or undefined. */
export function enumOf(fieldType: FieldType): EnumName | undefined {
  const base = baseTypeOf(fieldType)
  return base in ENUMS ? (base as EnumName) : undefined
}
