// test weight: heavy (10,000 requests against a service process): the runner counts this file a whole core (test/runner/schedule.ts)
// The HTTP harness: at least 10,000 generated hostile requests (fast-check, seeded) over every route and
// method, sent as raw bytes to the real process. Properties: the process stays up; every answer of ours carries
// x-request-id; no 5xx except the ones the OpenAPI document gives that route; every status is one the
// document lists for the route (405 and 404 off the routes); every 4xx body is the spec's shape for the
// route (framework with `issues` on 400, upstream-proxy on /v1/ohlc). What uWebSockets.js's parser refuses
// before any handler of ours runs depends on its build (test/support/uws-framing.ts, docs/hostile-input.md):
// a request whose framing is broken may be closed, left to the idle timeout or (v20.57) answered with
// uWebSockets' own 400, 431 or 505, which carry no x-request-id; those answers must be exactly its pages and
// come only for broken framing or a head over 4 KB. A head over 4 KB is refused by v20.57 always and by v20.30
// when it arrives in pieces (see LONG_HEAD_BYTES). Nothing waits without a deadline: a well-framed request not
// answered within ANSWER_DEADLINE_MS is a property failure, and the runs and the shrinking have time budgets,
// so a failure prints the seed, the path to replay and the batch shrunk as far as the budget allowed instead of
// running into the file's timeout. HOSTILE_SEED=<n> replays a run.
import { STATUS_CODES } from 'node:http'
import fc from 'fast-check'
import t from 'tap'
import { startIndexerStandin } from '../../standins/subgraph/index.ts'
import {
  describeRequest,
  hostileRequest,
  LONG_HEAD_BYTES,
  ROUTES,
  type HostileRequest,
  type RouteTemplate,
} from '../support/hostile-requests.ts'
import { assertWithinBudget } from '../support/bounded-check.ts'
import { rawExchange, type RawOutcome } from '../support/raw-http.ts'
import { LEGACY, ownAnswerStatus, UWS_BUILD } from '../support/uws-framing.ts'
import { freePort } from '../support/servers.ts'
import { startEmbeddedHistory } from '../../standins/history/embedded.ts'
import { startServiceProcess } from '../support/service-process.ts'
import { waitFor } from '../support/wait.ts'

const SEED = Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31)
const BATCH = 100
const RUNS = Number(process.env.HOSTILE_RUNS ?? 100) // 10,000 requests
/**
 * A request the server can parse must be answered: a server that left one waiting would close it at its idle
 * timeout (10 s), which fails the check as an answer that never came. This deadline is a hang detector for the
 * harness's own read. The slowest answer of a run measured 0.85 to 2 s with the 2-core machine at load 10 to 12;
 * in CI on a loaded 2-core machine a 3.5 MB API reference script took longer than 5 s to read, and once longer
 * than 9 s. 30 s is over 3 times that.
 */
const ANSWER_DEADLINE_MS = 30_000
/** the service's history calls time out well inside its idle timeout, so a slow one is answered 504 */
const HISTORY_TIMEOUT_MS = 4_500
/** How long a request with broken framing is given: its answer is checked if one comes, none is owed. */
const BROKEN_FRAMING_WAIT_MS = 150
/** A batch that has not settled by then fails, though every exchange in it has its own deadline. */
const BATCH_DEADLINE_MS = ANSWER_DEADLINE_MS + 2_000
/**
 * Every batch, up to the first failure, within this (a quiet run takes about 25 s, a run in CI on a slower
 * two-core machine up to about 110 s; not done in time is a failure too), and then at most SHRINK_BUDGET_MS to
 * shrink that failure, so a failure is always reported well inside the file's deadline (240 s).
 */
const RUNS_BUDGET_MS = 160_000
const SHRINK_BUDGET_MS = 20_000
/** Every request of the harness's own (the first tick, the documents) has this long. */
const FETCH_DEADLINE_MS = 5_000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const ALLOWLISTED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const WRAPPER = '0x1000000000000000000000000000000000000004'
const route = (method: string, template: string) =>
  ROUTES.find((candidate) => candidate.method === method && candidate.template === template)!

/**
 * Codes the OpenAPI document lists that generated requests cannot provoke here, each with the reason. The
 * harness checks that everything else it documents was observed.
 */
