// The client against a real stand-in whose answers carry odd records (rewritten in flight by a proxy),
// and against deployments that lack fields: one odd record is left out and counted (warned about once
// a minute), an optional figure passes through as null, a missing optional field is read around, and
// only a field the read cannot do without fails it.

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import t, { type Test } from 'tap'
import { pino } from 'pino'
import { createMetrics, type Metrics } from '../../../kit/metrics.ts'
import { DEMO_TRADER, seedData, startIndexerStandin, subgraphPath } from '../../../standins/subgraph/index.ts'
import { createIndexerClient } from '../indexer-client.ts'

type Rewrite = (data: Record<string, Array<Record<string, unknown>>>) => void

/** Forwards to the stand-in and lets the test rewrite each answer's `data`. */
async function startRewritingProxy(t: Test, target: string) {
  let rewrite: Rewrite = () => {}
  let forwarded = 0
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => void forward())
    async function forward(): Promise<void> {
      forwarded++
      const answer = await fetch(target + (incoming.url ?? '/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      })
      const body = (await answer.json()) as { data?: Record<string, Array<Record<string, unknown>>> }
      if (body.data) rewrite(body.data)
      outgoing.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, setRewrite: (next: Rewrite) => (rewrite = next), forwarded: () => forwarded }
}

function clientWithLog(origin: string) {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
        done()
      },
    }),
  )
  const metrics = createMetrics()
  const urls = { 42161: origin + subgraphPath(42161), 421614: origin + subgraphPath(421614) }
  return { indexer: createIndexerClient({ urls, timeoutMs: 5000, cacheMs: 0 }, { logger, metrics }), lines, metrics }
}

async function metricValue(metrics: Metrics, name: 'indexerRecordsSkipped' | 'indexerFieldsMissing', labels: Record<string, string>) {
  const { values } = await metrics[name].get()
  return (
    values.find((entry) => Object.entries(labels).every(([key, value]) => (entry.labels as Record<string, unknown>)[key] === value))
      ?.value ?? 0
  )
}

const query = { trader: DEMO_TRADER, chainId: 42161, first: 100, skip: 0 } as const

t.test('odd records', async (t) => {
  const standin = await startIndexerStandin()
  t.teardown(() => standin.close())
  const proxy = await startRewritingProxy(t, new URL(standin.url(42161)).origin)
  const { indexer, lines, metrics } = clientWithLog(proxy.origin)

  t.test('an unknown limitType leaves that one order out, counted; the warning is not repeated within a minute', async (t) => {
    proxy.setRewrite((data) => {
      if (!data.limits) return
      data.limits[1]!.limitType = 'TRAILING'
      data.limits[2]!.limitType = 'stop' // the spelling differs, the kind is known
    })
    const first = await indexer.restingOrders(query)
    t.equal(first.length, 11)
    t.equal(first[1]!.limitType, 'STOP')
    t.equal(await metricValue(metrics, 'indexerRecordsSkipped', { chain: '42161', entity: 'Limit', field: 'limitType' }), 1)
    await indexer.restingOrders(query)
    t.equal(await metricValue(metrics, 'indexerRecordsSkipped', { chain: '42161', entity: 'Limit', field: 'limitType' }), 2)
    const warnings = lines.filter((line) => line.entity === 'Limit')
    t.equal(warnings.length, 1, 'one warning')
    t.match(warnings[0], { level: 40, chainId: 42161, entity: 'Limit', field: 'limitType', skipped: 1 })
  })

  t.test('an unexpected null: an optional figure reads null, a required one drops the record', async (t) => {
    proxy.setRewrite((data) => {
      if (data.orders) {
        data.orders[0]!.priceAfterImpact = null
        delete data.orders[0]!.fundingFee
        data.orders[1]!.initiatedAt = null
      }
      data.trades?.forEach((trade) => ((trade.pair as Record<string, unknown>).accFundingLong = null))
    })
    const orders = await indexer.settledOrders(query)
    t.equal(orders.length, 92, 'one of 93 left out')
    t.match(orders[0], { priceAfterImpact: null, fundingFee: null })
    t.equal(await metricValue(metrics, 'indexerRecordsSkipped', { chain: '42161', entity: 'Order', field: 'initiatedAt' }), 1)
    const trades = await indexer.openTrades(query)
    t.equal(trades.length, 8)
    t.ok(
      trades.filter((trade) => trade.isBuy).every((trade) => trade.funding === null && trade.rollover !== null),
      "longs lack the pair's funding accumulator",
    )
    t.ok(trades.filter((trade) => !trade.isBuy).every((trade) => trade.funding !== null))
  })

  t.test('a page that is not a list still fails the read', async (t) => {
    proxy.setRewrite((data) => {
      ;(data as Record<string, unknown>).limits = { oops: true }
    })
    t.match(await indexer.restingOrders(query).catch((error: unknown) => error), {
      code: 'upstream_unavailable',
      details: { chainId: 42161, reason: 'invalid_response' },
    })
  })
})

t.test('a deployment without some fields', async (t) => {
  const standin = await startIndexerStandin({ withoutFields: ['Pair.priceImpactK', 'Group.maxCollateralP', 'Limit.orderId'] })
  t.teardown(() => standin.close())
  const proxy = await startRewritingProxy(t, new URL(standin.url(42161)).origin)
  const { indexer, lines, metrics } = clientWithLog(proxy.origin)

  t.test('optional fields: the read goes on without them, once asked, then from the start', async (t) => {
    const states = await indexer.marketStates(42161)
    t.equal(proxy.forwarded(), 2, 'refused once, then read without the fields')
    t.equal(states.get('0')!.priceImpactK, null)
    t.equal(states.get('0')!.groupMaxCollateralP, null)
    t.equal(states.get('0')!.buyVolume, seedData(42161).pairs[0]!.buyVolume)
    t.equal(await metricValue(metrics, 'indexerFieldsMissing', { chain: '42161', field: 'Pair.priceImpactK' }), 1)
    t.equal(await metricValue(metrics, 'indexerFieldsMissing', { chain: '42161', field: 'Group.maxCollateralP' }), 1)
    t.match(lines.at(-1), { chainId: 42161, fields: ['Group.maxCollateralP', 'Pair.priceImpactK'] })
    await indexer.pairs(42161)
    t.equal(proxy.forwarded(), 3, 'later reads leave them out from the start')
  })

  t.test('a field the read needs: 502, naming the refusal', async (t) => {
    const failure = await indexer.restingOrders(query).catch((error: unknown) => error)
    t.match(failure, { code: 'upstream_unavailable', details: { chainId: 42161, reason: 'graphql_errors' } })
    t.strictSame((failure as Error).cause && ((failure as Error).cause as Error).cause, ['Type `Limit` has no field `orderId`'])
  })
})
