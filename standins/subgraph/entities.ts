// The venue subgraph's schema as its live deployment declares it (README, "Where each field comes
// from"): each entity's fields, in the deployment's order, with their GraphQL types. The schema text,
// the filters and the row types are generated from them as graph-node generates a subgraph's API. A
// relation field holds the target's id; a derived field is the list of rows whose relation points back.

type ScalarName = 'ID' | 'String' | 'Bytes' | 'BigInt' | 'Boolean'
export type EntityName =
  | 'Order'
  | 'Trade'
  | 'Limit'
  | 'Pair'
  | 'Group'
  | 'Fee'
  | 'LpShare'
  | 'LpAction'
  | 'LpNFT'
  | 'Vault'
  | 'EpochShare'
  | 'Settlement'
  | 'DepositRequest'
  | 'WithdrawRequest'
  | 'MMAction'
  | 'ShareToAssetsPriceDaily'
  | 'User'
  | 'UserPairStat'
  | 'UserGroupStat'
  | 'MetaData'

type BaseType = ScalarName | EntityName
/** GraphQL type of a stored field: a scalar or a relation (an entity name, holding its id), or a list of strings. */
export type FieldType = BaseType | `${BaseType}!` | '[String!]!'
type Fields = Readonly<Record<string, FieldType>>

/** A derived field: the rows of `entity` whose relation `field` holds this row's id (`@derivedFrom`). */
export interface DerivedField {
  entity: EntityName
  field: string
}

export interface EntitySpec {
  name: EntityName
  /** plural query, e.g. `pairs`, `metaDatas`, `shareToAssetsPriceDailies`, `mmactions` */
  collection: string
  /** single-row query by id, e.g. `pair`, `mmaction` */
  single: string
  fields: Fields
  /** derived list fields, after the stored ones (as the deployment lists them) */
  derived: Readonly<Record<string, DerivedField>>
}

const ORDER_FIELDS = {
  id: 'ID!',
  trader: 'Bytes!',
  pair: 'Pair!',
  tradeID: 'String!',
  limitID: 'String!',
  orderType: 'String!',
  orderAction: 'String!',
  price: 'BigInt!',
  priceAfterImpact: 'BigInt!',
  priceImpactP: 'BigInt!',
  collateral: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  profitPercent: 'BigInt!',
  totalProfitPercent: 'BigInt!',
  amountSentToTrader: 'BigInt!',
  isBuy: 'Boolean!',
  initiatedAt: 'BigInt!',
  executedAt: 'BigInt',
  initiatedTx: 'Bytes!',
  executedTx: 'Bytes',
  initiatedBlock: 'BigInt!',
  executedBlock: 'BigInt!',
  leverage: 'BigInt!',
  isPending: 'Boolean!',
  isCancelled: 'Boolean!',
  cancelReason: 'String!',
  devFee: 'BigInt!',
  vaultFee: 'BigInt!',
  oracleFee: 'BigInt!',
  liquidationFee: 'BigInt!',
  fundingFee: 'BigInt!',
  rolloverFee: 'BigInt!',
  closePercent: 'BigInt!',
  isDayTrade: 'Boolean',
  builderFee: 'BigInt',
  builder: 'Bytes',
} as const satisfies Fields

const TRADE_FIELDS = {
  id: 'ID!',
  trader: 'Bytes!',
  pair: 'Pair!',
  index: 'String!',
  tradeID: 'String!',
  tradeType: 'String!',
  openPrice: 'BigInt!',
  closePrice: 'BigInt!',
  takeProfitPrice: 'BigInt!',
  stopLossPrice: 'BigInt!',
  collateral: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  highestLeverage: 'BigInt!',
  leverage: 'BigInt!',
  isBuy: 'Boolean!',
  isOpen: 'Boolean!',
  closeInitiated: 'BigInt!',
  funding: 'BigInt!',
  rollover: 'BigInt!',
  timestamp: 'BigInt!',
  isDayTrade: 'Boolean',
  builderFee: 'BigInt',
  builder: 'Bytes',
} as const satisfies Fields