const NOT_PROVOKED: Record<string, Record<number, string>> = {
  'GET /v1/prices': { 500: 'no request makes the snapshot fail', 503: 'only before the first tick (snapshot-routes test)' },
  'GET /v1/prices/{pair}': { 500: 'no request makes the row lookup fail', 503: 'only before the first tick (snapshot-routes test)' },
  'GET /v1/prices/stream': {
    101: 'upgrades: the stream harness',
    200: 'the event stream (Accept: text/event-stream) stays open, where this harness reads answers to their end: stream-events test',
    403: 'upgrades: stream-limits test',
    429: 'upgrades: stream-limits test',
    503: 'upgrades: stream-limits test',
  },
  'POST /v1/ohlc': {
    500: 'no request makes the candle read fail',
    502: 'only with the Redis candle store down (redis-candle-store test) or a failing history source (upstream-history test)',
    503: "only with the history source's call budget spent (upstream-history test)",
    504: 'only with a history source that hangs (upstream-history test)',
  },
  'GET /v1/depth/{pair}/quote': { 503: 'only for a pair without a live price yet (depth test)' },
  'POST /v1/onboard': {
    401: 'needs a reachable chain to check signatures (onboard-routes test); here the chain is unreachable',
    200: 'needs a chain and a relayer (onboarding end-to-end tests)',
    202: 'needs a relayer that is slow (onboard-routes test)',
    422: 'needs a simulation on a chain (onboard-routes test)',
  },
  'GET /v1/onboard/{id}': {
    200: 'needs a relayed onboarding',
    202: 'needs a relayed onboarding',
    422: 'needs a relayed onboarding',
    500: 'needs a relayed onboarding',
  },
}

