import t from 'tap'
import { originAllowlist } from '../../http/origin-allowlist.ts'
import { errorResponse } from '../../http/error-response.ts'
import { UpgradeGate, type Admission } from '../upgrade-gate.ts'

/** the HTTP answer of a refused upgrade, as the request pipeline writes it */
const answerOf = (admission: Admission) => (admission.admitted ? undefined : errorResponse(admission.refusal))

const limits = { maxConnectionsPerIp: 1, maxConnections: 2 }

t.test('once closed for shutdown, every upgrade is refused with 503 and Retry-After', async (t) => {
  const gate = new UpgradeGate(limits)
  gate.close()
  const refusal = gate.admit('192.0.2.1', '')
  t.match(refusal, { admitted: false, reason: 'shutting_down' })
  t.same(answerOf(refusal), {
    status: 503,
    headers: { 'retry-after': '5' },
    body: { error: 'Service Unavailable', message: 'this replica is shutting down: retry in 5 seconds', details: { retryAfterSeconds: 5 } },
  })
})

t.test("places are held until released; the upgrade budget is the request pipeline's, not the gate's", async (t) => {
  const gate = new UpgradeGate(limits)
  const first = gate.admit('192.0.2.1', 'pairs=BTC-USD')
  t.same(first, { admitted: true, filter: new Set([0]) })
  const fromOneAddress = gate.admit('192.0.2.1', '')
  t.match(fromOneAddress, { admitted: false, reason: 'ip_connections' })
  t.match(answerOf(fromOneAddress), { status: 429, headers: { 'retry-after': '5' } })
  gate.release('192.0.2.1')
  for (let attempt = 0; attempt < 5; attempt++) {
    t.match(gate.admit('192.0.2.1', ''), { admitted: true }, 'no upgrade budget')
    gate.release('192.0.2.1')
  }
  t.match(gate.admit('192.0.2.2', ''), { admitted: true })
  t.match(gate.admit('192.0.2.3', ''), { admitted: true })
  const pastCeiling = gate.admit('192.0.2.4', '')
  t.match(pastCeiling, { admitted: false, reason: 'total_connections' })
  t.match(answerOf(pastCeiling), { status: 503, headers: { 'retry-after': '5' } })
})

t.test('origins (checked by the request pipeline before the gate): exact, case-insensitive, or any with *', async (t) => {
  const listed = originAllowlist(['https://app.example.com'])
  t.ok(listed(undefined, undefined), 'no Origin header: not a browser')
  t.ok(listed('https://App.Example.com', undefined))
  t.notOk(listed('https://app.example.com:8443', undefined))
  t.notOk(listed('null', undefined))
  t.ok(originAllowlist(['*'])('https://anywhere.example', undefined))
})
