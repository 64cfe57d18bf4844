import { z } from 'zod'
import { Address, UnixSecondsString } from './common.ts'
import { PairRef, QueryUnixSeconds, WALLET_LIST_HEAD, WALLET_LIST_PARAMS } from './wallet-lists.ts'

/** One settled order of a wallet (`GET /v1/orders`): executed, or cancelled by the keeper. */
export const ExecutedOrder = z.strictObject({
  id: z.string(),
  trader: Address,
  pair: PairRef,
  /** the position it opened or closed; null when cancelled before opening */
  tradeId: z.string().nullable(),
  isBuy: z.boolean(),
  /** Market, Limit, Stop, TP, SL or LIQ, as the source names it */
  orderType: z.string(),
  /** Open or Close */
  orderAction: z.string(),
  /** oracle price at execution; numbers the source did not deliver are null */
  price: z.number().nullable(),
  priceAfterImpact: z.number().nullable(),
  priceImpactPercent: z.number().nullable(),
  collateral: z.number().nullable(),
  leverage: z.number().nullable(),
  notionalInUsd: z.number().nullable(),
  notionalInUnits: z.number().nullable(),
  /** closes only, of the collateral; 0 for opens */
  profitPercent: z.number().nullable(),
  totalProfitPercent: z.number().nullable(),
  amountSentToTrader: z.number().nullable(),
  rolloverFee: z.number().nullable(),
  fundingFee: z.number().nullable(),
  initiatedAt: UnixSecondsString,
  /** when it executed, or was cancelled */
  executedAt: UnixSecondsString.nullable(),
  executedTx: z.string().nullable(),
  isCancelled: z.boolean(),
  cancelReason: z.string().nullable(),
})
export type ExecutedOrder = z.infer<typeof ExecutedOrder>

export const OrdersEnvelope = z.strictObject({ ...WALLET_LIST_HEAD, orders: z.array(ExecutedOrder) })
export type OrdersEnvelope = z.infer<typeof OrdersEnvelope>

/**
 * Query of `GET /v1/orders` (newest first): the wallet-list parameters; `before` keeps orders executed
 * strictly before it (pages past `skip`'s ceiling), `since` those executed strictly after it.
 */
export const OrdersQuery = z.strictObject({
  ...WALLET_LIST_PARAMS,
  since: QueryUnixSeconds.optional(),
  before: QueryUnixSeconds.optional(),
})
export type OrdersQuery = z.infer<typeof OrdersQuery>
