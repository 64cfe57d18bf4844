// The GraphQL schema text, generated from the entity specs the way graph-node generates a subgraph's
// schema: per entity an object type, a `<Entity>_filter` input, an `<Entity>_orderBy` enum, and a
// plural and a single query field. (No time-travel `block` argument and no `subgraphError` argument.)

import { ENTITIES, type EntitySpec } from './entities.ts'
import { DEFAULT_FIRST } from './collection-query.ts'
import { filterKeysOf } from './filters.ts'

export function subgraphSdl(): string {
  return [
    'scalar BigInt',
    'scalar Bytes',
    'enum OrderDirection {\n  asc\n  desc\n}',
    ...ENTITIES.flatMap((spec) => [objectType(spec), filterInput(spec), orderByEnum(spec)]),
    'type _Block_ {\n  hash: Bytes\n  number: Int!\n  timestamp: Int\n}',
    'type _Meta_ {\n  block: _Block_!\n  deployment: String!\n  hasIndexingErrors: Boolean!\n}',
    queryType(),
  ].join('\n\n')
}

function objectType(spec: EntitySpec): string {
  return block(
    `type ${spec.name}`,
    Object.entries(spec.fields).map(([field, fieldType]) => `${field}: ${fieldType}`),
  )
}

function filterInput(spec: EntitySpec): string {
  const keys = filterKeysOf(spec).map((key) => `${key.key}: ${key.inputType}`)
  return block(`input ${spec.name}_filter`, [...keys, `and: [${spec.name}_filter]`, `or: [${spec.name}_filter]`])
}

function orderByEnum(spec: EntitySpec): string {
  return block(`enum ${spec.name}_orderBy`, Object.keys(spec.fields))
}

function queryType(): string {
  const fields = ENTITIES.flatMap((spec) => [
    `${spec.collection}(skip: Int = 0, first: Int = ${DEFAULT_FIRST}, orderBy: ${spec.name}_orderBy, ` +
      `orderDirection: OrderDirection, where: ${spec.name}_filter): [${spec.name}!]!`,
    `${spec.single}(id: ID!): ${spec.name}`,
  ])
  return block('type Query', [...fields, '_meta: _Meta_'])
}

function block(header: string, lines: readonly string[]): string {
  return `${header} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}`
}
