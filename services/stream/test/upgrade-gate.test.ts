import t from 'tap'
import { UpgradeGate } from '../upgrade-gate.ts'

const limits = { allowedOrigins: [], maxConnectionsPerIp: 1, maxConnections: 2, upgradesPerIpPerMinute: 2 }

t.test('once closed for shutdown, every upgrade is refused with 503 and Retry-After', async (t) => {
  const gate = new UpgradeGate({ ...limits, rateLimitsEnabled: true })
  gate.close()
  const refusal = await gate.admit('192.0.2.1', '')
  t.match(refusal, { admitted: false, reason: 'shutting_down', status: 503, headers: { 'retry-after': '5' } })
  t.same(JSON.parse((refusal as { body: string }).body), {
    error: 'Service Unavailable',
    message: 'this replica is shutting down: retry in 5 seconds',
    details: { retryAfterSeconds: 5 },
  })
})

t.test('places are held until released; with rate limits lifted there is no upgrade budget and no budget headers', async (t) => {
  const gate = new UpgradeGate({ ...limits, rateLimitsEnabled: false })
  const first = await gate.admit('192.0.2.1', 'pairs=BTC-USD')
  t.same(first, { admitted: true, filter: new Set([0]), headers: {} })
  t.match(await gate.admit('192.0.2.1', ''), { admitted: false, reason: 'ip_connections', status: 429 })
  gate.release('192.0.2.1')
  for (let attempt = 0; attempt < 5; attempt++) {
    t.match(await gate.admit('192.0.2.1', ''), { admitted: true }, 'no upgrade budget')
    gate.release('192.0.2.1')
  }
  t.match(await gate.admit('192.0.2.2', ''), { admitted: true })
  t.match(await gate.admit('192.0.2.3', ''), { admitted: true })
  t.match(await gate.admit('192.0.2.4', ''), { admitted: false, reason: 'total_connections', status: 503 })
})

t.test('origins: exact, case-insensitive, or any with *', async (t) => {
  const listed = new UpgradeGate({ ...limits, allowedOrigins: ['https://app.example.com'], rateLimitsEnabled: true })
  t.ok(listed.originAllowed(undefined), 'no Origin header: not a browser')
  t.ok(listed.originAllowed('https://App.Example.com'))
  t.notOk(listed.originAllowed('https://app.example.com:8443'))
  t.notOk(listed.originAllowed('null'))
  t.ok(new UpgradeGate({ ...limits, allowedOrigins: ['*'], rateLimitsEnabled: true }).originAllowed('https://anywhere.example'))
})
