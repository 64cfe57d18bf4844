// The first answers after `npm start`: from the first /v1/status answer, every route of the OpenAPI document (and
// the pages) answers as it will later; the test sends them all with that first status request, the moment the edge
// takes connections. A request whose dependency is still starting waits for it within its own
// deadline; bad input is refused at once; nothing answers 503 `starting`. The service runs as `npm start` runs it,
// its embedded indexed source and History API stand-in started after the prices; its chain is configured at a node
// of the test's that never answers, so onboarding stays in its start for the whole file (no development chains).
import t from 'tap'
import { createServer, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { buildOpenApiDocument } from '../../schemas/openapi.ts'
import { listenOnLoopback } from '../support/loopback-http.ts'
import { freePort } from '../support/servers.ts'
import { chainAt, NPM_START_ENTRY, startServiceProcess } from '../support/service-process.ts'
import { START_DEADLINE_MS, waitFor } from '../support/wait.ts'

/**
 * How long onboarding's requests wait for the chains. A bad body answered sooner did not wait for them; it
 * can still wait for the event loop, which loads the stand-ins and onboarding's code once prices are served
 * (4.1 s seen on a two-core machine at load 15): three times that and more.
 */
const ONBOARD_DEADLINE_MS = 15_000

// built before the start: building it takes the test's process hundreds of ms
const documented = Object.entries(buildOpenApiDocument().paths ?? {}).flatMap(([path, operations]) =>
  Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
)

const node = await listenOnLoopback(createServer(() => undefined))
const port = await freePort()
const service = startServiceProcess(
  ['ingestor', 'edge'],
  {
    PORT: String(port),
    HOST: '127.0.0.1',
    ONBOARD_DEADLINE_MS: String(ONBOARD_DEADLINE_MS),
    ...chainAt(node.url),
  },
  undefined,
  NPM_START_ENTRY,
)
// the node goes first: the chain check's requests fail at once, and the process can stop
t.teardown(async () => {
  await node.close()
  await service.stop()
})

/** Whether the port takes a connection: the edge listens. */
const accepts = () =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
await waitFor(accepts, { timeoutMs: START_DEADLINE_MS, intervalMs: 2, what: 'the edge to listen' })
// the first /v1/status and every other route at once, the moment the edge listens
const sentFrom = performance.now()

const PARAMS: Record<string, string> = { pair: 'BTC-USD', chainId: '421614', id: `0x${'cd'.repeat(32)}` }
/** A POST's body: `{}`, and for onboarding one that fails its schema. */
const BODIES: Record<string, string> = { 'POST /v1/onboard': '{"chainId":1}' }
/** What each route answers without a query, as it will once everything has started. */
const EXPECTED: Record<string, number> = {
  'GET /v1/prices': 200,
  'GET /v1/prices/{pair}': 200,
  // a plain GET, neither an upgrade nor an event stream
  'GET /v1/prices/stream': 426,
  'GET /v1/candles/stream': 426,
  'GET /v1/status': 200,
  'GET /v1/market-hours': 200,
  // no pair, no period
  'POST /v1/ohlc': 400,
  'GET /v1/udf/config': 200,
  'GET /v1/udf/symbols': 400,
  'GET /v1/udf/search': 200,
  'GET /v1/udf/history': 400,
  'GET /v1/udf/time': 200,
  // waits for the indexed source's market state
  'GET /v1/depth/{pair}': 200,
  'GET /v1/depth/{pair}/quote': 400,
  // waits for the indexed source
  'GET /v1/pairs': 200,
  'GET /v1/limits': 400,
  'GET /v1/trades': 400,
  'GET /v1/orders': 400,
  // `{}` has no query: graph-node's 400
  'POST /v1/subgraph/gn': 400,
  'POST /v1/subgraph/{chainId}/gn': 400,
  'POST /graph': 400,
  'POST /v1/onboard': 400,
  // waits for the chains up to ONBOARD_DEADLINE_MS, then says to retry
  'GET /v1/onboard/{id}': 500,
  'GET /v1/openapi.json': 200,
  'GET /v1/asyncapi.json': 200,
  'GET /': 200,
  'GET /docs': 200,
}
/** One request on a connection of its own; node:http, whose request costs the sender less than fetch's. */
function exchange(route: string): Promise<{ route: string; sentAfterMs: number; answeredInMs: number; status: number; body: string }> {
  const [method, template] = route.split(' ') as [string, string]
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name]!)
  return new Promise((resolve, reject) => {
    const sentAfterMs = performance.now() - sentFrom
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, agent: false, headers: { 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const answeredInMs = performance.now() - sentFrom - sentAfterMs
          resolve({ route, sentAfterMs, answeredInMs, status: response.statusCode!, body: Buffer.concat(chunks).toString() })
        })
      },
    )
    request.on('error', reject)
    request.end(method === 'POST' ? (BODIES[route] ?? '{}') : undefined)
  })
}
const answers = await Promise.all([...documented, 'GET /', 'GET /docs'].map(exchange))
const firstStatus = answers.find((answer) => answer.route === 'GET /v1/status')!
const statusAnsweredAfterMs = firstStatus.sentAfterMs + firstStatus.answeredInMs

t.test('the first /v1/status answer says ok with every pair', async (t) => {
  t.equal(firstStatus.status, 200)
  t.match(JSON.parse(firstStatus.body), { status: 'ok', prices: { pairs: 83, stale: false } })
})

t.test('every route answers as it will later: no 503 while the start goes on', async (t) => {
  t.same(Object.keys(EXPECTED).sort(), [...documented, 'GET /', 'GET /docs'].sort(), 'the table names every route of the document')
  for (const { route, sentAfterMs, status, body } of answers) {
    // sent with the status request, so no later than its answer however long a loaded machine took to give it:
    // a route that answers as it will later then does so from the first status answer on
    t.ok(sentAfterMs <= statusAnsweredAfterMs, `${route} was sent before the first status answer came`)
    t.equal(status, EXPECTED[route], `${route}: ${body.slice(0, 200)}`)
    t.notMatch(body, /the service is starting/, `${route} is not refused as starting`)
  }
})

t.test('a bad onboarding body gets its 400 at once while the chains are starting', async (t) => {
  const { status, body, answeredInMs } = answers.find((answer) => answer.route === 'POST /v1/onboard')!
  const parsed = JSON.parse(body)
  t.same(Object.keys(parsed).sort(), ['error', 'issues', 'message'])
  t.equal(parsed.error, 'Bad Request')
  t.equal(parsed.message, 'invalid onboarding request')
  t.same(
    parsed.issues.map((issue: { path: unknown[] }) => issue.path),
    [['chainId'], ['partner']],
  )
  t.equal(status, 400)
  // refused on its body alone: it did not wait for the chains
  t.ok(answeredInMs < ONBOARD_DEADLINE_MS, `answered in ${answeredInMs.toFixed(0)} ms`)
})

t.test('the onboarding lookup waited for the chains and said to retry', async (t) => {
  const lookup = answers.find((answer) => answer.route === 'GET /v1/onboard/{id}')!
  t.match(JSON.parse(lookup.body), { error: 'Internal Server Error', message: /^onboarding is still starting/ })
  t.ok(lookup.answeredInMs >= ONBOARD_DEADLINE_MS - 50, `after its deadline (${lookup.answeredInMs.toFixed(0)} ms)`)
})
