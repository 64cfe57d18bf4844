import { z } from 'zod'
import { Address, UnixSecondsString } from './common.ts'
import { PairRef, QueryUnixSeconds, WALLET_LIST_HEAD, WALLET_LIST_PARAMS } from './wallet-lists.ts'

/** One open position of a wallet (`GET /v1/trades`), in plain numbers. */
export const OpenTrade = z.strictObject({
  /** the on-chain trade id, as a decimal string */
  id: z.string(),
  trader: Address,
  pair: PairRef,
  /** the wallet's slot on this pair */
  index: z.number().int(),
  isBuy: z.boolean(),
  collateral: z.number(),
  leverage: z.number(),
  openPrice: z.number(),
  /** 0 when unset */
  stopLossPrice: z.number().nullable(),
  /** 0 when unset */
  takeProfitPrice: z.number().nullable(),
  notionalInUsd: z.number().nullable(),
  notionalInUnits: z.number().nullable(),
  /**
   * USDC owed so far (negative: received), from the pair's per-OI accumulator since the position opened,
   * as of the pair's last accumulator update. Null where the source lacks a figure it needs.
   */
  funding: z.number().nullable(),
  rollover: z.number().nullable(),
  openedAt: UnixSecondsString,
})
export type OpenTrade = z.infer<typeof OpenTrade>

export const TradesEnvelope = z.strictObject({ ...WALLET_LIST_HEAD, trades: z.array(OpenTrade) })
export type TradesEnvelope = z.infer<typeof TradesEnvelope>

/** Query of `GET /v1/trades`: the wallet-list parameters; `since` keeps positions opened strictly after it. */
export const TradesQuery = z.strictObject({
  ...WALLET_LIST_PARAMS,
  since: QueryUnixSeconds.optional(),
})
export type TradesQuery = z.infer<typeof TradesQuery>
