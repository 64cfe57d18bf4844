import { z } from 'zod'
import { Address, ChainId, documentedAs, SUPPORTED_CHAIN_IDS } from './common.ts'

// What the wallet lists (GET /v1/limits, /v1/trades, /v1/orders) share: their query parameters, the
// head of their envelopes and the pair reference inside each record.

export const DEFAULT_CHAIN_ID = 42161
/** The Graph's own default page size */
export const DEFAULT_FIRST = 100
export const MAX_FIRST = 1000
/** hosted Graph nodes refuse a deeper `skip`; a time cursor (`since`, `before`) pages further */
export const MAX_SKIP = 5000

/** A whole number written in a query string. */
export const QueryInteger = z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)

/** Unix seconds in a query string: the time cursors `since` and `before`. */
export const QueryUnixSeconds = QueryInteger.meta(documentedAs({ type: 'integer', minimum: 0, description: 'Unix seconds' }))

/** `chainId` in a query string; 42161 when omitted. */
export const ChainIdParam = QueryInteger.pipe(ChainId)
  .default(DEFAULT_CHAIN_ID)
  .meta(documentedAs({ type: 'integer', enum: [...SUPPORTED_CHAIN_IDS], default: DEFAULT_CHAIN_ID, description: 'Chain id' }))

/** Query parameters of every wallet list (spec 4.5): `trader` is required, the rest have defaults. */
export const WALLET_LIST_PARAMS = {
  trader: Address,
  chainId: ChainIdParam,
  first: QueryInteger.pipe(z.number().int().min(1).max(MAX_FIRST))
    .default(DEFAULT_FIRST)
    .meta(documentedAs({ type: 'integer', minimum: 1, maximum: MAX_FIRST, default: DEFAULT_FIRST, description: 'Page size' })),
  skip: QueryInteger.pipe(z.number().int().min(0).max(MAX_SKIP))
    .default(0)
    .meta(documentedAs({ type: 'integer', minimum: 0, maximum: MAX_SKIP, default: 0, description: 'Records to skip' })),
}

/** The envelope fields every wallet list starts with (spec 2.4); the records follow under their own key. */
export const WALLET_LIST_HEAD = {
  trader: z.string(),
  chainId: z.number().int(),
  first: z.number().int(),
  skip: z.number().int(),
  count: z.number().int(),
}

/** The pair a record is about, spelled as the indexed source stores it (legacy spellings included). */
export const PairRef = z.strictObject({ id: z.string(), from: z.string(), to: z.string() })
export type PairRef = z.infer<typeof PairRef>