const LIMIT_FIELDS = {
  id: 'ID!',
  trader: 'Bytes!',
  pair: 'Pair!',
  collateral: 'BigInt!',
  isBuy: 'Boolean!',
  leverage: 'BigInt!',
  notional: 'BigInt!',
  tradeNotional: 'BigInt!',
  takeProfitPrice: 'BigInt!',
  stopLossPrice: 'BigInt!',
  openPrice: 'BigInt!',
  block: 'BigInt!',
  uniqueId: 'String!',
  orderId: 'String!',
  isActive: 'Boolean!',
  limitType: 'String!',
  isDayTrade: 'Boolean',
  initiatedAt: 'BigInt!',
  updatedAt: 'BigInt!',
  executionStarted: 'BigInt!',
} as const satisfies Fields

const PAIR_FIELDS = {
  id: 'ID!',
  from: 'String!',
  to: 'String!',
  feed: 'String!',
  oracle: 'String',
  spreadP: 'BigInt!',
  longOI: 'BigInt!',
  shortOI: 'BigInt!',
  maxOI: 'BigInt!',
  maxLeverage: 'BigInt!',
  overnightMaxLeverage: 'BigInt',
  volume: 'BigInt!',
  accFundingLong: 'BigInt!',
  accFundingShort: 'BigInt!',
  accRollover: 'BigInt!',
  curFundingLong: 'BigInt!',
  curFundingShort: 'BigInt!',
  curRollover: 'BigInt!',
  rolloverFeePerBlock: 'BigInt!',
  lastFundingVelocity: 'BigInt!',
  lastOiDelta: 'BigInt!',
  lastFundingRate: 'BigInt!',
  lastFundingTime: 'BigInt!',
  lastRolloverTime: 'BigInt!',
  lastFundingBlock: 'BigInt!',
  lastRolloverBlock: 'BigInt!',
  makerFeeP: 'BigInt!',
  takerFeeP: 'BigInt!',
  usageFeeP: 'BigInt!',
  vaultFeePercent: 'BigInt!',
  utilizationThresholdP: 'BigInt!',
  makerMaxLeverage: 'BigInt!',
  maxFundingFeePerBlock: 'BigInt!',
  maxFundingFeeVelocity: 'BigInt!',
  fundingFeeSlope: 'BigInt!',
  hillInflectionPoint: 'BigInt!',
  springFactor: 'BigInt!',
  hillPosScale: 'BigInt!',
  hillNegScale: 'BigInt!',
  sFactorUpScaleP: 'BigInt!',
  sFactorDownScaleP: 'BigInt!',
  lastTradePrice: 'BigInt!',
  maxRolloverVolatility: 'BigInt!',
  maxRolloverFeePerBlock: 'BigInt!',
  rolloverFeeSlope: 'BigInt!',
  tradeSizeRef: 'BigInt!',
  totalOpenTrades: 'BigInt!',
  totalOpenLimitOrders: 'BigInt!',
  netVolThreshold: 'BigInt',
  decayRate: 'BigInt',
  priceImpactK: 'BigInt',
  buyVolume: 'BigInt',
  sellVolume: 'BigInt',
  lastUpdateTimestamp: 'BigInt',
  brokerPremium: 'BigInt',
  isNegativeRolloverAllowed: 'Boolean',
  accRolloverLong: 'BigInt',
  accRolloverShort: 'BigInt',
  lastRolloverLongPure: 'BigInt',
  group: 'Group!',
  fee: 'Fee!',
} as const satisfies Fields

const GROUP_FIELDS = {
  id: 'ID!',
  name: 'String!',
  minLeverage: 'BigInt!',
  maxLeverage: 'BigInt!',
  maxCollateralP: 'BigInt!',
  longCollateral: 'BigInt!',
  shortCollateral: 'BigInt!',
} as const satisfies Fields

const FEE_FIELDS = { id: 'ID!', liqFeeP: 'BigInt!', oracleFee: 'BigInt!', minLevPos: 'BigInt!' } as const satisfies Fields

const LP_SHARE_FIELDS = {
  id: 'ID!',
  user: 'Bytes!',
  assets: 'BigInt!',
  shares: 'BigInt!',
  lockedAssets: 'BigInt!',
  lockedShares: 'BigInt!',
  hasLocked: 'Boolean!',
  pendingDepositAssets: 'BigInt',
  pendingWithdrawShares: 'BigInt',
} as const satisfies Fields

