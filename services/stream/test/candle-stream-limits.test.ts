// What the candle stream refuses, before any frame: bad queries (400 with issues), browser origins not allowed,
// and the limits it shares with the price stream (one set of connection ceilings, one upgrade budget per IP).
// The edge trusts 127.0.0.1 as a proxy, so each test speaks for its own client address through X-Forwarded-For.
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { readJson } from '../../../test/support/http.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { rawUpgrade, type UpgradeResult } from '../../../test/support/raw-ws.ts'
import { waitFor } from '../../../test/support/wait.ts'

const edge = await startTestEdge({
  env: {
    TRUSTED_PROXIES: '127.0.0.1',
    STREAM_ALLOWED_ORIGINS: 'https://app.example.com',
    STREAM_MAX_CONNECTIONS_PER_IP: '2',
    STREAM_MAX_CONNECTIONS: '3',
    STREAM_UPGRADES_PER_IP_PER_MINUTE: '4',
  },
  candles: { now: Date.now },
})
t.teardown(edge.stop)

const candleUrl = (query: string) => `${edge.baseUrl.replace('http', 'ws')}/v1/candles/stream?${query}`
const GOOD = 'pairs=BTC-USD&resolution=1'
const { metrics } = edge
const openConnections = async () => (await metricValue(metrics.streamConnections)) + (await metricValue(metrics.candleStreamConnections))

const opened: UpgradeResult[] = []
t.afterEach(async () => {
  for (const result of opened.splice(0)) result.socket.destroy()
  await waitFor(async () => (await openConnections()) === 0, { what: 'the server to see the closes' })
})
async function upgrade(url: string, clientIp: string, headers: Record<string, string> = {}): Promise<UpgradeResult> {
  const result = await rawUpgrade(url, { 'X-Forwarded-For': clientIp, ...headers })
  opened.push(result)
  return result
}
const events = (query: string, clientIp: string, headers: Record<string, string> = {}) =>
  fetch(`${edge.baseUrl}/v1/candles/stream?${query}`, { headers: { accept: 'text/event-stream', 'x-forwarded-for': clientIp, ...headers } })

t.test('bad parameters: 400 in the framework shape with issues, on both transports, before the upgrade', async (t) => {
  const resolutions = ['1', '5', '15', '60', '240', '1D', 'D']
  const notAResolution = {
    code: 'invalid_value',
    values: resolutions,
    path: ['resolution'],
    message: 'Invalid option: expected one of "1"|"5"|"15"|"60"|"240"|"1D"|"D"',
  }
  const refusals: Array<[string, object[]]> = [
    ['pairs=BTC-USD&resolution=2', [notAResolution]],
    ['pairs=BTC-USD,DOGE-USD&resolution=1', [{ code: 'custom', path: ['pairs', 1], message: '"DOGE-USD" is not a listed pair symbol' }]],
    [
      'resolution=1',
      [{ code: 'invalid_type', expected: 'string', path: ['pairs'], message: 'Invalid input: expected string, received undefined' }],
    ],
    // a repeated parameter is read as a list, which no parameter takes
    ['pairs=BTC-USD&resolution=1&resolution=5', [notAResolution]],
    [
      'pairs=BTC-USD&resolution=1&heartbeat=61',
      [{ code: 'custom', path: ['heartbeat'], message: 'a whole number of seconds from 1 to 60' }],
    ],
    // the price stream's other opt-ins are its own
    [
      'pairs=BTC-USD&resolution=1&rate=fixed_rate@200ms',
      [{ code: 'unrecognized_keys', keys: ['rate'], path: [], message: 'Unrecognized key: "rate"' }],
    ],
  ]
  for (const [index, [query, issues]] of refusals.entries()) {
    const body = { error: 'Bad Request', message: 'invalid query for the candle stream', issues }
    const refused = await upgrade(candleUrl(query), `192.0.2.${10 + index}`)
    t.equal(refused.status, 400, query)
    t.same(JSON.parse(refused.rest.toString()), body, query)
    const asEvents = await events(query, `192.0.2.${20 + index}`)
    t.equal(asEvents.status, 400, `${query} as events`)
    t.same(await readJson(asEvents), body, `${query} as events`)
  }
  t.equal(await metricValue(metrics.candleStreamRejectedUpgrades, { reason: 'invalid_query' }), 2 * refusals.length)

  const plain = await fetch(candleUrl(GOOD).replace('ws', 'http'))
  t.equal(plain.status, 426, 'a plain GET is told to upgrade')
  t.equal(plain.headers.get('upgrade'), 'websocket')
})