t.test(`HTTP harness: ${BATCH * RUNS} generated requests (seed ${SEED})`, async (t) => {
  t.comment(`seed ${SEED}: replay with HOSTILE_SEED=${SEED}`)
  const standin = await startIndexerStandin()
  t.teardown(() => standin.close())
  // the History API stand-in on a thread of its own (as npm start runs it), so a long range it generates
  // never holds up this test's requests
  const history = await startEmbeddedHistory(Date.now())
  t.teardown(() => history.close())
  const deadPort = await freePort()
  const dead = `http://127.0.0.1:${deadPort}`
  const service = startServiceProcess(['edge', 'ingestor'], {
    PORT: '0',
    HOST: '127.0.0.1',
    TRUSTED_PROXIES: '127.0.0.1',
    INDEXER_URL_42161: standin.url(42161),
    // chain 421614's indexed source is unreachable: its portfolio and depth reads answer 502
    INDEXER_URL_421614: `${dead}/subgraphs/venue-421614`,
    ONBOARD_ALLOWLIST: ALLOWLISTED,
    CHAIN_42161_RPC_URL: dead,
    CHAIN_42161_BUNDLER_URL: dead,
    CHAIN_42161_TRADING: '0x1000000000000000000000000000000000000001',
    CHAIN_42161_TRADING_STORAGE: '0x1000000000000000000000000000000000000002',
    CHAIN_42161_USDC: '0x1000000000000000000000000000000000000003',
    CHAIN_42161_WRAPPER: WRAPPER,
    HISTORY_URL: history.url,
    // generated candle requests may ask the history stand-in for many ranges: no 503 for a spent budget
    HISTORY_CALLS_PER_MINUTE: '100000',
    // a history call slowed by a busy machine is answered 504 well inside the idle timeout (at its default, 5 s,
    // a 504 would leave little room under it on a busy machine)
    HISTORY_TIMEOUT_MS: String(HISTORY_TIMEOUT_MS),
  })
  t.teardown(() => service.stop())
  const { port } = (await service.waitForLog('edge listening')) as { port: number }
  const base = `http://127.0.0.1:${port}`
  const get = (path: string, headers: Record<string, string> = {}, timeoutMs = FETCH_DEADLINE_MS) =>
    fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(timeoutMs) })
  await waitFor(async () => (await get('/v1/prices')).status === 200, { timeoutMs: 20_000, what: 'the first tick' })
  // the onboarding intake loads after the edge listens (the cold start has its own test); until it has, a status
  // read waits for it up to ONBOARD_DEADLINE_MS, longer than the answer deadline the harness holds every request to
  await waitFor(
    async () => (await get(`/v1/onboard/0x${'cd'.repeat(32)}`, { 'x-forwarded-for': '203.0.113.251' }, 30_000)).status === 404,
    { timeoutMs: 60_000, intervalMs: 500, what: 'the onboarding intake' },
  )
  const document = (await (await get('/v1/openapi.json')).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
  }
  const documented = new Map<string, Set<number>>()
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      documented.set(`${method.toUpperCase()} ${path}`, new Set(Object.keys(operation.responses).map(Number).filter(Number.isInteger)))
    }
  }
  /** answers by operation and status */
  const observed = new Map<string, Map<number, number>>()
  let requests = 0
  let unanswered = 0
  let longHeadsClosed = 0
  /** uWebSockets.js's own answers, by status */
  const ownAnswers = new Map<number, number>()
  let slowestAnswerMs = 0

  const check = (request: HostileRequest, outcome: RawOutcome): string | undefined => {
    requests++
    if (outcome.kind !== 'response') {
      if (!request.framed) {
        unanswered++
        return undefined
      }
      // v20.30 keeps 4 KB of a head that arrives in pieces and closes the connection on a longer one
      if (LEGACY && request.longHead && outcome.kind === 'closed') {
        longHeadsClosed++
        return undefined
      }
      return `a well-framed request got no answer (${outcome.kind})`
    }
    const { status, headers, body } = outcome.response
    if (headers['x-request-id'] === undefined) {
      // written by uWebSockets.js's parser before any handler of ours: exactly one of its pages, for a request
      // with broken framing or a long head, and the connection closed
      const own = ownAnswerStatus(outcome.response)
      if (own === undefined) return `no x-request-id on a ${status} that is not uWebSockets.js ${UWS_BUILD}'s own answer`
      if (request.framed && !request.longHead) return `uWebSockets.js answered a well-framed request with its own ${own}`
      ownAnswers.set(own, (ownAnswers.get(own) ?? 0) + 1)
      return undefined
    }
    if (!UUID.test(headers['x-request-id'])) return `an x-request-id that is not a UUID on a ${status}`
    if (!LEGACY && request.longHead) return `a head over ${LONG_HEAD_BYTES} bytes reached a handler of ours (${status})`
    const route = request.route
    const isRouteMethod = route && (request.method === route.method || (request.head && route.method === 'GET'))
    const operation = route && `${route.method} ${route.template}`
    if (route && isRouteMethod) {
      if (route.documented) {
        const allowed = documented.get(operation!)
        if (!allowed?.has(status)) return `${operation} answered ${status}, which its OpenAPI entry does not list`
        const statuses = observed.get(operation!) ?? new Map<number, number>()
        observed.set(operation!, statuses.set(status, (statuses.get(status) ?? 0) + 1))
      } else if (![200, 400, 503].includes(status)) return `${operation} answered ${status}`
    } else if (route) {
      if (status !== 405 && !(status === 400 && request.framed)) return `${request.method} on ${route.template} answered ${status}, not 405`
      if (status === 405 && !headers.allow?.includes(route.method)) return `405 without Allow naming ${route.method}`
    } else if (status !== 404) return `an unknown path answered ${status}`
    if (status >= 400 && status < 500 && !request.head) return shapeProblem(route?.template === '/v1/ohlc', status, body)
    return undefined
  }

  const startedAt = performance.now()
  await assertWithinBudget(
    fc.asyncProperty(fc.array(hostileRequest, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      const outcomes = await Promise.all(
        batch.map(async (request) => {
          const sentAt = performance.now()
          const timeoutMs = request.framed ? ANSWER_DEADLINE_MS : BROKEN_FRAMING_WAIT_MS
          const outcome = await rawExchange(port, request.bytes, { timeoutMs, head: request.head })
          if (outcome.kind === 'response') slowestAnswerMs = Math.max(slowestAnswerMs, performance.now() - sentAt)
          return outcome
        }),
      )
      const problems = batch.flatMap((request, index) => {
        const problem = check(request, outcomes[index]!)
        return problem ? [`${problem}\n  request: ${describeRequest(request)}`] : []
      })
      if (problems.length > 0) throw new Error(problems.join('\n'))
      if (service.child.exitCode !== null) throw new Error(`the process exited (${service.child.exitCode})`)
    }),
    { seed: SEED, numRuns: RUNS, runTimeoutMs: BATCH_DEADLINE_MS, runsBudgetMs: RUNS_BUDGET_MS, shrinkBudgetMs: SHRINK_BUDGET_MS },
  )
  // conditions too narrow for random generation to hit reliably: each route's budget, a cached
  // market-hours answer, the not-yet-tradeable pair, an unknown OHLC pair, onboarding refusals, a body over the
  // default 64 KB limit on each POST route (about one generated body in 13 is one, and fewer are well framed:
  // a seed gave /v1/ohlc none), each answer of the indexed reads
  const overLimit = `{"pad":"${'x'.repeat(64 * 1024)}"}`
  const ohlcUnknown = JSON.stringify({ pair: 'NOPE-USD', fromTimestampSeconds: 1, toTimestampSeconds: 2, resolution: '1' })
  const signature = `0x${'ab'.repeat(65)}`
  const delegation = { delegate: WRAPPER, nonce: '0', expiry: '4102444800', signature }
  const permit = { value: '1', nonce: '0', deadline: '4102444800', signature }
  const provocations: Array<[RouteTemplate, string, Record<string, string>, string?, number?]> = [
    [route('GET', '/v1/prices'), '/v1/prices', {}, undefined, 101],
    [route('GET', '/v1/prices/{pair}'), '/v1/prices/BTC-USD', {}, undefined, 101],
    [route('GET', '/v1/status'), '/v1/status', {}, undefined, 61],
    [route('GET', '/v1/market-hours'), '/v1/market-hours', {}, undefined, 61],
    [route('GET', '/v1/onboard/{id}'), `/v1/onboard/0x${'ab'.repeat(32)}`, {}, undefined, 61],
    [route('POST', '/v1/ohlc'), '/v1/ohlc', {}, ohlcUnknown, 61],
    [route('POST', '/v1/ohlc'), '/v1/ohlc', {}, overLimit],
    [route('POST', '/v1/onboard'), '/v1/onboard', {}, overLimit],
    // its budget's 429 (10 in 10 s from one address): the generated requests spread over too many addresses to
    // spend it in every run (seed 523478506 never did)
    [route('POST', '/v1/onboard'), '/v1/onboard', {}, '{}', 11],
    [route('GET', '/v1/depth/{pair}'), '/v1/depth/USD-KRW?chainId=42161', {}, undefined, 61],
    [route('GET', '/v1/depth/{pair}/quote'), '/v1/depth/USD-KRW/quote?side=long&notionalUsd=1000&chainId=42161', {}, undefined, 61],
    [route('POST', '/v1/onboard'), '/v1/onboard', {}, JSON.stringify({ chainId: 42161, partner: ALLOWLISTED, delegation })],
    [route('POST', '/v1/onboard'), '/v1/onboard', {}, JSON.stringify({ chainId: 42161, partner: ALLOWLISTED, permit })],
    [route('POST', '/v1/onboard'), '/v1/onboard', {}, JSON.stringify({ chainId: 42161, partner: WRAPPER, permit })],
  ]
  // every answer of the indexed reads, whatever the generated ones happened to get: 60 answered on the readable
  // chain then the budget's 429, and the unreachable chain's 502
  for (const path of ['/v1/pairs', '/v1/limits', '/v1/trades', '/v1/orders', '/v1/depth/BTC-USD', '/v1/depth/BTC-USD/quote']) {
    const template = route('GET', path.startsWith('/v1/depth') ? path.replace('BTC-USD', '{pair}') : path)
    const query = path.endsWith('/quote')
      ? 'side=long&notionalUsd=1000&'
      : ['/v1/pairs', '/v1/depth/BTC-USD'].includes(path)
        ? ''
        : `trader=${ALLOWLISTED}&`
    provocations.push([template, `${path}?${query}chainId=42161`, {}, undefined, 61], [template, `${path}?${query}chainId=421614`, {}])
  }
  // the ETag of the uncompressed answer, which is what the provocation (no Accept-Encoding) gets: a 304
  const etagged = await get('/v1/market-hours', { 'x-forwarded-for': '203.0.113.250', 'accept-encoding': 'identity' })
  provocations.push([route('GET', '/v1/market-hours'), '/v1/market-hours', { 'if-none-match': etagged.headers.get('etag')! }])
  /** Sends the provocations; the first problem ends them, as the rest would wait out their deadlines one by one. */
  const provoke = async (): Promise<string | undefined> => {
    let client = 0
    for (const [template, path, headers, body, times = 1] of provocations) {
      client++
      const ip = `198.18.0.${client}`
      for (let n = 0; n < times; n++) {
        const head = [`${template.method} ${path} HTTP/1.1`, 'host: gateway.test', 'connection: close', `x-forwarded-for: ${ip}`]
        for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`)
        if (body !== undefined) head.push(`content-length: ${Buffer.byteLength(body)}`)
        const bytes = Buffer.from(`${head.join('\r\n')}\r\n\r\n${body ?? ''}`)
        const request: HostileRequest = {
          route: template,
          method: template.method,
          path,
          bytes,
          framed: true,
          longHead: false,
          head: false,
        }
        const problem = check(request, await rawExchange(port, bytes, { timeoutMs: ANSWER_DEADLINE_MS }))
        if (problem) return `${template.method} ${path} (request ${n + 1}): ${problem}`
      }
    }
    return undefined
  }
  t.equal(await provoke(), undefined, 'every provocation answered as documented')

  const own = [...ownAnswers].map(([status, count]) => `${count} × ${status}`).join(', ') || 'none'
  t.comment(
    `${requests} requests in ${Math.round(performance.now() - startedAt)} ms, the slowest answered in ${Math.round(slowestAnswerMs)} ms; ` +
      `${unanswered} broken-framing requests closed or left to the idle timeout; ${longHeadsClosed} heads over 4 KB closed as they came in pieces; ` +
      `uWebSockets.js ${UWS_BUILD}'s own answers: ${own}`,
  )
  t.ok(requests >= BATCH * RUNS, `at least ${BATCH * RUNS} requests`)
  t.equal(service.child.exitCode, null, 'the process is up')
  // from an address of its own: the generated requests without x-forwarded-for spend 127.0.0.1's status budget
  t.equal((await get('/v1/status', { 'x-forwarded-for': '203.0.113.252' })).status, 200)

  t.test("every route's documented codes were observed, except the ones generated requests cannot provoke", async (t) => {
    for (const route of ROUTES.filter((route) => route.documented)) {
      const operation = `${route.method} ${route.template}`
      const expected = [...(documented.get(operation) ?? [])].filter((code) => !(code in (NOT_PROVOKED[operation] ?? {})))
      const statuses = observed.get(operation) ?? new Map<number, number>()
      // a code the harness does not set out to provoke may still come (a 504 from a history call a busy machine
      // slowed); check() already held every answer to the route's documented codes
      t.same(
        expected.filter((code) => !statuses.has(code)),
        [],
        `${operation}: none of its documented codes unobserved (answered: ${[...statuses].map(([status, count]) => `${count} x ${status}`).join(', ')})`,
      )
    }
  })
})

/** The spec's body shape for a 4xx (spec 7): upstream-proxy on /v1/ohlc, framework everywhere else. */
function shapeProblem(upstreamProxy: boolean, status: number, bytes: Buffer): string | undefined {
  const body = bytes.toString()
  let value: Record<string, unknown>
  try {
    value = JSON.parse(body) as Record<string, unknown>
  } catch {
    return `a ${status} body that is not JSON: ${body.slice(0, 200)}`
  }
  if (upstreamProxy) {
    return Object.keys(value).length === 1 && typeof value.error === 'string' ? undefined : `not the upstream-proxy shape: ${body}`
  }
  if (value.error !== STATUS_CODES[status] || typeof value.message !== 'string') return `not the framework shape: ${body}`
  if (status === 400 && !Array.isArray(value.issues)) return `a 400 without issues: ${body}`
  if (value.issues !== undefined && !Array.isArray(value.issues)) return `issues that are not an array: ${body}`
  return undefined
}
