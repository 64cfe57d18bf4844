import t from 'tap'
import { PriceSnapshot } from '../../schemas/price.ts'
import { runTypeScript, STACK_FRAME } from '../support/command-run.ts'
import { readJson } from '../support/http.ts'
import { freePort } from '../support/servers.ts'
import { NPM_START_ENTRY, startServiceProcess } from '../support/service-process.ts'
import { waitFor } from '../support/wait.ts'
import { alsoOnNode20 } from '../support/on-node-20.ts'

/**
 * Hang detector for the development chains (anvil, alto, the deployments) to come up: the slowest seen was 34.7 s
 * in a whole suite beside a core kept busy, on a slower two-core machine, and over a minute on Node 20 on a busy
 * one; 120 s keeps three times the former.
 */
const CHAINS_DEADLINE_MS = 120_000

t.test('with no configuration the service runs every role embedded, and stops on SIGTERM', async (t) => {
  const port = await freePort()
  const service = startServiceProcess([], { PORT: String(port) }, undefined, NPM_START_ENTRY)
  t.teardown(() => service.stop())
  const starting = await service.waitForLog('starting roles')
  t.same(starting.roles, ['ingestor', 'edge', 'relayer'])
  t.equal(starting.bus, 'embedded (in-process; set NATS_URL for NATS)')
  t.equal(starting.rateLimitsAndQueue, 'embedded (in-memory; set REDIS_URL or REDIS_SENTINELS for Redis)')
  await service.waitForLog('feed: embedded simulator (set FEED_SOURCE for a real feed)')
  await service.waitForLog('onboarding: embedded development chains (set CHAIN_<id>_* or DEPLOYMENT_FILE)', CHAINS_DEADLINE_MS)
  await service.waitForLog('indexed source: embedded stand-in (set INDEXER_URL_42161 and INDEXER_URL_421614)')
  const listening = await service.waitForLog('edge listening')
  t.equal(listening.port, port)
  const ops = `http://127.0.0.1:${Number((await service.waitForLog('ops endpoints listening')).port)}`

  const snapshot = await waitFor(
    async () => {
      const response = await fetch(`http://127.0.0.1:${port}/v1/prices`)
      return response.status === 200 ? readJson(response) : undefined
    },
    { what: 'the first snapshot' },
  )
  // `npm run demo:onboard` right after the first price, as the README says: it waits for this run's chains
  const demo = runTypeScript('scripts/demo-onboard.ts', [`http://127.0.0.1:${port}`, '--ops', ops], { timeoutMs: 120_000 })
  t.ok(PriceSnapshot.safeParse(snapshot).success)
  t.equal(snapshot.prices.length, 83, 'every listed pair has a schedule and a simulated price')
  const status = await readJson(await fetch(`http://127.0.0.1:${port}/v1/status`))
  t.equal(status.status, 'ok')
  t.equal((await fetch(`${ops}/healthz`)).status, 200)
  for (const path of ['/metrics', '/healthz', '/readyz']) {
    const onPublicPort = await fetch(`http://127.0.0.1:${port}${path}`)
    t.equal(onPublicPort.status, 404, `${path} is not on the public port`)
    t.same(await readJson(onPublicPort), { error: 'Not Found', message: 'no such route' })
  }
  // every other endpoint answers on the embedded defaults too
  const pairs = await readJson(await fetch(`http://127.0.0.1:${port}/v1/pairs`))
  t.equal(pairs.count, 83)
  t.equal((await fetch(`http://127.0.0.1:${port}/v1/market-hours?pair=BTC-USD`)).status, 200)
  const onboard = await fetch(`http://127.0.0.1:${port}/v1/onboard`, { method: 'POST', body: '{}' })
  t.equal(onboard.status, 400, 'the onboarding intake validates')
  const onboarded = await demo
  t.equal(onboarded.code, 0, 'the demo onboarded')
  const [answerLine, ...body] = onboarded.stdout.split('\n')
  t.equal(answerLine, 'POST /v1/onboard → 200')
  t.equal(JSON.parse(body.join('\n')).status, 'confirmed')
  t.notMatch(onboarded.stderr, STACK_FRAME)
  const ready = await fetch(`${ops}/readyz`)
  t.same(await readJson(ready), { ready: true, checks: { bus: true, routes: true }, details: { onboarding: 'ready' } }, 'the chains are up')
  // hot-path counters reach /metrics within a second
  const metrics = await waitFor(
    async () => {
      const text = await (await fetch(`${ops}/metrics`)).text()
      return /venue_ticks_ingested_total\{source="simulator"\} [1-9]\d*/.test(text) ? text : undefined
    },
    { what: 'ingest counts in /metrics' },
  )
  t.match(metrics, /venue_priced_pairs 83/)

  t.equal(await service.stop(), 0)
  await service.waitForLog('stopped')
})

t.test('a wrong setting stops the start with a message naming it', async (t) => {
  const service = startServiceProcess([], { PORT: 'eighty', FEED_SOURCE: 'carrier-pigeon' }, undefined, NPM_START_ENTRY)
  const exitCode = await new Promise((resolve) => service.child.once('exit', resolve))
  t.equal(exitCode, 1)
  const fatal = service.logs.map((line) => JSON.parse(line)).find((record) => record.level === 60)
  t.match(fatal.msg, /invalid configuration for ingestor: FEED_SOURCE="carrier-pigeon": /)
})

// the other supported Node line, where the uWebSockets.js build differs (test/support/on-node-20.ts)
await alsoOnNode20(t, import.meta.url)
