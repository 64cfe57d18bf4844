// POST /v1/subgraph/gn against the subgraph stand-in behind a counting proxy: answers passed on unchanged,
// refusals in graph-node's words and statuses before anything reaches the source, the door's own budget,
// coalescing and the cache, and upstream failures.

import t from 'tap'
import { getIntrospectionQuery } from 'graphql'
import { metricValue } from '../../../test/support/metrics.ts'
import { aliasedLists, startDoor } from './fixtures/door.ts'

const PAIRS = '{ pairs(first: 3, orderBy: id) { id from to } }'

t.test('a query within the limits: the subgraph answer, unchanged, with the budget headers', async (t) => {
  const door = await startDoor(t)
  const body = JSON.stringify({ query: PAIRS })
  const direct = await fetch(door.standin.url(42161), { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const answer = await door.post(body)
  t.equal(answer.status, 200)
  t.equal(answer.text, await direct.text(), 'byte for byte what the subgraph sends')
  t.strictSame(
    answer.json().data.pairs.map((pair: { id: string }) => pair.id),
    ['0', '1', '10'],
  )
  t.match(answer.headers.get('content-type'), /^application\/json/)
  t.equal(answer.headers.get('x-ratelimit-limit'), '30')
  t.equal(answer.headers.get('x-ratelimit-remaining'), '29')
  t.equal(answer.headers.get('x-ratelimit-reset'), '10')
  t.equal(await metricValue(door.metrics.subgraphDoorRequests, { chain: '42161', outcome: 'forwarded' }), 1)
})

t.test('each chain by its path; another chain is a 404 in the GraphQL shape', async (t) => {
  const door = await startDoor(t)
  const meta = '{ _meta { deployment } }'
  t.equal((await door.query(meta)).json().data._meta.deployment, 'QmVenueIndexerStandin42161')
  t.equal((await door.query(meta, undefined, { path: '/v1/subgraph/42161/gn' })).json().data._meta.deployment, 'QmVenueIndexerStandin42161')
  t.equal(
    (await door.query(meta, undefined, { path: '/v1/subgraph/421614/gn' })).json().data._meta.deployment,
    'QmVenueIndexerStandin421614',
  )
  const other = await door.query(meta, undefined, { path: '/v1/subgraph/1/gn' })
  t.equal(other.status, 404)
  t.strictSame(other.json(), { errors: [{ message: 'no subgraph for chain 1: use 42161 or 421614' }] })
})

t.test('introspection is answered (the Python SDK up to 3.0 sends it first)', async (t) => {
  const door = await startDoor(t)
  const answer = await door.query(getIntrospectionQuery())
  t.equal(answer.status, 200)
  const types = answer.json().data.__schema.types.map((type: { name: string }) => type.name)
  t.ok(types.includes('Pair') && types.includes('Trade_filter') && types.includes('_Meta_'))
  t.equal(answer.json().errors, undefined)
})

t.test('a 300,000-row alias query is refused before it reaches the source', async (t) => {
  t.test('by the alias cap, with the default limits', async (t) => {
    const door = await startDoor(t)
    const answer = await door.query(aliasedLists(300, 1000))
    t.equal(answer.status, 200)
    t.strictSame(answer.json(), { errors: [{ message: 'query has more aliases than the limit of `30`' }] })
    // only the introspection of the schema, for costing, went upstream
    t.equal(door.proxy.forwarded(), 1)
    t.equal(await metricValue(door.metrics.subgraphDoorRefusals, { chain: '42161', reason: 'aliases' }), 1)
  })
  t.test('by the row cap, when aliases are allowed', async (t) => {
    const door = await startDoor(t, { SUBGRAPH_DOOR_MAX_ALIASES: '1000' })
    const answer = await door.query(aliasedLists(300, 1000))
    t.equal(answer.status, 200)
    t.strictSame(answer.json(), {
      errors: [
        {
          message:
            'query potentially returns `300000` entities or more and thereby exceeds the limit of `20000` entities. ' +
            'Possible solutions are reducing the depth of the query, querying fewer relationships or using `first` to return smaller collections',
        },
      ],
    })
    t.equal(door.proxy.forwarded(), 1)
    t.equal(await metricValue(door.metrics.subgraphDoorRefusals, { chain: '42161', reason: 'rows' }), 1)
  })
})

t.test('rows are counted as graph-node counts them: first of each list, variables and default 100 included', async (t) => {
  const door = await startDoor(t, { SUBGRAPH_DOOR_MAX_ROWS: '2000' })
  const refusedRows = async (query: string, variables?: Record<string, unknown>) => {
    const answer = await door.query(query, variables)
    return /returns `(\d+)` entities/.exec(answer.json().errors?.[0]?.message ?? '')?.[1]
  }
  t.equal(await refusedRows('{ a: pairs(first: 1000) { id } b: trades(first: 1000) { id } c: orders { id } }'), '2100')
  t.equal(
    await refusedRows('query($n: Int) { pairs(first: $n) { id } trades(first: $n) { id } limits(first: 1) { id } }', { n: 1000 }),
    '2001',
  )
  t.equal(
    await refusedRows(
      '{ ...lists } fragment lists on Query { a: pairs(first: 1000) { id } b: trades(first: 5000) { id } c: orders(first: 1) { id } }',
    ),
    '2001',
    'through a fragment, first above 1000 counted as 1000 (graph-node refuses it itself)',
  )
  const within = await door.query('{ a: pairs(first: 1000) { id } b: trades(first: 1000) { id } }')
  t.equal(within.json().errors, undefined, '2000 rows pass')
})

t.test('other refusals: what graph-node answers, or its shape for the door’s own limits', async (t) => {
  const door = await startDoor(t)
  const cases: Array<{ name: string; body: string; status: number; expected: unknown }> = [
    { name: 'not JSON', body: 'query { pairs { id } }', status: 400, expected: { error: /JSON/ } },
    { name: 'not an object', body: '[1]', status: 400, expected: { error: 'Request data is not an object' } },
    { name: 'no query', body: '{}', status: 400, expected: { error: 'The "query" field is missing in request data' } },
    { name: 'query not a string', body: '{"query":1}', status: 400, expected: { error: 'The "query" field is not a string' } },
    {
      name: 'variables not an object',
      body: '{"query":"{ pairs { id } }","variables":[1]}',
      status: 400,
      expected: { error: 'Invalid query variables provided' },
    },
    {
      name: 'a syntax error',
      body: JSON.stringify({ query: '{ pairs { id }' }),
      status: 200,
      expected: { errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.' }] },
    },
    {
      name: 'too deep',
      body: JSON.stringify({ query: '{ a { b { c { d { e { f { g { h { i { j { k } } } } } } } } } } }' }),
      status: 200,
      expected: { errors: [{ message: 'query has a depth that exceeds the limit of `10`' }] },
    },
    {
      name: 'too long',
      body: JSON.stringify({ query: `{ pairs { id } }${' '.repeat(40_000)}` }),
      status: 200,
      expected: { errors: [{ message: 'query is 40016 characters long and exceeds the limit of `40000`' }] },
    },
    {
      name: 'a body above the door’s own cap',
      body: JSON.stringify({ query: '{ pairs { id } }', variables: { pad: 'x'.repeat(50_000) } }),
      status: 413,
      expected: { errors: [{ message: 'request body is larger than 49152 bytes' }] },
    },
  ]
  for (const { name, body, status, expected } of cases) {
    const answer = await door.post(body)
    t.equal(answer.status, status, `${name}: status`)
    t.match(answer.json(), expected, `${name}: body`)
    t.strictSame(Object.keys(answer.json()), Object.keys(expected as object), `${name}: no other field`)
  }
  t.equal(door.proxy.forwarded(), 1, 'nothing reached the source but the schema read that costing the deep query needed')
})

t.test('first above 1000 goes to the subgraph, which refuses it in its own words', async (t) => {
  const door = await startDoor(t)
  const body = JSON.stringify({ query: '{ trades(first: 10000) { id } }' })
  const direct = await fetch(door.standin.url(42161), { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const answer = await door.post(body)
  t.equal(answer.status, 200)
  t.equal(answer.text, await direct.text())
  t.strictSame(
    answer.json().errors.map((error: { message: string }) => error.message),
    ['The `first` argument must be between 0 and 1000, but is 10000'],
  )
})

t.test('identical requests share one upstream request, and its answer for the cache time', async (t) => {
  const door = await startDoor(t)
  await door.query('{ _meta { block { number } } }') // the schema read happens once, first
  const before = door.proxy.forwarded()
  const answers = await Promise.all(Array.from({ length: 8 }, () => door.query(PAIRS)))
  t.equal(door.proxy.forwarded() - before, 1, 'eight at once: one upstream request')
  t.equal(new Set(answers.map((answer) => answer.text)).size, 1)
  await door.query(PAIRS)
  t.equal(door.proxy.forwarded() - before, 1, 'within the cache time: from the cache')
  await door.query(PAIRS, { other: 1 })
  t.equal(door.proxy.forwarded() - before, 2, 'other variables: another request')
  t.equal(await metricValue(door.metrics.subgraphDoorRequests, { chain: '42161', outcome: 'cached' }), 8)
})

t.test('the door’s own budget: 30 requests per 10 s per IP, then 429 in the GraphQL shape', async (t) => {
  const door = await startDoor(t)
  for (let index = 0; index < 30; index++) {
    const answer = await door.query(PAIRS, undefined, { ip: '198.51.100.7' })
    t.equal(answer.status, 200)
  }
  const refused = await door.query(PAIRS, undefined, { ip: '198.51.100.7' })
  t.equal(refused.status, 429)
  t.match(refused.json(), { errors: [{ message: /^rate limit exceeded: retry in \d+ seconds$/ }] })
  t.strictSame(Object.keys(refused.json()), ['errors'])
  t.equal(refused.headers.get('x-ratelimit-remaining'), '0')
  t.ok(Number(refused.headers.get('retry-after')) > 0)
  t.equal((await door.query(PAIRS, undefined, { ip: '198.51.100.8' })).status, 200, 'another IP has its own budget')
})

t.test('upstream failures: 504 on a timeout, 502 on a 5xx, in the GraphQL shape, counted', async (t) => {
  const door = await startDoor(t, { SUBGRAPH_DOOR_TIMEOUT_MS: '3000', SUBGRAPH_DOOR_CACHE_MS: '0' })
  t.equal((await door.query('{ _meta { block { number } } }')).status, 200, 'the schema is read before the faults')
  door.standin.setFault('hang')
  const hung = await door.query(PAIRS)
  t.equal(hung.status, 504)
  t.strictSame(hung.json(), { errors: [{ message: 'the subgraph of chain 42161 did not answer within 3000 ms' }] })
  door.standin.setFault('http-500')
  const failed = await door.query(PAIRS)
  t.equal(failed.status, 502)
  t.strictSame(failed.json(), { errors: [{ message: 'the subgraph of chain 42161 answered HTTP 500' }] })
  t.equal(await metricValue(door.metrics.subgraphDoorUpstreamFailures, { chain: '42161', kind: 'timeout' }), 1)
  t.equal(await metricValue(door.metrics.subgraphDoorUpstreamFailures, { chain: '42161', kind: 'http_error' }), 1)
  door.standin.setFault('none')
  t.equal((await door.query(PAIRS)).status, 200, 'a failure is not kept')
})
