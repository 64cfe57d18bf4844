import { z } from 'zod'
import { ChainIdParam } from './wallet-lists.ts'

/**
 * One pair of `GET /v1/pairs` (spec 2.6), read from the indexed source and converted to plain numbers.
 * `from`/`to` are the source's own spelling (legacy for renamed assets); `pair` is the symbol the price
 * and depth endpoints use.
 */
export const ListedPair = z.strictObject({
  /** the pairIndex, as a decimal string (as `pair.id` in the wallet lists) */
  id: z.string(),
  /** the price and depth endpoints' symbol; null for a pair this service does not list */
  pair: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  /** upstream oracle feed id */
  feed: z.string(),
  group: z.strictObject({ id: z.string(), name: z.string(), minLeverage: z.number(), maxLeverage: z.number() }),
  /** false when the pair has no open-interest ceiling (maxOI 0) */
  tradeable: z.boolean(),
  /** open interest, in units of the base asset */
  longOI: z.number(),
  shortOI: z.number(),
  /** open-interest ceiling per side, USD; 0 means none */
  maxOI: z.number(),
  /** percent */
  makerFeeP: z.number(),
  takerFeeP: z.number(),
  spreadP: z.number(),
  maxLeverage: z.number(),
  /** 0 when the pair has no separate overnight limit */
  overnightMaxLeverage: z.number(),
  lastTradePrice: z.number(),
  curFundingLong: z.number(),
  curFundingShort: z.number(),
  curRollover: z.number(),
})
export type ListedPair = z.infer<typeof ListedPair>

export const PairsEnvelope = z.strictObject({
  chainId: z.number().int(),
  count: z.number().int(),
  pairs: z.array(ListedPair),
})
export type PairsEnvelope = z.infer<typeof PairsEnvelope>

/** Query of `GET /v1/pairs`: only `chainId`, default 42161. */
export const PairsQuery = z.strictObject({ chainId: ChainIdParam })
export type PairsQuery = z.infer<typeof PairsQuery>