const LP_ACTION_FIELDS = {
  id: 'ID!',
  user: 'Bytes!',
  assets: 'BigInt!',
  shares: 'BigInt!',
  type: 'String!',
  epoch: 'BigInt!',
  timestamp: 'BigInt!',
  withdrawShares: 'BigInt!',
  withdrawRequestEpoch: 'BigInt!',
  withdrawUnlockEpoch: 'BigInt!',
} as const satisfies Fields

const LP_NFT_FIELDS = {
  id: 'ID!',
  user: 'Bytes!',
  assetsDeposited: 'BigInt!',
  assetsDiscount: 'BigInt!',
  shares: 'BigInt!',
  atTime: 'BigInt!',
  lockDuration: 'BigInt!',
  isUnlocked: 'Boolean!',
} as const satisfies Fields

const VAULT_FIELDS = {
  id: 'ID!',
  currentEpoch: 'BigInt!',
  currentEpochStart: 'BigInt!',
  currentEpochEnd: 'BigInt!',
  assets: 'BigInt!',
  shares: 'BigInt!',
  sharePrice: 'BigInt!',
  rewardsPerToken: 'BigInt!',
  totalLockedUsers: 'BigInt!',
  accPnlPerTokenUsed: 'BigInt!',
  currentMaxSupply: 'BigInt!',
  maxDiscountP: 'BigInt!',
  maxDiscountThresholdP: 'BigInt!',
  withdrawWindow: 'BigInt',
  lastSettlementId: 'BigInt',
  lastSettlementTs: 'BigInt',
  lastSettlementOpenPnl: 'BigInt',
  maxSettlementInterval: 'BigInt',
  withdrawSettlementDelay: 'BigInt',
  totalPendingDepositAssets: 'BigInt',
  totalPendingWithdrawShares: 'BigInt',
  requestsStart: 'BigInt',
  requestsEvery: 'BigInt',
  requestsCount: 'BigInt',
} as const satisfies Fields

const EPOCH_SHARE_FIELDS = {
  id: 'ID!',
  epoch: 'BigInt!',
  sharePrice: 'BigInt!',
  sharePriceDiff: 'BigInt!',
  rewardsPerToken: 'BigInt!',
  rewardsPerTokenDiff: 'BigInt!',
  timestamp: 'BigInt!',
} as const satisfies Fields

const SETTLEMENT_FIELDS = {
  id: 'ID!',
  settlementId: 'BigInt!',
  timestamp: 'BigInt!',
  prevOpenPnl: 'BigInt!',
  newOpenPnl: 'BigInt!',
  settlementOpenPnl: 'BigInt!',
  settlementType: 'String',
  bufferSize: 'BigInt',
  accPnlPerTokenUsed: 'BigInt!',
  accRewardsPerToken: 'BigInt!',
  shareToAssetsPrice: 'BigInt!',
  totalClosedPnl: 'BigInt!',
  totalSupply: 'BigInt!',
  totalAssets: 'BigInt!',
  deltaShares: 'BigInt!',
  totalAssetsToDeposit: 'BigInt!',
  totalSharesToWithdraw: 'BigInt!',
  depositsFailed: 'Boolean!',
  withdrawsFailed: 'Boolean!',
  depositsCapped: 'Boolean!',
  settlementAllocationScaleP: 'BigInt!',
  depositRequestIds: '[String!]!',
  withdrawRequestIds: '[String!]!',
} as const satisfies Fields

const DEPOSIT_REQUEST_FIELDS = {
  id: 'ID!',
  owner: 'Bytes!',
  settlement: 'Settlement!',
  settlementId: 'BigInt!',
  assets: 'BigInt!',
  shares: 'BigInt!',
  shareToAssetsPrice: 'BigInt',
  refundedAssets: 'BigInt!',
  claimed: 'Boolean!',
  reclaimed: 'Boolean!',
  cancelled: 'Boolean!',
  settled: 'Boolean!',
  requestedAt: 'BigInt!',
  settledAt: 'BigInt',
  claimedAt: 'BigInt!',
  requestTxHash: 'Bytes!',
  claimTxHash: 'Bytes',
} as const satisfies Fields

