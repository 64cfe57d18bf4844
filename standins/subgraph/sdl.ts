// The schema text, generated from the entity specs the way graph-node generates a subgraph's API: per
// entity an object type (derived fields take a collection's arguments), an `<Entity>_filter` input and
// an `<Entity>_orderBy` enum (a relation adds `relation__field` for each scalar field of its target),
// and a single and a plural query field taking graph-node's `block` and `subgraphError`; plus graph-node's
// own scalars, enums, inputs, directives and `_meta`, worded as the live deployment words them.

import { ENTITIES, ENTITY_BY_NAME, isListField, relationTarget, type EntitySpec } from './entities.ts'
import { DEFAULT_FIRST } from './collection-query.ts'
import { filterInputsOf } from './filters.ts'

const BLOCK_ARGUMENT =
  '"The block at which the query should be executed. Can either be a `{ hash: Bytes }` value containing a block hash, a `{ number: Int }` containing the block number, or a `{ number_gte: Int }` containing the minimum block number. In the case of `number_gte`, the query will be executed on the latest block only if the subgraph has progressed to or past the minimum block number. Defaults to the latest block when omitted." block: Block_height'
const SUBGRAPH_ERROR_ARGUMENT =
  '"Set to `allow` to receive data even if the subgraph has skipped over errors while syncing." subgraphError: _SubgraphErrorPolicy_! = deny'

/** graph-node's part of every subgraph's API, before the entities. */
const GRAPH_NODE_TYPES = [
  'directive @entity on OBJECT',
  'directive @subgraphId(id: String!) on OBJECT',
  'directive @derivedFrom(field: String!) on FIELD_DEFINITION',
  'scalar BigDecimal',
  'scalar BigInt',
  'scalar Bytes',
  '"8 bytes signed integer"\nscalar Int8',
  '"A string representation of microseconds UNIX timestamp (16 digits)"\nscalar Timestamp',
  block(
    '"Indicates whether the current, partially filled bucket should be included in the response. Defaults to `exclude`"\nenum Aggregation_current',
    [
      '"Exclude the current, partially filled bucket from the response" exclude',
      '"Include the current, partially filled bucket in the response" include',
    ],
  ),
  block('enum Aggregation_interval', ['hour', 'day']),
  block('input BlockChangedFilter', ['number_gte: Int!']),
  block('input Block_height', ['hash: Bytes', 'number: Int', 'number_gte: Int']),
  block('"Defines the order direction, either ascending or descending"\nenum OrderDirection', ['asc', 'desc']),
  block('enum _SubgraphErrorPolicy_', [
    '"Data will be returned even if the subgraph has indexing errors" allow',
    '"If the subgraph has indexing errors, data will be omitted. The default." deny',
  ]),
]

const META_TYPES = [
  block('type _Block_', [
    '"The hash of the block" hash: Bytes',
    '"The block number" number: Int!',
    '"Integer representation of the timestamp stored in blocks for the chain" timestamp: Int',
    '"The hash of the parent block" parentHash: Bytes',
  ]),
  block('"The type for the top-level _meta field"\ntype _Meta_', [
    '"Information about a specific subgraph block. The hash of the block\\nwill be null if the _meta field has a block constraint that asks for\\na block number. It will be filled if the _meta field has no block constraint\\nand therefore asks for the latest  block" block: _Block_!',
    '"The deployment ID" deployment: String!',
    '"If `true`, the subgraph encountered indexing errors at some past block" hasIndexingErrors: Boolean!',
  ]),
]

export function subgraphSdl(withoutFields: ReadonlySet<string> = new Set()): string {
  return [
    ...GRAPH_NODE_TYPES,
    ...ENTITIES.flatMap((spec) => [objectType(spec, withoutFields), filterInput(spec), orderByEnum(spec)]),
    ...META_TYPES,
    queryType(),
  ].join('\n\n')
}

function objectType(spec: EntitySpec, withoutFields: ReadonlySet<string>): string {
  const stored = Object.entries(spec.fields).map(([field, fieldType]) => `${field}: ${fieldType}`)
  const derived = Object.entries(spec.derived).map(([field, { entity }]) => `${field}(${collectionArguments(entity)}): [${entity}!]!`)
  const lines = [...stored, ...derived].filter((line) => !withoutFields.has(`${spec.name}.${line.split(/[(:]/)[0]}`))
  return block(`type ${spec.name}`, lines)
}

function filterInput(spec: EntitySpec): string {
  return block(`input ${spec.name}_filter`, [
    ...filterInputsOf(spec).map((input) => `${input.key}: ${input.inputType}`),
    '"Filter for the block changed event." _change_block: BlockChangedFilter',
    `and: [${spec.name}_filter]`,
    `or: [${spec.name}_filter]`,
  ])
}

/** Every field, a relation followed by the target's scalar fields (`pair__from`); derived fields last. */
function orderByEnum(spec: EntitySpec): string {
  const values = Object.entries(spec.fields).flatMap(([field, fieldType]) => {
    const target = relationTarget(fieldType)
    if (!target) return [field]
    const childFields = Object.entries(ENTITY_BY_NAME.get(target)!.fields).filter(
      ([, childType]) => !relationTarget(childType) && !isListField(childType),
    )
    return [field, ...childFields.map(([childField]) => `${field}__${childField}`)]
  })
  return block(`enum ${spec.name}_orderBy`, [...values, ...Object.keys(spec.derived)])
}

function collectionArguments(entity: string): string {
  return `skip: Int = 0, first: Int = ${DEFAULT_FIRST}, orderBy: ${entity}_orderBy, orderDirection: OrderDirection, where: ${entity}_filter`
}

function queryType(): string {
  const fields = ENTITIES.flatMap((spec) => [
    `${spec.single}(id: ID!, ${BLOCK_ARGUMENT}, ${SUBGRAPH_ERROR_ARGUMENT}): ${spec.name}`,
    `${spec.collection}(${collectionArguments(spec.name)}, ${BLOCK_ARGUMENT}, ${SUBGRAPH_ERROR_ARGUMENT}): [${spec.name}!]!`,
  ])
  return block('type Query', [...fields, '"Access to subgraph metadata" _meta(block: Block_height): _Meta_'])
}

function block(header: string, lines: readonly string[]): string {
  return `${header} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}`
}
