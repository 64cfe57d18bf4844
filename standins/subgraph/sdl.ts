// The GraphQL schema text, generated from the entity specs the way graph-node generates a subgraph's
// schema: per entity an object type, a `<Entity>_filter` input, an `<Entity>_orderBy` enum (with
// `relation__field` values), and a plural and a single query field, each taking graph-node's `block`
// and `subgraphError` arguments; plus `_meta`.

import { ENTITIES, ENTITY_BY_NAME, ENUMS, relationTarget, type EntitySpec } from './entities.ts'
import { DEFAULT_FIRST } from './collection-query.ts'
import { filterKeysOf, nestedKeysOf } from './filters.ts'

export function subgraphSdl(withoutFields: ReadonlySet<string> = new Set()): string {
  return [
    'scalar BigInt',
    'scalar Bytes',
    block('enum OrderDirection', ['asc', 'desc']),
    block('enum _SubgraphErrorPolicy_', ['allow', 'deny']),
    block('input Block_height', ['hash: Bytes', 'number: Int', 'number_gte: Int']),
    ...Object.entries(ENUMS).map(([name, values]) => block(`enum ${name}`, values)),
    ...ENTITIES.flatMap((spec) => [objectType(spec, withoutFields), filterInput(spec), orderByEnum(spec)]),
    block('type _Block_', ['hash: Bytes', 'number: Int!', 'timestamp: Int', 'parentHash: Bytes']),
    block('type _Meta_', ['block: _Block_!', 'deployment: String!', 'hasIndexingErrors: Boolean!']),
    queryType(),
  ].join('\n\n')
}

function objectType(spec: EntitySpec, withoutFields: ReadonlySet<string>): string {
  const fields = Object.entries(spec.fields).filter(([field]) => !withoutFields.has(`${spec.name}.${field}`))
  return block(
    `type ${spec.name}`,
    fields.map(([field, fieldType]) => `${field}: ${fieldType}`),
  )
}

function filterInput(spec: EntitySpec): string {
  const keys = filterKeysOf(spec).map((key) => `${key.key}: ${key.inputType}`)
  const nested = nestedKeysOf(spec).map((key) => `${key.key}: ${key.target}_filter`)
  return block(`input ${spec.name}_filter`, [...keys, ...nested, `and: [${spec.name}_filter]`, `or: [${spec.name}_filter]`])
}

function orderByEnum(spec: EntitySpec): string {
  const values = Object.entries(spec.fields).flatMap(([field, fieldType]) => {
    const target = relationTarget(fieldType)
    if (!target) return [field]
    const childFields = Object.entries(ENTITY_BY_NAME.get(target)!.fields).filter(([, childType]) => !relationTarget(childType))
    return [field, ...childFields.map(([childField]) => `${field}__${childField}`)]
  })
  return block(`enum ${spec.name}_orderBy`, values)
}

const GRAPH_NODE_ARGUMENTS = 'block: Block_height, subgraphError: _SubgraphErrorPolicy_! = deny'

function queryType(): string {
  const fields = ENTITIES.flatMap((spec) => [
    `${spec.collection}(skip: Int = 0, first: Int = ${DEFAULT_FIRST}, orderBy: ${spec.name}_orderBy, ` +
      `orderDirection: OrderDirection, where: ${spec.name}_filter, ${GRAPH_NODE_ARGUMENTS}): [${spec.name}!]!`,
    `${spec.single}(id: ID!, ${GRAPH_NODE_ARGUMENTS}): ${spec.name}`,
  ])
  return block('type Query', [...fields, '_meta(block: Block_height): _Meta_'])
}

function block(header: string, lines: readonly string[]): string {
  return `${header} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}`
}