const WITHDRAW_REQUEST_FIELDS = {
  id: 'ID!',
  owner: 'Bytes!',
  settlement: 'Settlement!',
  settlementId: 'BigInt!',
  shares: 'BigInt!',
  assets: 'BigInt!',
  shareToAssetsPrice: 'BigInt',
  claimed: 'Boolean!',
  reclaimed: 'Boolean!',
  cancelled: 'Boolean!',
  settled: 'Boolean!',
  requestedAt: 'BigInt!',
  settledAt: 'BigInt',
  claimedAt: 'BigInt!',
  requestTxHash: 'Bytes!',
  claimTxHash: 'Bytes',
} as const satisfies Fields

const MM_ACTION_FIELDS = {
  id: 'ID!',
  mm: 'Bytes!',
  settlementId: 'BigInt!',
  receiver: 'Bytes',
  assets: 'BigInt!',
  type: 'String!',
  timestamp: 'BigInt!',
  txHash: 'Bytes!',
} as const satisfies Fields

const SHARE_PRICE_DAILY_FIELDS = { id: 'ID!', sharePrice: 'BigInt!', timestamp: 'BigInt!', day: 'String!' } as const satisfies Fields

/** The totals kept per user, per user and pair, and per user and group, in the deployment's order. */
const STAT_FIELDS = {
  totalOpenTrades: 'BigInt!',
  totalTrades: 'BigInt!',
  totalMarketOrders: 'BigInt!',
  totalOpenLimitOrders: 'BigInt!',
  totalTPOrders: 'BigInt!',
  totalSLOrders: 'BigInt!',
  totalLIQOrders: 'BigInt!',
  totalCancelledOrders: 'BigInt!',
  totalVolume: 'BigInt!',
  totalOpenVolume: 'BigInt!',
  totalClosedVolume: 'BigInt!',
  totalProfitTrades: 'BigInt!',
  totalLossTrades: 'BigInt!',
  totalPnL: 'BigInt!',
  totalClosedCollateral: 'BigInt!',
  totalDevFee: 'BigInt!',
  totalVaultFee: 'BigInt!',
  totalOracleFee: 'BigInt!',
  totalLiquidationFee: 'BigInt!',
  totalRolloverFee: 'BigInt!',
  netFundingPayment: 'BigInt!',
} as const satisfies Fields

const USER_FIELDS = { id: 'ID!', ...STAT_FIELDS, keeperAllowance: 'BigInt!' } as const satisfies Fields
const USER_PAIR_STAT_FIELDS = { id: 'ID!', pair: 'Pair!', ...STAT_FIELDS, user: 'User!' } as const satisfies Fields
const USER_GROUP_STAT_FIELDS = { id: 'ID!', group: 'Group!', ...STAT_FIELDS, user: 'User!' } as const satisfies Fields

/** The protocol keeps the per-user totals less the user-only ones, in the same order. */
const {
  totalCancelledOrders: _cancelled,
  totalClosedCollateral: _collateral,
  netFundingPayment: _funding,
  ...PROTOCOL_TOTALS
} = STAT_FIELDS

const META_DATA_FIELDS = {
  id: 'ID!',
  isTradingPaused: 'Boolean!',
  isCallbackPaused: 'Boolean!',
  maxTradesPerPair: 'BigInt!',
  maxPendingMarketOrders: 'BigInt!',
  liqThresholdP: 'BigInt!',
  liqMarginThresholdP: 'BigInt',
  maxNegativePnlOnOpenP: 'BigInt!',
  marketOrdersTimeout: 'BigInt',
  maxAllowedCollateral: 'BigInt',
  totalUsers: 'BigInt!',
  ...PROTOCOL_TOTALS,
} as const satisfies Fields

type ValueOf<T extends FieldType> = T extends '[String!]!' ? string[] : T extends `${infer Base}!` ? NonNull<Base> : NonNull<T> | null
type NonNull<Base> = Base extends 'BigInt' ? bigint : Base extends 'Boolean' ? boolean : string
/** A stored row of an entity: BigInt as bigint, Bytes lowercase hex, a relation as the target's id. */
export type RowOf<F extends Fields> = { -readonly [Field in keyof F]: ValueOf<F[Field]> }

