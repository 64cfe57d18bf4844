// The service against a Hermes that behaves like the real one: a refused key is loud but quiet on the wire
// (status degraded, one error line, a metric, /readyz says so, the key nowhere), and with the key (read
// from a file) prices flow while a feed Hermes does not know is named on /readyz and in /metrics. The service
// runs from the compiled build, its HERMES_URL the Hermes double started here; what it logs is read from its
// output.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import t, { type Test } from 'tap'

import { FEED_IDS, feedIdFor } from '../../services/ingestor/feed-ids.ts'
import { HermesTestServer } from '../support/hermes/hermes-server.ts'
import { readJson } from '../support/http.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE, type ServiceProcess } from '../support/service-process.ts'
import { START_DEADLINE_MS, waitFor } from '../support/wait.ts'

const KEY = 'e2e-hermes-key-90af'
const EUR = feedIdFor('EUR-USD')
const REFUSED = 'Hermes refused the request: check HERMES_API_KEY'

/** The service on this Hermes, stopped with the test; its public and ops base URLs once both listen. */
async function startService(t: Test, hermes: Record<string, string>): Promise<{ service: ServiceProcess; base: string; ops: string }> {
  const service = startServiceProcess(['edge', 'ingestor'], {
    ...UNUSED_INDEXED_SOURCE,
    PORT: '0',
    HOST: '127.0.0.1',
    FEED_SOURCE: 'hermes',
    ONBOARDING_ENABLED: 'false',
    RATE_LIMITS_ENABLED: 'false',
    ...hermes,
  })
  t.teardown(() => service.stop())
  const [edge, ops] = await Promise.all([service.waitForLog('edge listening'), service.waitForLog('ops endpoints listening')])
  return { service, base: `http://127.0.0.1:${Number(edge.port)}`, ops: `http://127.0.0.1:${Number(ops.port)}` }
}

t.test('a refused key: degraded, one error line, the metric, /readyz; the key in no log, metric or answer', async (t) => {
  const hermes = await HermesTestServer.start({ apiKey: KEY, slotMs: 50 })
  t.teardown(() => hermes.close())
  const wrongKey = 'not-the-key-4c1d'
  const { service, base, ops } = await startService(t, { HERMES_URL: hermes.url, HERMES_API_KEY: wrongKey })

  await service.waitForLog(REFUSED, START_DEADLINE_MS)
  const status = await readJson(await fetch(`${base}/v1/status`))
  t.equal(status.status, 'degraded')
  const metrics = await (await fetch(`${ops}/metrics`)).text()
  t.match(metrics, /^venue_hermes_auth_refused 1$/m)
  t.match(metrics, /^venue_hermes_http_errors_total\{endpoint="price_feeds",status="403"\} 1$/m)
  const readyz = await fetch(`${ops}/readyz`)
  const ready = await readJson(readyz)
  t.equal(readyz.status, 200, 'the process itself is ready: its engines are up')
  t.strictSame(ready.details, { hermes: { feedList: 'unchecked', unknownFeeds: [], authRefused: true } })

  const errorLines = service.logs
    .map((line) => JSON.parse(line) as { msg: string; level: number })
    .filter((record) => record.msg === REFUSED)
  t.strictSame(
    errorLines.map((record) => record.level),
    [50],
    'one error line',
  )
  const everything = [...service.logs, metrics, JSON.stringify(ready), JSON.stringify(status)].join('\n')
  t.notOk(everything.includes(wrongKey), 'the key appears nowhere')
})

t.test('with the key from a file: prices flow; an unknown feed is named on /readyz and counted', async (t) => {
  const knownFeeds = FEED_IDS.flatMap((entry) =>
    entry.pythSymbol && entry.feedId !== EUR ? [{ id: entry.feedId, symbol: entry.pythSymbol }] : [],
  )
  const hermes = await HermesTestServer.start({ apiKey: KEY, slotMs: 50, feeds: knownFeeds })
  t.teardown(() => hermes.close())
  const publishTime = Math.floor(Date.now() / 1000)
  for (const feed of knownFeeds) hermes.setPrice({ feedId: feed.id, price: '10000000', conf: '1000', expo: -5, publishTime })
  hermes.setPrice({ feedId: feedIdFor('BTC-USD'), price: '9500000000000', conf: '500000000', expo: -8, publishTime })
  const keyFile = join(mkdtempSync(join(tmpdir(), 'hermes-key-')), 'key')
  writeFileSync(keyFile, `${KEY}\n`)

  const { base, ops } = await startService(t, { HERMES_URL: hermes.url, HERMES_API_KEY_FILE: keyFile })

  await waitFor(async () => (await readJson(await fetch(`${base}/v1/status`))).status === 'ok', {
    timeoutMs: START_DEADLINE_MS,
    what: 'status ok',
  })
  const prices = await readJson(await fetch(`${base}/v1/prices`))
  t.equal(prices.prices.find((row: { pair: string }) => row.pair === 'BTC-USD').mid, 95_000)
  t.equal(hermes.lastAuthorization, `Bearer ${KEY}`)

  const ready = await readJson(await fetch(`${ops}/readyz`))
  t.strictSame(ready.details, { hermes: { feedList: 'checked', unknownFeeds: [{ pair: 'EUR-USD', feedId: EUR }], authRefused: false } })
  const metrics = await (await fetch(`${ops}/metrics`)).text()
  t.match(metrics, /^venue_hermes_unknown_feed_ids 1$/m)
  t.match(metrics, /^venue_hermes_auth_refused 0$/m)
  await waitFor(async () => /^venue_hermes_repeats_suppressed_total [1-9]\d*$/m.test(await (await fetch(`${ops}/metrics`)).text()), {
    what: 'repeated slots counted, not published',
  })
})
