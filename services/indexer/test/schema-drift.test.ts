// The drift check against real stand-ins (the whole schema; deployments lacking fields), against
// deployments that declare a needed field nullable or lack an orderBy value, and against the live
// deployment's declared fields; the npm command's output and exit codes.

import t from 'tap'
import { buildClientSchema, getIntrospectionQuery, Kind, parse, type IntrospectionQuery } from 'graphql'
import { startIndexerStandin } from '../../../standins/subgraph/index.ts'
import { runTypeScript } from '../../../test/support/command-run.ts'
import { LIVE_OBJECT_TYPES } from '../../../standins/subgraph/test/fixtures/live-schema.ts'
import { postGraphql } from '../graphql-post.ts'
import { selectedFields } from '../queries.ts'
import { driftIn, findSchemaDrift, nullableInDeployment } from '../schema-drift.ts'

t.test('a deployment with every field: nothing to report', async (t) => {
  const standin = await startIndexerStandin()
  t.teardown(() => standin.close())
  t.strictSame(await findSchemaDrift(standin.url(42161), 5000), [])
})

t.test('a deployment without some fields: each named, optional or required', async (t) => {
  const standin = await startIndexerStandin({ withoutFields: ['Pair.priceImpactK', 'Limit.orderId', 'Vault.assets'] })
  t.teardown(() => standin.close())
  t.strictSame(await findSchemaDrift(standin.url(42161), 5000), [
    { field: 'Limit.orderId', optional: false, kind: 'missing' },
    { field: 'Pair.priceImpactK', optional: true, kind: 'missing' },
    { field: 'Vault.assets', optional: true, kind: 'missing' },
  ])

  const command = await runTypeScript('scripts/subgraph-drift.ts', [standin.url(42161)], { timeoutMs: 60_000 })
  t.equal(command.code, 1, 'exit 1: something to report')
  t.equal(
    command.stdout,
    `${standin.url(42161)}: 3 finding(s)\n` +
      '  Limit.orderId  required: reads selecting it fail\n' +
      '  Pair.priceImpactK  optional: read as null\n' +
      '  Vault.assets  optional: read as null\n',
  )
})

t.test('a needed field declared nullable, and an orderBy value a deployment lacks', async (t) => {
  const standin = await startIndexerStandin()
  t.teardown(() => standin.close())
  const introspection = (await postGraphql(standin.url(42161), getIntrospectionQuery(), {}, 5000)) as IntrospectionQuery
  const changed = structuredClone(introspection) as unknown as { __schema: { types: Array<Record<string, any>> } }
  const typeNamed = (name: string) => changed.__schema.types.find((type) => type.name === name)!
  const orderId = (typeNamed('Limit').fields as Array<{ name: string; type: { ofType: unknown } }>).find(
    (field) => field.name === 'orderId',
  )!
  orderId.type = orderId.type.ofType as never
  const orderBy = typeNamed('Limit_orderBy')
  orderBy.enumValues = (orderBy.enumValues as Array<{ name: string }>).filter((value) => value.name !== 'initiatedAt')
  t.strictSame(driftIn(buildClientSchema(changed as unknown as IntrospectionQuery)), [
    { field: 'Limit.orderId', optional: false, kind: 'nullable' },
    {
      field: 'restingOrders',
      optional: false,
      kind: 'refused',
      reason: 'Value "initiatedAt" does not exist in "Limit_orderBy" enum. Did you mean the enum value "updatedAt"?',
    },
  ])
})

t.test('the live deployment declares every field the service reads, non-null where the service needs it', async (t) => {
  const declared = new Map<string, boolean>()
  for (const definition of parse(LIVE_OBJECT_TYPES).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue
    for (const field of definition.fields ?? []) {
      declared.set(`${definition.name.value}.${field.name.value}`, field.type.kind === Kind.NON_NULL_TYPE)
    }
  }
  t.strictSame(
    selectedFields().filter(({ field }) => !declared.has(field)),
    [],
    'every field is there',
  )
  t.strictSame(nullableInDeployment(declared), [], 'no needed field is nullable')
})

t.test('an unreachable URL: exit 2', async (t) => {
  const command = await runTypeScript('scripts/subgraph-drift.ts', ['http://127.0.0.1:9/subgraphs/x'], { timeoutMs: 60_000 })
  t.equal(command.code, 2)
  t.match(command.stdout, /cannot introspect \(cannot be reached/)
})
