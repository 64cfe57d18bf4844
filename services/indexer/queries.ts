import { z } from 'zod'
import { SubgraphLimit, SubgraphOrder, SubgraphPair, SubgraphTrade } from './subgraph-schemas.ts'

// The GraphQL documents sent to the indexed source: the public SDK's queries, with paging and a
// `where` passed as one variable so optional filters (the time cursors) are simply left out. The
// selected fields are read off the response schemas, so the two cannot drift apart.

const META = '_meta { block { timestamp } }'

export const PAIRS_QUERY = `query pairs {
  pairs(first: 1000) { ${selectionOf(SubgraphPair)} }
  ${META}
}`

/** Resting limit/stop orders, oldest first, so `initiatedAt_gt` pages forward. */
export const LIMITS_QUERY = `query restingOrders($where: Limit_filter!, $first: Int!, $skip: Int!) {
  limits(where: $where, first: $first, skip: $skip, orderBy: initiatedAt, orderDirection: asc) { ${selectionOf(SubgraphLimit)} }
  ${META}
}`

/** Open positions, oldest first, so `timestamp_gt` pages forward. */
export const TRADES_QUERY = `query openTrades($where: Trade_filter!, $first: Int!, $skip: Int!) {
  trades(where: $where, first: $first, skip: $skip, orderBy: timestamp, orderDirection: asc) { ${selectionOf(SubgraphTrade)} }
  ${META}
}`

/** Settled orders, newest first (as the SDK's history), so `executedAt_lt` pages further back. */
export const ORDERS_QUERY = `query settledOrders($where: Order_filter!, $first: Int!, $skip: Int!) {
  orders(where: $where, first: $first, skip: $skip, orderBy: executedAt, orderDirection: desc) { ${selectionOf(SubgraphOrder)} }
  ${META}
}`

/** A GraphQL selection of an object schema's fields: `id pair { id from to } isBuy`. */
export function selectionOf(schema: z.ZodObject): string {
  return Object.entries(schema.shape)
    .map(([field, fieldSchema]) => {
      const inner = fieldSchema instanceof z.ZodNullable ? fieldSchema.unwrap() : fieldSchema
      return inner instanceof z.ZodObject ? `${field} { ${selectionOf(inner)} }` : field
    })
    .join(' ')
}