t.test('legacy spellings, as POST /v1/ohlc and the UDF routes take them', async (t) => {
  const legacy = await upgrade(candleUrl('pairs=SPX-USD,BTC-USD&resolution=D'), '192.0.2.40')
  t.equal(legacy.status, 101)
  const minutes = await upgrade(candleUrl('resolution=15&pairs=BTC-USD'), '192.0.2.41')
  t.equal(minutes.status, 101)
})

t.test('browser origins: a bare 403 for the upgrade, the framework shape for the event stream', async (t) => {
  const refused = await upgrade(candleUrl(GOOD), '198.51.100.1', { Origin: 'https://evil.example' })
  t.equal(refused.status, 403)
  t.equal(refused.rest.length, 0, 'no body')
  const asEvents = await events(GOOD, '198.51.100.2', { origin: 'https://evil.example' })
  t.equal(asEvents.status, 403)
  t.same(await readJson(asEvents), { error: 'Forbidden', message: 'this browser origin may not open the candle stream' })
  t.equal(await metricValue(metrics.candleStreamRejectedUpgrades, { reason: 'origin' }), 2)
  t.equal((await upgrade(candleUrl(GOOD), '198.51.100.3', { Origin: 'https://app.example.com' })).status, 101)
})

t.test('connections per IP count both streams: a price connection and a candle one fill a place each', async (t) => {
  const ip = '203.0.113.7'
  const price = await upgrade(`${edge.streamUrl}?pairs=BTC-USD`, ip)
  t.equal(price.status, 101)
  t.equal((await upgrade(candleUrl(GOOD), ip)).status, 101)
  await waitFor(async () => (await metricValue(metrics.candleStreamConnections)) === 1, { what: 'the candle connection counted' })
  const refused = await upgrade(candleUrl(GOOD), ip)
  t.equal(refused.status, 429)
  t.equal(refused.headers['retry-after'], '5')
  t.same(JSON.parse(refused.rest.toString()), {
    error: 'Too Many Requests',
    message: 'too many open stream connections from this address (2): retry in 5 seconds',
    details: { limit: { connectionsPerIp: 2 }, retryAfterSeconds: 5 },
  })
  t.equal(await metricValue(metrics.candleStreamRejectedUpgrades, { reason: 'ip_connections' }), 1)
  price.socket.destroy()
  await waitFor(async () => (await metricValue(metrics.streamConnections)) === 0, { what: 'the price connection to close' })
  const asEvents = await events(GOOD, ip)
  t.equal(asEvents.status, 200, 'the freed place goes to an event stream')
  t.equal(asEvents.headers.get('content-type'), 'text/event-stream')
  await asEvents.body?.cancel()

  const other = '203.0.113.9'
  t.equal((await upgrade(candleUrl(GOOD), other)).status, 101)
  t.equal((await upgrade(candleUrl('pairs=ETH-USD&resolution=5'), other)).status, 101)
  t.equal((await upgrade(edge.streamUrl, other)).status, 429, 'two candle connections leave no place for a price connection')
})

t.test('connections in total count both streams', async (t) => {
  t.equal((await upgrade(candleUrl(GOOD), '203.0.113.21')).status, 101)
  t.equal((await upgrade(edge.streamUrl, '203.0.113.22')).status, 101)
  t.equal((await upgrade(candleUrl(GOOD), '203.0.113.23')).status, 101)
  const refused = await upgrade(candleUrl(GOOD), '203.0.113.24')
  t.equal(refused.status, 503)
  t.equal(JSON.parse(refused.rest.toString()).message, 'this replica holds its maximum of 3 stream connections: retry in 5 seconds')
  t.equal(await metricValue(metrics.candleStreamRejectedUpgrades, { reason: 'total_connections' }), 1)
})

t.test('one upgrade budget per IP for both streams', async (t) => {
  const ip = '203.0.113.30'
  for (const url of [edge.streamUrl, candleUrl(GOOD), edge.streamUrl, candleUrl(GOOD)]) {
    const result = await upgrade(url, ip)
    t.equal(result.status, 101)
    result.socket.destroy()
    await waitFor(async () => (await openConnections()) === 0, { what: 'the close to be seen' })
  }
  const refused = await upgrade(candleUrl(GOOD), ip)
  t.equal(refused.status, 429)
  t.match(JSON.parse(refused.rest.toString()), {
    error: 'Too Many Requests',
    message: /^too many stream upgrades from this address \(4 per minute\): retry in \d+ seconds$/,
    details: { limit: { upgradesPerIpPerMinute: 4 } },
  })
  t.equal(await metricValue(metrics.candleStreamRejectedUpgrades, { reason: 'upgrade_rate' }), 1)
})
