import { z } from 'zod'
import { documentedAs } from './common.ts'
import { ChainIdParam } from './wallet-lists.ts'

// GET /v1/depth/{pair} and GET /v1/depth/{pair}/quote: the price a trade of a given size gets.

export const Side = z.enum(['long', 'short'])
export type Side = z.infer<typeof Side>

/** the largest notional a quote accepts */
export const MAX_QUOTE_NOTIONAL_USD = 1e12

export const DepthLevel = z.strictObject({
  notionalUsd: z.number(),
  fillPrice: z.number(),
  impactPercent: z.number(),
})
export type DepthLevel = z.infer<typeof DepthLevel>

export const DepthSide = z.strictObject({
  /** notional that still fits under the open-interest ceiling on this side */
  availableNotionalUsd: z.number(),
  /** the configured sizes that fit, smallest first */
  levels: z.array(DepthLevel),
})
export type DepthSide = z.infer<typeof DepthSide>

/** The live price row the figures are priced off. */
const PRICED_OFF = {
  bid: z.number(),
  mid: z.number(),
  ask: z.number(),
  timestampSeconds: z.number().int(),
}

export const DepthBook = z.strictObject({
  pair: z.string(),
  chainId: z.number().int(),
  ...PRICED_OFF,
  long: DepthSide,
  short: DepthSide,
})
export type DepthBook = z.infer<typeof DepthBook>

export const Quote = z.strictObject({
  pair: z.string(),
  chainId: z.number().int(),
  side: Side,
  notionalUsd: z.number(),
  ...PRICED_OFF,
  fillPrice: z.number(),
  impactPercent: z.number(),
  availableNotionalUsd: z.number(),
})
export type Quote = z.infer<typeof Quote>

/** Query of `GET /v1/depth/{pair}`: only `chainId`, default 42161 (whose open interest applies). */
export const DepthQuery = z.strictObject({ chainId: ChainIdParam })
export type DepthQuery = z.infer<typeof DepthQuery>

/** Query of `GET /v1/depth/{pair}/quote`: `side` and `notionalUsd` are required. */
export const QuoteQuery = z.strictObject({
  side: Side,
  notionalUsd: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a decimal number of USD, such as 10000 or 2500.50')
    .transform(Number)
    .pipe(z.number().positive().max(MAX_QUOTE_NOTIONAL_USD))
    .meta(
      documentedAs({
        type: 'number',
        exclusiveMinimum: 0,
        maximum: MAX_QUOTE_NOTIONAL_USD,
        description: 'Trade size in USD',
        example: 25000,
      }),
    ),
  chainId: ChainIdParam,
})
export type QuoteQuery = z.infer<typeof QuoteQuery>
