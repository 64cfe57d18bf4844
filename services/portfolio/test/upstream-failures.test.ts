// When the indexed source fails (errors, a 500, an answer cut off mid-body, a hang, or nothing
// listening), every portfolio read answers 502 in the framework shape and the metrics show it.

import t from 'tap'
import { DEMO_TRADER } from '../../../standins/subgraph/index.ts'
import { startGateway } from '../../indexer/test/fixtures/gateway.ts'
import { portfolioRoutes } from '../routes.ts'
import { EVENT_DEADLINE_MS, withDeadline } from '../../../test/support/wait.ts'

// long enough for a cold stand-in on a busy machine, short enough for the hang test
const TIMEOUT_MS = 1500
const gateway = await startGateway(t, { routes: portfolioRoutes, timeoutMs: TIMEOUT_MS })
const { metrics, standin } = gateway
const READS = ['/v1/pairs', `/v1/limits?trader=${DEMO_TRADER}`, `/v1/trades?trader=${DEMO_TRADER}`, `/v1/orders?trader=${DEMO_TRADER}`]

const badGateway = (message: string, reason: string) => ({
  error: 'Bad Gateway',
  message: `the indexed data source of chain 42161 ${message}`,
  details: { chainId: 42161, reason },
})

async function outcomes(): Promise<Record<string, number>> {
  const { values } = await metrics.indexerRequests.get()
  return Object.fromEntries(values.filter((entry) => entry.labels.chain === '42161').map((entry) => [entry.labels.outcome, entry.value]))
}

async function up(): Promise<number | undefined> {
  return (await metrics.indexerUp.get()).values.find((entry) => entry.labels.chain === '42161')?.value
}

t.test('a healthy source: 200, up', async (t) => {
  for (const path of READS) t.equal((await gateway.get(path)).status, 200, path)
  t.strictSame(await outcomes(), { ok: 4 })
  t.equal(await up(), 1)
})

t.test('GraphQL errors (HTTP 200): 502 on every read', async (t) => {
  standin.setFault('graphql-errors')
  for (const path of READS) {
    const answer = await gateway.get(path)
    t.equal(answer.status, 502, path)
    t.strictSame(answer.body, badGateway('answered with GraphQL errors', 'graphql_errors'))
  }
  t.strictSame(await outcomes(), { ok: 4, graphql_errors: 4 })
  t.equal(await up(), 0)
})

t.test('HTTP 500: 502', async (t) => {
  standin.setFault('http-500')
  const answer = await gateway.get(READS[1]!)
  t.equal(answer.status, 502)
  t.strictSame(answer.body, badGateway('answered HTTP 500', 'http_error'))
})

t.test('the connection drops mid-answer: 502', async (t) => {
  standin.setFault('reset-mid-response')
  const answer = await gateway.get(READS[1]!)
  t.equal(answer.status, 502)
  t.strictSame(answer.body, badGateway('cannot be reached (connection refused or dropped)', 'network_error'))
})

t.test('a hanging source: 502 once the timeout passes', async (t) => {
  standin.setFault('hang')
  const started = performance.now()
  // a hang detector: the timeout answers after 1.5 s; 20 s (EVENT_DEADLINE_MS) is over 3 times that
  const answer = await withDeadline(gateway.get(READS[0]!), EVENT_DEADLINE_MS, 'the 502 of a hanging source')
  const elapsed = performance.now() - started
  t.equal(answer.status, 502)
  t.strictSame(answer.body, badGateway(`did not answer within ${TIMEOUT_MS} ms`, 'timeout'))
  t.ok(elapsed >= TIMEOUT_MS - 5, 'not before the timeout')
  t.comment(`answered after ${Math.round(elapsed)} ms`)
})

t.test('recovery: 200 and up again', async (t) => {
  standin.setFault('none')
  t.equal((await gateway.get(READS[2]!)).status, 200)
  t.equal(await up(), 1)
  t.strictSame(await outcomes(), { ok: 5, graphql_errors: 4, http_error: 1, network_error: 1, timeout: 1 })
})

t.test('nothing listening: 502', async (t) => {
  await gateway.proxy.close()
  const answer = await gateway.get(READS[3]!)
  t.equal(answer.status, 502)
  t.strictSame(answer.body, badGateway('cannot be reached (connection refused or dropped)', 'network_error'))
  t.equal(await up(), 0)
  t.equal((await outcomes()).network_error, 2)
})
