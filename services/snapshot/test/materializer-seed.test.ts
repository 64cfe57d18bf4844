// An edge starting beside its ingestor: rows published before the edge subscribed reach the latest-value
// store only on the publisher's next write turn, after the edge's first read of it. The materializer reads
// the store again while pairs lack a row, so a closed market's one row is not missed (real nats-server).
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { natsPriceBus } from '../../../bus/nats-price-bus.ts'
import { createMetrics } from '../../../kit/metrics.ts'
import { PAIRS } from '../../../schemas/pairs.ts'
import { startNats } from '../../../test/support/servers.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { waitFor } from '../../../test/support/wait.ts'
import { startMaterializer } from '../materializer.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const logger = silentLogger()

/**
 * An ingestor's bus and an edge's on a fresh namespace; the ingestor has published a row for every pair,
 * closed markets included, and its store is written only when the test flushes it.
 */
async function ingestorAndEdge(t: Test) {
  const namespace = `t${randomUUID().slice(0, 8)}`
  const ingestorBus = await natsPriceBus({ servers: nats.url, namespace, name: 'ingestor', logger, latestWriteIntervalMs: 3_600_000 })
  const edgeBus = await natsPriceBus({ servers: nats.url, namespace, name: 'edge', logger })
  t.teardown(() => Promise.all([ingestorBus.close(), edgeBus.close()]))
  const published = PAIRS.map((pair) => priceRow(pair.symbol, { mid: 100 + pair.id, isMarketOpen: false }))
  for (const row of published) ingestorBus.publishTick(row.pair, rowBytes(row))
  const startEdge = async () => {
    const materializer = await startMaterializer({ bus: edgeBus, staleAfterMs: 3000, logger, metrics: createMetrics() })
    t.teardown(() => materializer.stop())
    return materializer
  }
  return { ingestorBus, edgeBus, published, startEdge }
}

t.test('a store written before the edge starts: every pair seeded by the first read', async (t) => {
  const { ingestorBus, startEdge } = await ingestorAndEdge(t)
  await ingestorBus.flush()
  const materializer = await startEdge()
  t.equal(materializer.rows().length, PAIRS.length)
})

t.test('a store written after the first read: the missing rows arrive, as ticks to listeners, and live rows win', async (t) => {
  // the ingestor's start went out before the edge subscribed
  const { ingestorBus, edgeBus, published, startEdge } = await ingestorAndEdge(t)
  const materializer = await startEdge()
  t.equal(materializer.rows().length, 0, 'the first read finds the store empty')
  const arrived: string[] = []
  materializer.onRow((pair) => arrived.push(pair))

  // one pair ticks live after the edge subscribed, then the ingestor's write turn stores the older rows
  const live = priceRow('BTC-USD', { mid: 95_000 })
  edgeBus.publishTick(live.pair, rowBytes(live))
  await waitFor(() => materializer.rowBody('BTC-USD') !== undefined, { what: 'the live tick' })
  await ingestorBus.flush()

  await waitFor(() => materializer.rows().length === PAIRS.length, { timeoutMs: 10_000, what: 'every pair seeded' })
  t.strictSame(JSON.parse(materializer.rowBody('BTC-USD')!.toString()), live, 'the live row is kept, not the older stored one')
  const eth = published.find((row) => row.pair === 'ETH-USD')!
  t.strictSame(JSON.parse(materializer.rowBody('ETH-USD')!.toString()), eth, 'a stored row, as the ingestor encoded it')
  t.equal(arrived.length, PAIRS.length, 'every row reached the listeners once: the live one and each stored one')
})
