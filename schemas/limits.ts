import { z } from 'zod'
import { Address, UnixSecondsString } from './common.ts'
import { PairRef, QueryUnixSeconds, WALLET_LIST_HEAD, WALLET_LIST_PARAMS } from './wallet-lists.ts'

/** Spec 2.4: one resting limit/stop order. Nothing in this list has executed. */
export const RestingOrder = z.strictObject({
  id: z.string(),
  trader: Address,
  isActive: z.boolean(),
  isBuy: z.boolean(),
  isDayTrade: z.boolean(),
  limitType: z.enum(['LIMIT', 'STOP']),
  openPrice: z.number(),
  stopLossPrice: z.number(),
  takeProfitPrice: z.number(),
  collateral: z.number(),
  notionalInUsd: z.number(),
  notionalInUnits: z.number(),
  leverage: z.number(),
  orderId: z.string(),
  initiatedAt: UnixSecondsString,
  updatedAt: UnixSecondsString,
  pair: PairRef,
})
export type RestingOrder = z.infer<typeof RestingOrder>

export const LimitsEnvelope = z.strictObject({ ...WALLET_LIST_HEAD, limits: z.array(RestingOrder) })
export type LimitsEnvelope = z.infer<typeof LimitsEnvelope>

/**
 * Query of `GET /v1/limits`. `trader` is required; `chainId` defaults to 42161, `first` to 100, `skip` to 0.
 * `since` (Unix seconds) returns only orders initiated strictly after it, to page past `skip`'s ceiling.
 */
export const LimitsQuery = z.strictObject({
  ...WALLET_LIST_PARAMS,
  since: QueryUnixSeconds.optional(),
})
export type LimitsQuery = z.infer<typeof LimitsQuery>
