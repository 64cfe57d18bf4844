import { z } from 'zod'
import { Address } from '../../schemas/common.ts'

// The records the service reads from the indexed source (a The Graph subgraph), as sent: BigInt as
// decimal text, Bytes as 0x-hex, ids as strings. Each names its GraphQL type, so the queries select
// exactly these fields and a deployment's lack of one can be traced to it. A required field that is
// missing or malformed drops that one record (counted, and warned about); an optional one passes
// through as null. Only the page around the records (an array where one is due) is all-or-nothing.

const BigIntText = z.string().regex(/^-?\d+$/, 'must be a decimal integer')
const Bytes = z.string().regex(/^0x[0-9a-fA-F]*$/, 'must be 0x-hex')

/** A field the record is still useful without: absent, null or malformed, it reads as null. */
function optional<T extends z.ZodType>(schema: T) {
  return schema.nullable().catch(null)
}

const GRAPH_TYPES = new WeakMap<z.ZodType, string>()

/** A selection on a GraphQL type of the subgraph. */
function graphType<Shape extends z.ZodRawShape>(type: string, shape: Shape) {
  const schema = z.object(shape)
  GRAPH_TYPES.set(schema, type)
  return schema
}

/** The subgraph type a selection is on (set by graphType). */
export function graphTypeOf(schema: z.ZodType): string | undefined {
  return GRAPH_TYPES.get(schema)
}

/** Whether a missing field can be left out of a selection (its absence reads as null). */
export function isOptionalField(schema: z.ZodType): boolean {
  return schema instanceof z.ZodCatch
}

const PairRef = graphType('Pair', { id: z.string(), from: z.string(), to: z.string() })

export const SubgraphPair = graphType('Pair', {
  id: z.string(),
  from: z.string(),
  to: z.string(),
  feed: optional(Bytes),
  group: graphType('Group', {
    id: z.string(),
    name: z.string(),
    minLeverage: optional(BigIntText),
    maxLeverage: optional(BigIntText),
    maxCollateralP: optional(BigIntText),
    longCollateral: optional(BigIntText),
    shortCollateral: optional(BigIntText),
  }),
  longOI: optional(BigIntText),
  shortOI: optional(BigIntText),
  maxOI: optional(BigIntText),
  makerFeeP: optional(BigIntText),
  takerFeeP: optional(BigIntText),
  spreadP: optional(BigIntText),
  maxLeverage: optional(BigIntText),
  overnightMaxLeverage: optional(BigIntText),
  lastTradePrice: optional(BigIntText),
  curFundingLong: optional(BigIntText),
  curFundingShort: optional(BigIntText),
  curRollover: optional(BigIntText),
  priceImpactK: optional(BigIntText),
  netVolThreshold: optional(BigIntText),
  decayRate: optional(BigIntText),
  buyVolume: optional(BigIntText),
  sellVolume: optional(BigIntText),
  lastUpdateTimestamp: optional(BigIntText),
})
export type SubgraphPair = z.infer<typeof SubgraphPair>

export const SubgraphVault = graphType('Vault', { assets: optional(BigIntText) })

export const SubgraphTrade = graphType('Trade', {
  tradeID: z.string().min(1),
  trader: Address,
  pair: graphType('Pair', {
    id: z.string(),
    from: z.string(),
    to: z.string(),
    accFundingLong: optional(BigIntText),
    accFundingShort: optional(BigIntText),
    accRolloverLong: optional(BigIntText),
    accRolloverShort: optional(BigIntText),
  }),
  index: z.string().regex(/^\d+$/),
  isBuy: z.boolean(),
  collateral: BigIntText,
  leverage: BigIntText,
  openPrice: BigIntText,
  stopLossPrice: optional(BigIntText),
  takeProfitPrice: optional(BigIntText),
  notional: optional(BigIntText),
  tradeNotional: optional(BigIntText),
  funding: optional(BigIntText),
  rollover: optional(BigIntText),
  timestamp: BigIntText,
})
export type SubgraphTrade = z.infer<typeof SubgraphTrade>

/** `LIMIT` or `STOP`, whatever the letter case; any other kind drops the record. */
const LimitType = z
  .string()
  .transform((text) => text.toUpperCase())
  .pipe(z.enum(['LIMIT', 'STOP']))

export const SubgraphLimit = graphType('Limit', {
  id: z.string(),
  trader: Address,
  pair: PairRef,
  isActive: z.boolean(),
  isBuy: z.boolean(),
  limitType: LimitType,
  openPrice: BigIntText,
  stopLossPrice: BigIntText,
  takeProfitPrice: BigIntText,
  collateral: BigIntText,
  leverage: BigIntText,
  notional: BigIntText,
  tradeNotional: BigIntText,
  orderId: z.string(),
  initiatedAt: BigIntText,
  updatedAt: BigIntText,
})
export type SubgraphLimit = z.infer<typeof SubgraphLimit>

export const SubgraphOrder = graphType('Order', {
  id: z.string(),
  trader: Address,
  pair: PairRef,
  tradeID: optional(z.string()),
  isBuy: z.boolean(),
  orderType: z.string(),
  orderAction: z.string(),
  price: optional(BigIntText),
  priceAfterImpact: optional(BigIntText),
  priceImpactP: optional(BigIntText),
  collateral: optional(BigIntText),
  leverage: optional(BigIntText),
  notional: optional(BigIntText),
  tradeNotional: optional(BigIntText),
  profitPercent: optional(BigIntText),
  totalProfitPercent: optional(BigIntText),
  amountSentToTrader: optional(BigIntText),
  rolloverFee: optional(BigIntText),
  fundingFee: optional(BigIntText),
  initiatedAt: BigIntText,
  executedAt: optional(BigIntText),
  executedTx: optional(Bytes),
  isCancelled: z.boolean(),
  cancelReason: optional(z.string()),
})
export type SubgraphOrder = z.infer<typeof SubgraphOrder>

/** Every query also selects `_meta`, whose block timestamp tells how far the source lags. */
export const Meta = z
  .object({ block: z.object({ timestamp: z.number().int().nullable() }) })
  .nullable()
  .catch(null)
export type Meta = z.infer<typeof Meta>

/** A page: the records as raw values (each is checked on its own), and `_meta`. */
export function pageOf<Key extends string>(key: Key) {
  return z.object({ [key]: z.array(z.unknown()), _meta: Meta } as { [K in Key]: z.ZodArray<z.ZodUnknown> } & { _meta: typeof Meta })
}

/** The pairs page also carries the vault, whose assets bound each group's collateral. */
export const PairsPage = pageOf('pairs').extend({ vault: SubgraphVault.nullable().catch(null) })

/** The GraphQL-over-HTTP envelope: `data`, and `errors` when something failed. */
export const GraphqlEnvelope = z.object({
  data: z.unknown().optional(),
  errors: z.array(z.object({ message: z.string() })).optional(),
})
