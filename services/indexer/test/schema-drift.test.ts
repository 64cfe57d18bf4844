// The drift check against real stand-ins: the whole schema, and deployments lacking fields; the npm
// command's output and exit codes.

import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'
import { startIndexerStandin } from '../../../standins/subgraph/index.ts'
import { findMissingFields } from '../schema-drift.ts'

const run = promisify(execFile)

t.test('a deployment with every field: nothing missing', async (t) => {
  const standin = await startIndexerStandin()
  t.teardown(() => standin.close())
  t.strictSame(await findMissingFields(standin.url(42161), 5000), [])
})

t.test('a deployment without some fields: each named, optional or required', async (t) => {
  const standin = await startIndexerStandin({ withoutFields: ['Pair.priceImpactK', 'Limit.orderId', 'Vault.assets'] })
  t.teardown(() => standin.close())
  t.strictSame(await findMissingFields(standin.url(42161), 5000), [
    { field: 'Limit.orderId', optional: false },
    { field: 'Pair.priceImpactK', optional: true },
    { field: 'Vault.assets', optional: true },
  ])

  const command = await run('npx', ['tsx', 'scripts/subgraph-drift.ts', standin.url(42161)], { timeout: 60_000 }).catch(
    (error: { code: number; stdout: string }) => error,
  )
  t.equal((command as { code?: number }).code, 1, 'exit 1: fields missing')
  t.equal(
    command.stdout,
    `${standin.url(42161)}: 3 field(s) missing\n` +
      '  Limit.orderId  required: reads selecting it fail\n' +
      '  Pair.priceImpactK  optional: read as null\n' +
      '  Vault.assets  optional: read as null\n',
  )
})

t.test('an unreachable URL: exit 2', async (t) => {
  const command = await run('npx', ['tsx', 'scripts/subgraph-drift.ts', 'http://127.0.0.1:9/subgraphs/x'], { timeout: 60_000 }).catch(
    (error: { code: number; stdout: string }) => error,
  )
  t.equal((command as { code?: number }).code, 2)
  t.match(command.stdout, /cannot introspect \(cannot be reached/)
})
