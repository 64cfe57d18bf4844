// POST /graph: the door at the path where the venue's metadata backend answers GraphQL, tested with the
// two public clients that post there, each request as its client sends it: the comparison tool's
// `requests.post(json=...)` (Python's `json.dumps` spacing, its own accept header) and the market
// adapter's `fetch` with `JSON.stringify({ query })`. Answered as the subgraph answers, within the
// same limits and budget as /v1/subgraph/gn.

import t from 'tap'
import { PUBLIC_CLIENT_QUERIES } from '../../../standins/subgraph/test/fixtures/public-client-queries.ts'
import { seedData } from '../../../standins/subgraph/index.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { aliasedLists, startDoor } from './fixtures/door.ts'

const backendClients = PUBLIC_CLIENT_QUERIES.filter((entry) => entry.path === '/graph')
const [comparisonTool, marketAdapter] = backendClients
const pairCount = seedData(42161).pairs.length

/** What Python's `json.dumps` writes for a flat object (the separators `", "` and `": "`), as `requests` sends `json=`. */
function pythonJson(fields: ReadonlyArray<readonly [string, unknown]>): string {
  return `{${fields.map(([key, value]) => `${JSON.stringify(key)}: ${value && typeof value === 'object' ? '{}' : JSON.stringify(value)}`).join(', ')}}`
}

t.test('the clients that post to the metadata backend’s /graph', async (t) => {
  t.equal(backendClients.length, 2)
  const pinnedNow = Date.now()
  const door = await startDoor(t, {}, { clock: () => pinnedNow })
  const direct = async (body: string) => {
    const response = await fetch(door.standin.url(42161), { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    return response.text()
  }

  t.test('the comparison tool’s request, as requests.post(json=...) sends it', async (t) => {
    const body = pythonJson([
      ['operationName', comparisonTool!.operationName],
      ['variables', comparisonTool!.variables],
      ['query', comparisonTool!.query],
    ])
    t.match(body, /^\{"operationName": "GetPairsAndMetadata", "variables": \{\}, "query": "query GetPairsAndMetadata \{\\n/)
    const answer = await door.post(body, { path: '/graph', headers: { accept: '*/*', 'content-type': 'application/json' } })
    t.equal(answer.status, 200)
    t.match(answer.headers.get('content-type'), /^application\/json/)
    t.equal(answer.text, await direct(body), 'the subgraph’s answer, byte for byte')
    const pairs = answer.json().data.pairs as Array<Record<string, string>>
    t.equal(pairs.length, pairCount)
    t.strictSame(Object.keys(pairs[0]!), [
      'id',
      'from',
      'to',
      'volume',
      'lastTradePrice',
      'lastFundingRate',
      'longOI',
      'shortOI',
      '__typename',
    ])
    t.ok(
      pairs.every((pair) => pair.__typename === 'Pair' && /^-?\d+$/.test(pair.volume!) && /^-?\d+$/.test(pair.lastFundingRate!)),
      'what the tool turns into numbers with int()',
    )
  })

  t.test('the market adapter’s request, as fetch sends JSON.stringify({ query })', async (t) => {
    const body = JSON.stringify({ query: marketAdapter!.query })
    const answer = await door.post(body, { path: '/graph', headers: { 'Content-Type': 'application/json' } })
    t.equal(answer.status, 200)
    t.equal(answer.text, await direct(body))
    const pairs = answer.json().data.pairs as Array<{ group: { name: string; maxLeverage: string } | null }>
    t.equal(pairs.length, pairCount, 'first: 100 covers every pair')
    t.ok(pairs.every((pair) => typeof pair.group?.name === 'string' && /^\d+$/.test(pair.group.maxLeverage)))
  })

  t.test('the same door: limits, refusals and the budget of /v1/subgraph/gn', async (t) => {
    const tooMany = await door.query(aliasedLists(31, 1), undefined, { path: '/graph' })
    t.equal(tooMany.status, 200)
    t.strictSame(tooMany.json(), { errors: [{ message: 'query has more aliases than the limit of `30`' }] })
    const malformed = await door.post('[]', { path: '/graph' })
    t.equal(malformed.status, 400)
    t.strictSame(malformed.json(), { error: 'Request data is not an object' })
    const settlements = await door.query(
      '{ settlements(first: 3, orderBy: settlementId, orderDirection: desc) { id depositRequestIds } }',
      undefined,
      {
        path: '/graph',
      },
    )
    t.equal(settlements.status, 200)
    t.equal(settlements.json().data.settlements.length, 3, 'the vault’s settlements too')
    t.match(settlements.headers.get('x-ratelimit-limit'), /^\d+$/, 'the subgraph budget’s headers')
    t.equal(await metricValue(door.metrics.subgraphDoorRefusals, { chain: '42161', reason: 'aliases' }), 1, 'counted for chain 42161')
  })
})
