// The executable schema: generic resolvers over in-memory tables, one set for every entity spec, with
// graph-node's `block` argument checked against the indexed head. Which chain's tables a request reads
// comes from its context.

import { GraphQLError, GraphQLFloat, GraphQLSchema, isEnumType, Kind, type GraphQLEnumType } from 'graphql'
import { createSchema } from 'graphql-yoga'
import type { ChainHead } from './chain-head.ts'
import { queryCollection, type CollectionArgs } from './collection-query.ts'
import { ENTITIES, ENTITY_BY_NAME, relationTarget, type EntityName, type EntitySpec } from './entities.ts'
import type { Lookup, Row } from './filters.ts'
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
  /** the block every row was last changed at, for `_change_block` (the stand-in keeps no history) */
  changedAtBlock: number
  /** the last indexed block, as `_meta` reports it */
  head(): ChainHead
}

interface BlockHeight {
  hash?: string | null
  number?: number | null
  number_gte?: number | null
}

type GraphNodeArgs = { block?: BlockHeight | null; subgraphError?: 'allow' | 'deny' }

// Parameters typed `never` let resolvers with different parent and argument types share one map.
type Resolver = (parent: never, args: never, context: SubgraphContext) => unknown

export function tablesOf(data: SeedData): Tables {
  const tables = {} as Record<EntityName, Table>
  for (const spec of ENTITIES) tables[spec.name] = tableOf(data.rows[spec.name])
  return tables
}

/** The schema, less `withoutFields` (`Type.field`), as a deployment of another version would lack them. */
export function buildSubgraphSchema(withoutFields: readonly string[] = []): GraphQLSchema {
  const query: Record<string, Resolver> = {
    _meta: (_root: unknown, _args: unknown, context: SubgraphContext) => ({
      block: context.head(),
      deployment: context.deployment,
      hasIndexingErrors: false,
    }),
  }
  const relations: Record<string, Record<string, Resolver>> = {}
  for (const spec of ENTITIES) {
    query[spec.collection] = (_root: unknown, args: CollectionArgs & GraphNodeArgs, context: SubgraphContext) => {
      checkBlock(args.block, context)
      return queryCollection(context.tables[spec.name].rows, spec, args, lookupIn(context))
    }
    query[spec.single] = (_root: unknown, args: { id: string } & GraphNodeArgs, context: SubgraphContext) => {
      checkBlock(args.block, context)
      return context.tables[spec.name].byId.get(args.id) ?? null
    }
    relations[spec.name] = relationResolvers(spec)
  }
  const built = createSchema<SubgraphContext>({
    typeDefs: subgraphSdl(new Set(withoutFields)),
    resolvers: { BigInt: BigIntScalar, Bytes: BytesScalar, Query: query, ...relations },
  }).toConfig()
  // graph-node lists Float with the other scalars though no field uses it; graphql-js drops unused built-ins
  const schema = new GraphQLSchema({ ...built, types: [...built.types, GraphQLFloat] })
  // every enum (`orderBy`, `orderDirection`, `subgraphError`) takes its value as a string too, as graph-node's do
  for (const type of Object.values(schema.getTypeMap())) if (isEnumType(type) && !type.name.startsWith('__')) acceptStringValues(type)
  return schema
}

/**
 * An enum value written as a string (`orderDirection: "desc"`) is taken as the bare name, as graph-node
 * coerces it (`graphql/src/values/coercion.rs`, `MaybeCoercible<EnumType>`); an unknown name is refused.
 */
function acceptStringValues(type: GraphQLEnumType): void {
  const parseLiteral = type.parseLiteral.bind(type) as (...args: Parameters<GraphQLEnumType['parseLiteral']>) => unknown
  type.parseLiteral = (node, variables) =>
    node.kind === Kind.STRING ? (type.parseValue(node.value) as unknown) : parseLiteral(node, variables)
}

/**
 * Time travel: the stand-in keeps no history, so a block at or below the head answers with the current
 * rows; a block past the head is refused as graph-node refuses it.
 */
function checkBlock(block: BlockHeight | null | undefined, context: SubgraphContext): void {
  if (!block) return
  const head = context.head()
  const wanted = block.number ?? block.number_gte
  if (typeof wanted === 'number' && wanted > head.number) {
    throw new GraphQLError(
      `Failed to decode \`block.number\` value: \`subgraph ${context.deployment} has only indexed up to block number ` +
        `${head.number} and data for block number ${wanted} is therefore not yet available\``,
    )
  }
  if (typeof block.hash === 'string' && block.hash !== head.hash) {
    throw new GraphQLError(`Failed to decode \`block.hash\` value: \`no block with that hash found\``)
  }
}

function lookupIn(context: SubgraphContext): Lookup {
  return {
    row: (entity, id) => context.tables[entity].byId.get(id),
    rows: (entity) => context.tables[entity].rows,
    changedAtBlock: context.changedAtBlock,
  }
}

/** A relation field holds the target's id: resolve it to the target row; a derived field lists the rows pointing back. */
function relationResolvers(spec: EntitySpec): Record<string, Resolver> {
  const resolvers: Record<string, Resolver> = {}
  for (const [field, { entity, field: backField }] of Object.entries(spec.derived)) {
    resolvers[field] = (row: Row, args: CollectionArgs, context: SubgraphContext) => {
      const pointingBack = context.tables[entity].rows.filter((child) => child[backField] === row.id)
      return queryCollection(pointingBack, ENTITY_BY_NAME.get(entity)!, args, lookupIn(context))
    }
  }
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
