import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { rawUpgrade, type UpgradeResult } from '../../../test/support/raw-ws.ts'
import { waitFor } from '../../../test/support/wait.ts'

// Per-replica stream limits (spec 8) and the origin allowlist (spec 5.4). The edge trusts 127.0.0.1 as
// a proxy, so each test speaks for its own client address through X-Forwarded-For.
const edge = await startTestEdge({
  env: {
    TRUSTED_PROXIES: '127.0.0.1',
    STREAM_ALLOWED_ORIGINS: 'https://app.example.com',
    STREAM_MAX_CONNECTIONS_PER_IP: '2',
    STREAM_MAX_CONNECTIONS: '3',
    STREAM_UPGRADES_PER_IP_PER_MINUTE: '4',
  },
})
t.teardown(edge.stop)
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const openConnections = () => metricValue(edge.metrics.streamConnections)
const rejections = (reason: string) => metricValue(edge.metrics.streamRejectedUpgrades, { reason })

// every test starts with no connection open: the ones it opened are closed after it, and the server seen to let them go
const opened: UpgradeResult[] = []
t.afterEach(async () => {
  for (const result of opened.splice(0)) result.socket.destroy()
  await waitFor(async () => (await openConnections()) === 0, { what: 'the server to see the closes' })
})

async function upgrade(clientIp: string, headers: Record<string, string> = {}): Promise<UpgradeResult> {
  const result = await rawUpgrade(edge.streamUrl, { 'X-Forwarded-For': clientIp, ...headers })
  opened.push(result)
  return result
}

t.test('a browser origin not on the allowlist gets a bare 403; allowed origins and non-browsers are let in', async (t) => {
  const refused = await upgrade('192.0.2.1', { Origin: 'https://evil.example' })
  t.equal(refused.status, 403)
  t.match(refused.headers['x-request-id'], uuid)
  t.equal(refused.headers['content-length'], '0')
  t.equal(refused.headers['content-type'], undefined)
  t.equal(refused.rest.length, 0, 'no body')
  t.equal(await rejections('origin'), 1)
  t.equal((await upgrade('192.0.2.1', { Origin: 'https://APP.example.com' })).status, 101, 'origins compare case-insensitively')
  t.equal((await upgrade('192.0.2.2')).status, 101, 'no Origin: not a browser')
})

t.test('connections per IP: the next one gets 429 with Retry-After until one closes', async (t) => {
  const open = [await upgrade('198.51.100.7'), await upgrade('198.51.100.7')]
  t.same(
    open.map((result) => result.status),
    [101, 101],
  )
  const refused = await upgrade('198.51.100.7')
  t.equal(refused.status, 429)
  t.equal(refused.headers['retry-after'], '5')
  t.match(refused.headers['x-request-id'], uuid)
  t.same(JSON.parse(refused.rest.toString()), {
    error: 'Too Many Requests',
    message: 'too many open stream connections from this address (2): retry in 5 seconds',
    details: { limit: { connectionsPerIp: 2 }, retryAfterSeconds: 5 },
  })
  t.equal((await upgrade('198.51.100.8')).status, 101, 'another address is not affected')
  open[0]!.socket.destroy()
  await waitFor(async () => (await openConnections()) === 2, { what: 'the close to be seen' })
  t.equal((await upgrade('198.51.100.7')).status, 101, 'a place is free again')
})

t.test('connections in total: the next one gets 503 with Retry-After', async (t) => {
  const held = [await upgrade('203.0.113.1'), await upgrade('203.0.113.2'), await upgrade('203.0.113.3')]
  t.same(
    held.map((result) => result.status),
    [101, 101, 101],
  )
  const refused = await upgrade('203.0.113.4')
  t.equal(refused.status, 503)
  t.equal(refused.headers['retry-after'], '5')
  t.match(refused.headers['x-request-id'], uuid)
  t.same(JSON.parse(refused.rest.toString()), {
    error: 'Service Unavailable',
    message: 'this replica holds its maximum of 3 stream connections: retry in 5 seconds',
    details: { limit: { connections: 3 }, retryAfterSeconds: 5 },
  })
})

t.test('upgrades per IP per minute: the next one gets 429 with Retry-After and the budget headers', async (t) => {
  const attempts: UpgradeResult[] = []
  for (let attempt = 0; attempt < 4; attempt++) {
    attempts.push(await upgrade('203.0.113.50'))
    attempts.at(-1)!.socket.destroy()
  }
  t.same(
    attempts.map((result) => [result.status, result.headers['x-ratelimit-remaining']]),
    [
      [101, '3'],
      [101, '2'],
      [101, '1'],
      [101, '0'],
    ],
  )
  const refused = await upgrade('203.0.113.50')
  t.equal(refused.status, 429)
  const retryAfter = Number(refused.headers['retry-after'])
  t.ok(retryAfter >= 1 && retryAfter <= 60, 'seconds until the window resets')
  t.equal(refused.headers['x-ratelimit-limit'], '4')
  t.equal(refused.headers['x-ratelimit-remaining'], '0')
  t.match(refused.headers['x-request-id'], uuid)
  t.same(JSON.parse(refused.rest.toString()), {
    error: 'Too Many Requests',
    message: `too many stream upgrades from this address (4 per minute): retry in ${retryAfter} seconds`,
    details: { retryAfterSeconds: retryAfter, limit: { upgradesPerIpPerMinute: 4 } },
  })
  t.equal(await rejections('upgrade_rate'), 1)
})
