import { z } from 'zod'
import { Address, ChainId, UnixSecondsString } from './common.ts'

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
  pair: z.strictObject({ id: z.string(), from: z.string(), to: z.string() }),
})
export type RestingOrder = z.infer<typeof RestingOrder>

export const LimitsEnvelope = z.strictObject({
  trader: z.string(),
  chainId: z.number().int(),
  first: z.number().int(),
  skip: z.number().int(),
  count: z.number().int(),
  limits: z.array(RestingOrder),
})
export type LimitsEnvelope = z.infer<typeof LimitsEnvelope>

const integerParam = z
  .string()
  .regex(/^\d+$/, 'must be a whole number')
  .transform(Number)

/**
 * Query of `GET /v1/limits`. `trader` is required; `chainId` defaults to 42161, `first` to 100, `skip` to 0.
 * `since` (Unix seconds) returns only orders initiated after it, to page past `skip`'s ceiling.
 */
export const LimitsQuery = z.strictObject({
  trader: Address,
  chainId: integerParam.pipe(ChainId).default(42161),
  first: integerParam.pipe(z.number().int().min(1).max(1000)).default(100),
  skip: integerParam.pipe(z.number().int().min(0).max(5000)).default(0),
  since: integerParam.pipe(z.number().int().nonnegative()).optional(),
})
export type LimitsQuery = z.infer<typeof LimitsQuery>