/** The seed stores `executedAt`/`executedTx` on every order, zeros until executed (README, "Where each field comes from") */
export type OrderRow = RowOf<typeof ORDER_FIELDS> & { executedAt: bigint; executedTx: string }
export type TradeRow = RowOf<typeof TRADE_FIELDS>
/** The resting-order kinds the seed stores in `Limit.limitType` (a String on the subgraph) */
export type LimitType = 'LIMIT' | 'STOP'
export type LimitRow = RowOf<typeof LIMIT_FIELDS> & { limitType: LimitType }
export type PairRow = RowOf<typeof PAIR_FIELDS>
export type GroupRow = RowOf<typeof GROUP_FIELDS>
export type FeeRow = RowOf<typeof FEE_FIELDS>
export type LpShareRow = RowOf<typeof LP_SHARE_FIELDS>
export type VaultRow = RowOf<typeof VAULT_FIELDS>
export type SettlementRow = RowOf<typeof SETTLEMENT_FIELDS>
export type DepositRequestRow = RowOf<typeof DEPOSIT_REQUEST_FIELDS>
export type WithdrawRequestRow = RowOf<typeof WITHDRAW_REQUEST_FIELDS>
export type MMActionRow = RowOf<typeof MM_ACTION_FIELDS>
export type UserRow = RowOf<typeof USER_FIELDS>
export type MetaDataRow = RowOf<typeof META_DATA_FIELDS>
export type StatFields = RowOf<typeof STAT_FIELDS>

function entity(
  name: EntityName,
  fields: Fields,
  names: { collection?: string; single?: string } = {},
  derived: Readonly<Record<string, DerivedField>> = {},
): EntitySpec {
  const single = names.single ?? name[0]!.toLowerCase() + name.slice(1)
  return { name, collection: names.collection ?? `${single}s`, single, fields, derived }
}

/** In the deployment's order, which is the order of its `Query` fields. */
export const ENTITIES: readonly EntitySpec[] = [
  entity('Order', ORDER_FIELDS),
  entity('Trade', TRADE_FIELDS),
  entity('Limit', LIMIT_FIELDS),
  entity('Pair', PAIR_FIELDS),
  entity('Group', GROUP_FIELDS),
  entity('Fee', FEE_FIELDS),
  entity('LpShare', LP_SHARE_FIELDS),
  entity('LpAction', LP_ACTION_FIELDS),
  entity('LpNFT', LP_NFT_FIELDS),
  entity('Vault', VAULT_FIELDS),
  entity('EpochShare', EPOCH_SHARE_FIELDS),
  entity('Settlement', SETTLEMENT_FIELDS),
  entity('DepositRequest', DEPOSIT_REQUEST_FIELDS),
  entity('WithdrawRequest', WITHDRAW_REQUEST_FIELDS),
  entity('MMAction', MM_ACTION_FIELDS, { single: 'mmaction' }),
  entity('ShareToAssetsPriceDaily', SHARE_PRICE_DAILY_FIELDS, { collection: 'shareToAssetsPriceDailies' }),
  entity(
    'User',
    USER_FIELDS,
    {},
    {
      userPairStats: { entity: 'UserPairStat', field: 'user' },
      userGroupStats: { entity: 'UserGroupStat', field: 'user' },
    },
  ),
  entity('UserPairStat', USER_PAIR_STAT_FIELDS),
  entity('UserGroupStat', USER_GROUP_STAT_FIELDS),
  entity('MetaData', META_DATA_FIELDS),
]

export const ENTITY_BY_NAME: ReadonlyMap<EntityName, EntitySpec> = new Map(ENTITIES.map((spec) => [spec.name, spec]))
const ENTITY_NAMES = new Set<string>(ENTITIES.map((spec) => spec.name))

/** The type without its non-null mark: `BigInt!` → `BigInt`; a list stays a list. */
export function baseTypeOf(fieldType: FieldType): BaseType | '[String!]' {
  return fieldType.replace(/!$/, '') as BaseType | '[String!]'
}

/** The entity a relation field points to, or undefined for a scalar or list field. */
export function relationTarget(fieldType: FieldType): EntityName | undefined {
  const base = baseTypeOf(fieldType)
  return ENTITY_NAMES.has(base) ? (base as EntityName) : undefined
}

export function isListField(fieldType: FieldType): boolean {
  return fieldType.startsWith('[')
}
