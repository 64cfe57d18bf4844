// The stored entities, one row type each, in the indexed source's on-chain units (see seed/units.ts).
// A relation field holds the id of the row it points to (`pair: "5"`); the GraphQL layer resolves it.
// Addresses and hashes are lowercase, as The Graph stores Bytes.

export const CHAIN_IDS = [42161, 421614] as const
export type ChainId = (typeof CHAIN_IDS)[number]

export type GroupRow = {
  id: string
  name: string
  minLeverage: bigint
  maxLeverage: bigint
}

export type PairRow = {
  id: string
  /** base asset in the indexed source's own (sometimes legacy) spelling */
  from: string
  to: string
  /** upstream oracle feed id, 32 bytes */
  feed: string
  group: string
  longOI: bigint
  shortOI: bigint
  /** 0 means no open-interest ceiling: the pair is not tradeable */
  maxOI: bigint
  makerFeeP: bigint
  takerFeeP: bigint
  maxLeverage: bigint
  /** 0 where the pair has no overnight limit */
  overnightMaxLeverage: bigint
  spreadP: bigint
  lastTradePrice: bigint
  curFundingLong: bigint
  curFundingShort: bigint
  curRollover: bigint
}

export type TradeRow = {
  /** equals tradeID */
  id: string
  tradeID: bigint
  trader: string
  pair: string
  /** the trader's slot on this pair */
  index: bigint
  isBuy: boolean
  isOpen: boolean
  collateral: bigint
  leverage: bigint
  openPrice: bigint
  /** 0 while open */
  closePrice: bigint
  /** 0 when unset */
  stopLossPrice: bigint
  /** 0 when unset */
  takeProfitPrice: bigint
  notional: bigint
  tradeNotional: bigint
  /** funding paid so far, USDC; negative when received */
  funding: bigint
  rollover: bigint
  /** when the position opened */
  timestamp: bigint
}

export type LimitType = 'LIMIT' | 'STOP'

export type LimitRow = {
  /** `<trader>_<pairId>_<index>` */
  id: string
  trader: string
  pair: string
  isActive: boolean
  isBuy: boolean
  isDayTrade: boolean
  limitType: LimitType
  /** trigger price */
  openPrice: bigint
  stopLossPrice: bigint
  takeProfitPrice: bigint
  collateral: bigint
  leverage: bigint
  /** collateral × leverage, USDC */
  notional: bigint
  /** notional at the trigger price, asset units */
  tradeNotional: bigint
  /** order id allocated at placement; a filled limit's executed order carries the same id */
  orderId: bigint
  initiatedAt: bigint
  updatedAt: bigint
}

export type OrderType = 'MARKET' | 'LIMIT' | 'STOP' | 'TP' | 'SL' | 'LIQ'
export type OrderAction = 'Open' | 'Close'
export type CancelReason = 'TIMEOUT' | 'SLIPPAGE' | 'MARKET_CLOSED'

export type OrderRow = {
  id: string
  trader: string
  pair: string
  /** the position opened or closed; null while pending or when cancelled before opening */
  tradeID: bigint | null
  isBuy: boolean
  orderType: OrderType
  orderAction: OrderAction
  /** requested price while pending, oracle price once executed */
  price: bigint
  /** 0 while pending */
  priceAfterImpact: bigint
  priceImpactP: bigint
  collateral: bigint
  leverage: bigint
  notional: bigint
  tradeNotional: bigint
  /** closes only, of the collateral; 0 for opens */
  profitPercent: bigint
  /** profitPercent after fees */
  totalProfitPercent: bigint
  amountSentToTrader: bigint
  rolloverFee: bigint
  fundingFee: bigint
  initiatedAt: bigint
  /** null while pending; for a cancelled order, when it was cancelled */
  executedAt: bigint | null
  executedTx: string | null
  isPending: boolean
  isCancelled: boolean
  cancelReason: CancelReason | null
}

export interface SeedData {
  chainId: ChainId
  /** every trader with rows on this chain, lowercase */
  traders: readonly string[]
  groups: readonly GroupRow[]
  pairs: readonly PairRow[]
  trades: readonly TradeRow[]
  limits: readonly LimitRow[]
  orders: readonly OrderRow[]
}
