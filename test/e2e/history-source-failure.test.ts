// The edge against a history source that hangs, then fails: POST /v1/ohlc answers in the upstream-proxy
// shape with a 5xx within HISTORY_TIMEOUT_MS, while prices, status and the probes stay as they were, and
// candles come back with the source. The service runs from the compiled build, with the History API stand-in
// (started here, its faults switched by the test) as its HISTORY_URL.

import t from 'tap'
import { startHistoryStandin } from '../../standins/history/index.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { waitFor } from '../support/wait.ts'

const standin = await startHistoryStandin()
t.teardown(() => standin.close())
standin.setFault('hang')
const service = startServiceProcess(['edge', 'ingestor'], {
  ...UNUSED_INDEXED_SOURCE,
  PORT: '0',
  HOST: '127.0.0.1',
  ONBOARDING_ENABLED: 'false',
  HISTORY_URL: standin.channelUrl(),
  HISTORY_TIMEOUT_MS: '700',
})
t.teardown(() => service.stop())
const base = `http://127.0.0.1:${Number((await service.waitForLog('edge listening')).port)}`
const ops = `http://127.0.0.1:${Number((await service.waitForLog('ops endpoints listening')).port)}`
await waitFor(async () => (await fetch(`${base}/v1/prices`)).status === 200, { timeoutMs: 20_000, what: 'prices' })
const now = Math.floor(Date.now() / 1000)
const ohlc = () =>
  fetch(`${base}/v1/ohlc`, {
    method: 'POST',
    body: JSON.stringify({ pair: 'ETH-USD', fromTimestampSeconds: now - 86_400, toTimestampSeconds: now - 3600, resolution: '60' }),
  })

t.test('a hanging source: 504 within the deadline, and everything else keeps answering meanwhile', async (t) => {
  const started = Date.now()
  const [answer, prices, status, health, ready] = await Promise.all([
    ohlc(),
    fetch(`${base}/v1/prices`),
    fetch(`${base}/v1/status`),
    fetch(`${ops}/healthz`),
    fetch(`${ops}/readyz`),
  ])
  t.equal(answer.status, 504)
  t.strictSame(await answer.json(), { error: 'the history source did not answer within 700 ms; retry shortly' })
  t.ok(Date.now() - started < 700 + 1500, `answered after ${Date.now() - started} ms`)
  t.strictSame([prices.status, status.status, health.status, ready.status], [200, 200, 200, 200])
  t.equal(((await status.json()) as { status: string }).status, 'ok')
})

t.test('a failing source: 502; once it recovers, the candles come', async (t) => {
  standin.setFault('http-500')
  const failed = await ohlc()
  t.equal(failed.status, 502)
  t.strictSame(await failed.json(), { error: 'the history source answered HTTP 500; retry shortly' })
  standin.setFault('none')
  const recovered = await waitFor(
    async () => {
      const response = await ohlc()
      return response.status === 200 && ((await response.json()) as { data: unknown[] })
    },
    { timeoutMs: 15_000, intervalMs: 500, what: 'candles after the source recovers' },
  )
  t.ok(recovered.data.length >= 23, `${recovered.data.length} hours`)
  t.equal((await fetch(`${ops}/healthz`)).status, 200)
})
