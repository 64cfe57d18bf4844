import { z } from 'zod'
import { Address } from '../../schemas/common.ts'

// The answers of the indexed source (a The Graph subgraph) to the queries in queries.ts, as sent:
// BigInt as decimal text, Bytes as 0x-hex, ids as strings. Anything else fails validation and the
// read answers 502.

const BigIntText = z.string().regex(/^-?\d+$/, 'must be a decimal integer')
const Bytes = z.string().regex(/^0x[0-9a-fA-F]*$/, 'must be 0x-hex')
const PairRef = z.object({ id: z.string(), from: z.string(), to: z.string() })

/** Every query also selects `_meta`, whose block timestamp tells how far the source lags. */
const Meta = z.object({ block: z.object({ timestamp: z.number().int().nullable() }) }).nullable()
export type Meta = z.infer<typeof Meta>

export const SubgraphPair = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  feed: Bytes,
  group: z.object({ id: z.string(), name: z.string(), minLeverage: BigIntText, maxLeverage: BigIntText }),
  longOI: BigIntText,
  shortOI: BigIntText,
  maxOI: BigIntText,
  makerFeeP: BigIntText,
  takerFeeP: BigIntText,
  maxLeverage: BigIntText,
  overnightMaxLeverage: BigIntText,
  spreadP: BigIntText,
  lastTradePrice: BigIntText,
  curFundingLong: BigIntText,
  curFundingShort: BigIntText,
  curRollover: BigIntText,
})
export type SubgraphPair = z.infer<typeof SubgraphPair>

export const SubgraphTrade = z.object({
  tradeID: BigIntText,
  trader: Address,
  pair: PairRef,
  index: BigIntText,
  isBuy: z.boolean(),
  collateral: BigIntText,
  leverage: BigIntText,
  openPrice: BigIntText,
  stopLossPrice: BigIntText,
  takeProfitPrice: BigIntText,
  notional: BigIntText,
  tradeNotional: BigIntText,
  funding: BigIntText,
  rollover: BigIntText,
  timestamp: BigIntText,
})
export type SubgraphTrade = z.infer<typeof SubgraphTrade>

export const SubgraphLimit = z.object({
  id: z.string(),
  trader: Address,
  pair: PairRef,
  isActive: z.boolean(),
  isBuy: z.boolean(),
  isDayTrade: z.boolean(),
  limitType: z.enum(['LIMIT', 'STOP']),
  openPrice: BigIntText,
  stopLossPrice: BigIntText,
  takeProfitPrice: BigIntText,
  collateral: BigIntText,
  leverage: BigIntText,
  notional: BigIntText,
  tradeNotional: BigIntText,
  orderId: BigIntText,
  initiatedAt: BigIntText,
  updatedAt: BigIntText,
})
export type SubgraphLimit = z.infer<typeof SubgraphLimit>

export const SubgraphOrder = z.object({
  id: z.string(),
  trader: Address,
  pair: PairRef,
  tradeID: BigIntText.nullable(),
  isBuy: z.boolean(),
  orderType: z.string(),
  orderAction: z.string(),
  price: BigIntText,
  priceAfterImpact: BigIntText,
  priceImpactP: BigIntText,
  collateral: BigIntText,
  leverage: BigIntText,
  notional: BigIntText,
  tradeNotional: BigIntText,
  profitPercent: BigIntText,
  totalProfitPercent: BigIntText,
  amountSentToTrader: BigIntText,
  rolloverFee: BigIntText,
  fundingFee: BigIntText,
  initiatedAt: BigIntText,
  executedAt: BigIntText.nullable(),
  executedTx: Bytes.nullable(),
  isCancelled: z.boolean(),
  cancelReason: z.string().nullable(),
})
export type SubgraphOrder = z.infer<typeof SubgraphOrder>

export const PairsData = z.object({ pairs: z.array(SubgraphPair), _meta: Meta })
export const TradesData = z.object({ trades: z.array(SubgraphTrade), _meta: Meta })
export const LimitsData = z.object({ limits: z.array(SubgraphLimit), _meta: Meta })
export const OrdersData = z.object({ orders: z.array(SubgraphOrder), _meta: Meta })

/** The GraphQL-over-HTTP envelope: `data`, and `errors` when something failed. */
export const GraphqlEnvelope = z.object({
  data: z.unknown().optional(),
  errors: z.array(z.object({ message: z.string() })).optional(),
})
