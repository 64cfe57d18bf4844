import t from 'tap'
import { originAllowlist } from '../../http/origin-allowlist.ts'
import { UpgradeGate } from '../upgrade-gate.ts'

const limits = { maxConnectionsPerIp: 1, maxConnections: 2 }

t.test('once closed for shutdown, every upgrade is refused with 503 and Retry-After', async (t) => {
  const gate = new UpgradeGate(limits)
  gate.close()
  const refusal = gate.admit('192.0.2.1', '')
  t.match(refusal, { admitted: false, reason: 'shutting_down', status: 503, headers: { 'retry-after': '5' } })
  t.same(JSON.parse((refusal as { body: string }).body), {
    error: 'Service Unavailable',
    message: 'this replica is shutting down: retry in 5 seconds',
    details: { retryAfterSeconds: 5 },
  })
})

t.test("places are held until released; the upgrade budget is the request pipeline's, not the gate's", async (t) => {
  const gate = new UpgradeGate(limits)
  const first = gate.admit('192.0.2.1', 'pairs=BTC-USD')
  t.same(first, { admitted: true, filter: new Set([0]) })
  t.match(gate.admit('192.0.2.1', ''), { admitted: false, reason: 'ip_connections', status: 429 })
  gate.release('192.0.2.1')
  for (let attempt = 0; attempt < 5; attempt++) {
    t.match(gate.admit('192.0.2.1', ''), { admitted: true }, 'no upgrade budget')
    gate.release('192.0.2.1')
  }
  t.match(gate.admit('192.0.2.2', ''), { admitted: true })
  t.match(gate.admit('192.0.2.3', ''), { admitted: true })
  t.match(gate.admit('192.0.2.4', ''), { admitted: false, reason: 'total_connections', status: 503 })
})

t.test('origins (checked by the request pipeline before the gate): exact, case-insensitive, or any with *', async (t) => {
  const listed = originAllowlist(['https://app.example.com'])
  t.ok(listed(undefined, undefined), 'no Origin header: not a browser')
  t.ok(listed('https://App.Example.com', undefined))
  t.notOk(listed('https://app.example.com:8443', undefined))
  t.notOk(listed('null', undefined))
  t.ok(originAllowlist(['*'])('https://anywhere.example', undefined))
})
