// The executable schema: generic resolvers over in-memory tables, one set for every entity spec.
// Which chain's tables a request reads comes from its context.

import type { GraphQLSchema } from 'graphql'
import { createSchema } from 'graphql-yoga'
import type { ChainHead } from './chain-head.ts'
import { queryCollection, type CollectionArgs } from './collection-query.ts'
import { ENTITIES, relationTarget, type EntityName, type EntitySpec } from './entities.ts'
import { filterKeysOf, type Row } from './filters.ts'
import type { SeedData } from './rows.ts'
import { BigIntScalar, BytesScalar } from './scalars.ts'
import { subgraphSdl } from './sdl.ts'

export interface Table {
  rows: readonly Row[]
  byId: ReadonlyMap<string, Row>
}

export type Tables = Readonly<Record<EntityName, Table>>

export interface SubgraphContext {
  tables: Tables
  deployment: string
  /** the last indexed block, as `_meta` reports it */
  head(): ChainHead
}

// Parameters typed `never` let resolvers with different parent and argument types share one map.
type Resolver = (parent: never, args: never, context: SubgraphContext) => unknown

export function tablesOf(data: SeedData): Tables {
  return {
    Group: tableOf(data.groups),
    Pair: tableOf(data.pairs),
    Trade: tableOf(data.trades),
    Limit: tableOf(data.limits),
    Order: tableOf(data.orders),
  }
}

export function buildSubgraphSchema(): GraphQLSchema {
  const query: Record<string, Resolver> = {
    _meta: (_root: unknown, _args: unknown, context: SubgraphContext) => ({
      block: context.head(),
      deployment: context.deployment,
      hasIndexingErrors: false,
    }),
  }
  const relations: Record<string, Record<string, Resolver>> = {}
  for (const spec of ENTITIES) {
    const filterKeys = new Map(filterKeysOf(spec).map((filterKey) => [filterKey.key, filterKey]))
    query[spec.collection] = (_root: unknown, args: CollectionArgs, context: SubgraphContext) =>
      queryCollection(context.tables[spec.name].rows, args, filterKeys)
    query[spec.single] = (_root: unknown, args: { id: string }, context: SubgraphContext) =>
      context.tables[spec.name].byId.get(args.id) ?? null
    relations[spec.name] = relationResolvers(spec)
  }
  return createSchema<SubgraphContext>({
    typeDefs: subgraphSdl(),
    resolvers: { BigInt: BigIntScalar, Bytes: BytesScalar, Query: query, ...relations },
  })
}

/** A relation field holds the target's id; resolve it to the target row. */
function relationResolvers(spec: EntitySpec): Record<string, Resolver> {
  const resolvers: Record<string, Resolver> = {}
  for (const [field, fieldType] of Object.entries(spec.fields)) {
    const target = relationTarget(fieldType)
    if (!target) continue
    resolvers[field] = (row: Row, _args: unknown, context: SubgraphContext) => {
      const id = row[field]
      return typeof id === 'string' ? (context.tables[target].byId.get(id) ?? null) : null
    }
  }
  return resolvers
}

function tableOf(rows: readonly Row[]): Table {
  return { rows, byId: new Map(rows.map((row) => [String(row.id), row])) }
}
