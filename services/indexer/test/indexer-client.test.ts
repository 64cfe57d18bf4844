// The indexer client against the real stand-in, through a counting proxy: identical reads share one
// upstream request, answers are converted, and the source's health shows in the metrics.

import t from 'tap'
import { createMetrics } from '../../../kit/metrics.ts'
import { DEMO_TRADER, LAG_SECONDS } from '../../../standins/subgraph/index.ts'
import { createIndexerClient } from '../indexer-client.ts'
import { startGateway } from './fixtures/gateway.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'

const demoQuery = { trader: DEMO_TRADER, chainId: 42161, first: 100, skip: 0 } as const

t.test('the indexer client', async (t) => {
  const gateway = await startGateway(t)
  const { indexer, proxy, metrics } = gateway

  t.test('N concurrent identical reads cost one upstream request', async (t) => {
    const before = proxy.forwarded()
    const reads = Array.from({ length: 20 }, (_, n) =>
      // both spellings of the address are the same read
      indexer.restingOrders({ ...demoQuery, trader: n % 2 ? DEMO_TRADER : DEMO_TRADER.toLowerCase() }),
    )
    const answers = await Promise.all(reads)
    t.equal(proxy.forwarded() - before, 1)
    t.equal(answers[0]!.length, 12)
    for (const answer of answers) t.equal(answer, answers[0], 'every caller gets the one answer')
  })

  t.test('different reads are separate requests; without a cache a later read goes upstream again', async (t) => {
    const before = proxy.forwarded()
    await Promise.all([
      indexer.restingOrders(demoQuery),
      indexer.restingOrders({ ...demoQuery, chainId: 421614 }),
      indexer.restingOrders({ ...demoQuery, first: 5 }),
      indexer.restingOrders({ ...demoQuery, since: 1762147074 }),
      indexer.openTrades(demoQuery),
    ])
    t.equal(proxy.forwarded() - before, 5)
    await indexer.restingOrders(demoQuery)
    t.equal(proxy.forwarded() - before, 6)
  })

  t.test('with a cache, a burst of sequential reads costs one request', async (t) => {
    const cached = createIndexerClient(
      { urls: gateway.urls, timeoutMs: 5000, cacheMs: 60_000 },
      { logger: silentLogger(), metrics: createMetrics() },
    )
    const before = proxy.forwarded()
    for (let n = 0; n < 10; n++) await cached.pairs(42161)
    t.equal(proxy.forwarded() - before, 1)
  })

  t.test('requests by outcome, the up gauge and the lag from _meta, per chain', async (t) => {
    const requestsBefore = await counterValue(metrics.indexerRequests, { chain: '421614', outcome: 'ok' })
    await indexer.pairs(421614)
    t.equal(await counterValue(metrics.indexerRequests, { chain: '421614', outcome: 'ok' }), requestsBefore + 1)
    t.equal(await gaugeValue(metrics.indexerUp, { chain: '421614' }), 1)
    t.ok((await gaugeValue(metrics.indexerLag, { chain: '421614' }))! < 5, 'a caught-up source lags by the time of one request')

    gateway.standin.setFault('lagging')
    t.teardown(() => gateway.standin.setFault('none'))
    await indexer.pairs(421614)
    const lag = (await gaugeValue(metrics.indexerLag, { chain: '421614' }))!
    t.ok(lag >= LAG_SECONDS && lag < LAG_SECONDS + 5, `a lagging source shows its lag (${lag} s)`)
    t.equal(await gaugeValue(metrics.indexerUp, { chain: '421614' }), 1, 'a lagging source still answers')
  })
})

type LabelledMetric = { get(): Promise<{ values: Array<{ labels: Record<string, string | number>; value: number }> }> }

async function gaugeValue(metric: LabelledMetric, labels: Record<string, string>): Promise<number | undefined> {
  const { values } = await metric.get()
  return values.find((entry) => Object.entries(labels).every(([name, value]) => entry.labels[name] === value))?.value
}

async function counterValue(metric: LabelledMetric, labels: Record<string, string>): Promise<number> {
  return (await gaugeValue(metric, labels)) ?? 0
}
