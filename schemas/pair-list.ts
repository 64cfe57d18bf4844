import { z } from 'zod'
import { ChainIdParam } from './wallet-lists.ts'

/**
 * One pair of `GET /v1/pairs` (spec 2.6), read from the indexed source and converted to plain numbers.
 * `from`/`to` are the source's own spelling (legacy for renamed assets); `pair` is the symbol the price
 * and depth endpoints use. A figure the source did not deliver (a field its deployment lacks, or a
 * malformed value) is null.
 */
export const ListedPair = z.strictObject({
  /** the pairIndex, as a decimal string (as `pair.id` in the wallet lists) */
  id: z.string(),
  /** the price and depth endpoints' symbol; null for a pair this service does not list */
  pair: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  /** upstream oracle feed id */
  feed: z.string().nullable(),
  group: z.strictObject({ id: z.string(), name: z.string(), minLeverage: z.number().nullable(), maxLeverage: z.number().nullable() }),
  /** false when the pair has no open-interest ceiling (maxOI 0) */
  tradeable: z.boolean(),
  /** open interest, in units of the base asset */
  longOI: z.number().nullable(),
  shortOI: z.number().nullable(),
  /** open-interest ceiling per side, USD; 0 means none */
  maxOI: z.number().nullable(),
  /** percent */
  makerFeeP: z.number().nullable(),
  takerFeeP: z.number().nullable(),
  spreadP: z.number().nullable(),
  maxLeverage: z.number().nullable(),
  /** 0 when the pair has no separate overnight limit */
  overnightMaxLeverage: z.number().nullable(),
  lastTradePrice: z.number().nullable(),
  /** funding rate per block, as both public SDKs scale it (the source's integer / 1e9) */
  curFundingLong: z.number().nullable(),
  curFundingShort: z.number().nullable(),
  curRollover: z.number().nullable(),
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
