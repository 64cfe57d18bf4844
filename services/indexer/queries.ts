import { z } from 'zod'
import {
  graphTypeOf,
  isOptionalField,
  SubgraphLimit,
  SubgraphOrder,
  SubgraphPair,
  SubgraphTrade,
  SubgraphVault,
} from './subgraph-schemas.ts'

// The GraphQL documents sent to the indexed source: the public clients' queries, with paging and a
// `where` passed as one variable so optional filters (the time cursors) are simply left out. The
// selected fields are read off the record schemas, so the two cannot drift apart; `omitted` names the
// optional fields (`Type.field`) a deployment turned out to lack, which are then not asked for.

export type Omitted = ReadonlySet<string>

const META = '_meta { block { timestamp } }'

/** The one vault row, as the venue's front end addresses it. */
const VAULT_ID = 'usdc-vault'

export const PAIRS_QUERY = (omitted: Omitted) => `query pairs {
  pairs(first: 1000) { ${selectionOf(SubgraphPair, omitted)} }
  vault(id: "${VAULT_ID}") { ${selectionOf(SubgraphVault, omitted)} }
  ${META}
}`

/** Resting limit/stop orders, oldest first, so `initiatedAt_gt` pages forward. */
export const LIMITS_QUERY = (omitted: Omitted) => `query restingOrders($where: Limit_filter!, $first: Int!, $skip: Int!) {
  limits(where: $where, first: $first, skip: $skip, orderBy: initiatedAt, orderDirection: asc) { ${selectionOf(SubgraphLimit, omitted)} }
  ${META}
}`

/** Open positions, oldest first, so `timestamp_gt` pages forward. */
export const TRADES_QUERY = (omitted: Omitted) => `query openTrades($where: Trade_filter!, $first: Int!, $skip: Int!) {
  trades(where: $where, first: $first, skip: $skip, orderBy: timestamp, orderDirection: asc) { ${selectionOf(SubgraphTrade, omitted)} }
  ${META}
}`

/** Settled orders, newest first (as the SDK's history), so `executedAt_lt` pages further back. */
export const ORDERS_QUERY = (omitted: Omitted) => `query settledOrders($where: Order_filter!, $first: Int!, $skip: Int!) {
  orders(where: $where, first: $first, skip: $skip, orderBy: executedAt, orderDirection: desc) { ${selectionOf(SubgraphOrder, omitted)} }
  ${META}
}`

/** Every query, with nothing omitted: what the service asks of a subgraph (the drift check reads it). */
export const ALL_QUERIES: readonly string[] = [PAIRS_QUERY, LIMITS_QUERY, TRADES_QUERY, ORDERS_QUERY].map((query) => query(new Set()))

/** A GraphQL selection of an object schema's fields: `id pair { id from to } isBuy`. */
export function selectionOf(schema: z.ZodObject, omitted: Omitted = new Set()): string {
  const type = graphTypeOf(schema)
  return shapeOf(schema)
    .filter(([field, fieldSchema]) => !(isOptionalField(fieldSchema) && omitted.has(`${type}.${field}`)))
    .map(([field, fieldSchema]) => {
      const inner = unwrapped(fieldSchema)
      return inner instanceof z.ZodObject ? `${field} { ${selectionOf(inner, omitted)} }` : field
    })
    .join(' ')
}

const RECORD_SCHEMAS: readonly z.ZodObject[] = [SubgraphPair, SubgraphVault, SubgraphLimit, SubgraphTrade, SubgraphOrder]

/** Every field the record schemas select, as `Type.field`, and whether a read can go on without it. */
export function selectedFields(schemas: readonly z.ZodObject[] = RECORD_SCHEMAS): Array<{ field: string; optional: boolean }> {
  return schemas.flatMap((schema) =>
    shapeOf(schema).flatMap(([field, fieldSchema]) => {
      const own = { field: `${graphTypeOf(schema)}.${field}`, optional: isOptionalField(fieldSchema) }
      const inner = unwrapped(fieldSchema)
      return inner instanceof z.ZodObject ? [own, ...selectedFields([inner])] : [own]
    }),
  )
}

/** Whether `Type.field` is an optional field of some selection, which a read can go on without. */
export function isOmittable(typeField: string, schemas: readonly z.ZodObject[] = RECORD_SCHEMAS): boolean {
  return selectedFields(schemas).some((entry) => entry.field === typeField && entry.optional)
}

function shapeOf(schema: z.ZodObject): Array<[string, z.ZodType]> {
  return Object.entries<z.ZodType>(schema.shape)
}

function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema
  while (inner instanceof z.ZodCatch || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType
  return inner
}
