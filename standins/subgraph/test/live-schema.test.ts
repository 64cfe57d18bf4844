// The stand-in's schema, read by introspection as a client reads it, against the live deployment's
// introspection (fixtures/live-schema.ts): every type, every field with its type and arguments, every
// Query field, graph-node's own scalars, enums and inputs, and the filter and orderBy rules.

import t from 'tap'
import {
  astFromValue,
  buildClientSchema,
  getIntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isObjectType,
  Kind,
  parse,
  print,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLSchema,
  type IntrospectionQuery,
  type ObjectTypeDefinitionNode,
} from 'graphql'
import {
  LIVE_ENUMS,
  LIVE_FILTERS,
  LIVE_INPUTS,
  LIVE_OBJECT_TYPES,
  LIVE_ORDER_BY,
  LIVE_ORDER_BY_ENDINGS,
  LIVE_QUERY_ENTITIES,
  LIVE_SCALARS,
  LIVE_SINGLE_ARGUMENTS,
  LIVE_USER_FILTER_ENDING,
  liveCollectionArguments,
} from './fixtures/live-schema.ts'
import { queryData, startStandin } from './fixtures/standin-client.ts'

const liveObjects = parse(LIVE_OBJECT_TYPES).definitions.filter(
  (definition): definition is ObjectTypeDefinitionNode => definition.kind === Kind.OBJECT_TYPE_DEFINITION,
)

function argument(arg: GraphQLArgument | GraphQLInputField): string {
  const fallback = arg.defaultValue === undefined ? undefined : astFromValue(arg.defaultValue, arg.type)
  return `${arg.name}: ${String(arg.type)}${fallback ? ` = ${print(fallback)}` : ''}`
}

function fieldText(field: GraphQLField<unknown, unknown>): string {
  const args = field.args.length > 0 ? `(${field.args.map(argument).join(', ')})` : ''
  return `${field.name}${args}: ${String(field.type)}`
}

function liveFieldText(node: ObjectTypeDefinitionNode['fields'] extends ReadonlyArray<infer F> | undefined ? F : never): string {
  const args = node.arguments?.length ? `(${node.arguments.map((arg) => print(arg)).join(', ')})` : ''
  return `${node.name.value}${args}: ${print(node.type)}`
}

function inputKeys(schema: GraphQLSchema, name: string): string[] {
  const type = schema.getType(name)
  return isInputObjectType(type) ? Object.values(type.getFields()).map(argument) : []
}

function enumValues(schema: GraphQLSchema, name: string): string[] {
  const type = schema.getType(name)
  return isEnumType(type) ? type.getValues().map((value) => value.name) : []
}

t.test('the stand-in declares what the live deployment declares', async (t) => {
  const standin = await startStandin(t)
  const schema = buildClientSchema(await queryData<IntrospectionQuery>(standin.url(42161), getIntrospectionQuery()))
  const entities = LIVE_QUERY_ENTITIES.map(([entity]) => entity)

  t.test('every type, and nothing else', async (t) => {
    const expected = [
      ...LIVE_SCALARS,
      ...Object.keys(LIVE_ENUMS),
      ...Object.keys(LIVE_INPUTS),
      ...liveObjects.map((definition) => definition.name.value),
      ...entities.flatMap((entity) => [`${entity}_filter`, `${entity}_orderBy`]),
      'Query',
    ]
    const actual = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__'))
    t.strictSame(actual.sort(), expected.sort())
  })

  t.test('every entity field, in order, with its type, nullability and arguments', async (t) => {
    t.equal(liveObjects.length, entities.length + 2, 'the 20 entities, _Block_ and _Meta_')
    for (const definition of liveObjects) {
      const type = schema.getType(definition.name.value)
      t.ok(isObjectType(type), definition.name.value)
      if (!isObjectType(type)) continue
      t.strictSame(Object.values(type.getFields()).map(fieldText), (definition.fields ?? []).map(liveFieldText), definition.name.value)
    }
  })

  t.test('the Query fields, in order, with their arguments', async (t) => {
    const expected = LIVE_QUERY_ENTITIES.flatMap(([entity, single, collection]) => [
      `${single}(${LIVE_SINGLE_ARGUMENTS.join(', ')}): ${entity}`,
      `${collection}(${liveCollectionArguments(entity).join(', ')}): [${entity}!]!`,
    ])
    t.strictSame(Object.values(schema.getQueryType()!.getFields()).map(fieldText), [...expected, '_meta(block: Block_height): _Meta_'])
  })

  t.test("graph-node's enums and inputs", async (t) => {
    for (const [name, values] of Object.entries(LIVE_ENUMS)) t.strictSame(enumValues(schema, name), values, name)
    for (const [name, fields] of Object.entries(LIVE_INPUTS)) t.strictSame(inputKeys(schema, name), fields, name)
  })

  t.test('filter inputs: Bytes, relation, list and derived fields, and the ending of every filter', async (t) => {
    for (const [name, keys] of Object.entries(LIVE_FILTERS)) t.strictSame(inputKeys(schema, name), keys, name)
    const userFilter = inputKeys(schema, 'User_filter')
    t.strictSame(userFilter.slice(-LIVE_USER_FILTER_ENDING.length), LIVE_USER_FILTER_ENDING, 'User_filter ends with the derived fields')
    for (const entity of entities) {
      t.strictSame(
        inputKeys(schema, `${entity}_filter`).slice(-3),
        ['_change_block: BlockChangedFilter', `and: [${entity}_filter]`, `or: [${entity}_filter]`],
        `${entity}_filter ends as every filter does`,
      )
    }
  })

  t.test('orderBy enums: relations add their target’s scalar fields', async (t) => {
    for (const [name, values] of Object.entries(LIVE_ORDER_BY)) t.strictSame(enumValues(schema, name), values, name)
    for (const [name, ending] of Object.entries(LIVE_ORDER_BY_ENDINGS)) {
      t.strictSame(enumValues(schema, name).slice(-ending.length), ending, `the end of ${name}`)
    }
  })
})
