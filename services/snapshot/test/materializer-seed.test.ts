// Rows the tick subscription cannot deliver, taken from the latest-value store (real nats-server):
// - an edge starting beside its ingestor: rows published before it subscribed reach the store only on the
//   publisher's next write turn, after the edge's first read of it;
// - an edge off the bus for a while: a closed market's flags flipped meanwhile;
// - a tick the tick stream did not store (as while it has no leader): never republished, yet in the store.
// A closed market publishes its row only when its flags flip, so without these the edge would miss it.
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { natsPriceBus } from '../../../bus/nats-price-bus.ts'
import { busNames } from '../../../bus/subjects.ts'
import { createMetrics } from '../../../kit/metrics.ts'
import { PAIRS } from '../../../schemas/pairs.ts'
import { freePort, startNats } from '../../../test/support/servers.ts'
import { startTcpProxy } from '../../../test/support/tcp-proxy.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { waitFor } from '../../../test/support/wait.ts'
import { startMaterializer, type Materializer, type StoreReads } from '../materializer.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const logger = silentLogger()

/**
 * An ingestor's bus and an edge's on a fresh namespace; the ingestor has published a row for every pair,
 * closed markets included, and its store is written only when the test flushes it.
 */
async function ingestorAndEdge(t: Test, edgeServers = nats.url) {
  const namespace = `t${randomUUID().slice(0, 8)}`
  const ingestorBus = await natsPriceBus({ servers: nats.url, namespace, name: 'ingestor', logger, latestWriteIntervalMs: 3_600_000 })
  const edgeBus = await natsPriceBus({ servers: edgeServers, namespace, name: 'edge', logger })
  t.teardown(() => Promise.all([ingestorBus.close(), edgeBus.close()]))
  const published = PAIRS.map((pair) => priceRow(pair.symbol, { mid: 100 + pair.id, isMarketOpen: false }))
  // the rows have passed the server once a subscription made before them has them all: a subscription
  // made after that cannot receive them
  const passed = new Set<string>()
  const unsubscribe = edgeBus.subscribeTicks((pair) => passed.add(pair))
  await edgeBus.flush()
  for (const row of published) ingestorBus.publishTick(row.pair, rowBytes(row))
  await waitFor(() => passed.size === PAIRS.length, { what: 'the rows through the server' })
  unsubscribe()
  const startEdge = async (storeReads?: StoreReads) => {
    const materializer = await startMaterializer({ bus: edgeBus, staleAfterMs: 3000, logger, metrics: createMetrics(), storeReads })
    t.teardown(() => materializer.stop())
    return materializer
  }
  return { namespace, ingestorBus, edgeBus, published, startEdge }
}

/** the edge's row of `pair`, decoded */
const rowOf = (materializer: Materializer, pair: string) => JSON.parse(materializer.rowBody(pair)!.toString())

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
  t.strictSame(rowOf(materializer, 'BTC-USD'), live, 'the live row is kept, not the older stored one')
  const eth = published.find((row) => row.pair === 'ETH-USD')!
  t.strictSame(rowOf(materializer, 'ETH-USD'), eth, 'a stored row, as the ingestor encoded it')
  t.equal(arrived.length, PAIRS.length, 'every row reached the listeners once: the live one and each stored one')
})

t.test('an edge off the bus while a closed market reopened: the stored row replaces the one it held, live rows stay', async (t) => {
  // the edge reaches NATS through a proxy the test cuts
  const port = await freePort()
  const target = { host: '127.0.0.1', port: Number(new URL(nats.url).port) }
  let proxy = await startTcpProxy({ host: '127.0.0.1', port }, target)
  t.teardown(() => proxy.close())
  const { ingestorBus, edgeBus, published, startEdge } = await ingestorAndEdge(t, `nats://127.0.0.1:${port}`)
  await ingestorBus.flush()
  const materializer = await startEdge()
  t.equal(materializer.rows().length, PAIRS.length)

  // gold's market closes: its row comes live, then nothing until it opens
  const gold = published.find((row) => row.pair === 'XAU-USD')!
  const goldClosed = { ...gold, isDayTradingClosed: true }
  ingestorBus.publishTick(gold.pair, rowBytes(goldClosed))
  await waitFor(() => rowOf(materializer, 'XAU-USD').isDayTradingClosed === true, { what: 'gold closed' })

  const connection: boolean[] = []
  edgeBus.onConnectionChange((connected) => connection.push(connected))
  await proxy.close()
  await waitFor(() => connection[0] === false, { what: 'the edge off the bus' })
  // meanwhile gold's market opens (its row again, flags flipped) and BTC ticks; both reach the store
  const goldReopened = { ...gold, isMarketOpen: true }
  ingestorBus.publishTick(gold.pair, rowBytes(goldReopened))
  const btcWhileAway = priceRow('BTC-USD', { mid: 94_000 })
  ingestorBus.publishTick(btcWhileAway.pair, rowBytes(btcWhileAway))
  await ingestorBus.flush()
  proxy = await startTcpProxy({ host: '127.0.0.1', port }, target)
  await waitFor(() => connection[1] === true, { timeoutMs: 10_000, what: 'the edge back on the bus' })
  // its subscription is sent again on reconnecting, through the proxy: a tick the server takes before the
  // subscription would pass the edge by (what the store's rereads are for), so the tick waits for it
  await edgeBus.flush()
  // BTC ticks live once the edge is back: that row, not the stored one, is the latest
  const btcLive = priceRow('BTC-USD', { mid: 95_000 })
  ingestorBus.publishTick(btcLive.pair, rowBytes(btcLive))
  await waitFor(() => rowOf(materializer, 'BTC-USD').mid === 95_000, { what: 'the live tick' })

  await waitFor(() => rowOf(materializer, 'XAU-USD').isMarketOpen === true, {
    timeoutMs: 10_000,
    what: 'gold shown open',
  })
  t.strictSame(rowOf(materializer, 'XAU-USD'), goldReopened, 'the row published while the edge was away')
  t.strictSame(rowOf(materializer, 'BTC-USD'), btcLive, 'the live row is kept, not the stored one')
})

t.test(
  'a tick the tick stream did not store: its row, newer in the store than the live one held, replaces it at a later read',
  async (t) => {
    const { namespace, ingestorBus, startEdge } = await ingestorAndEdge(t)
    await ingestorBus.flush()
    // no reads for a start: only the ones an edge makes for as long as it runs (every 5 s; here every 0.2 s)
    const materializer = await startEdge({ afterChangeMs: [], everyMs: 200 })
    const btcLive = priceRow('BTC-USD', { mid: 95_000 })
    ingestorBus.publishTick(btcLive.pair, rowBytes(btcLive))
    await waitFor(() => rowOf(materializer, 'BTC-USD').mid === 95_000, { what: 'the live tick' })

    // a sealed stream refuses every message, as a stream without a leader stores none (sealing is JetStream's
    // plain stream update, which nats.js's typed update does not offer)
    const nc = await connect({ servers: nats.url })
    t.teardown(() => nc.close())
    const jsm = await jetstreamManager(nc)
    const { tickStream } = busNames(namespace)
    const sealed = { ...(await jsm.streams.info(tickStream)).config, sealed: true }
    const answer = await nc.request(`$JS.API.STREAM.UPDATE.${tickStream}`, JSON.stringify(sealed))
    t.equal(answer.json<{ config?: { sealed?: boolean } }>().config?.sealed, true, 'the tick stream sealed')
    const btcUnstored = priceRow('BTC-USD', { mid: 96_000 })
    ingestorBus.publishTick(btcUnstored.pair, rowBytes(btcUnstored))
    await ingestorBus.flush()
    t.equal((await jsm.streams.info(tickStream)).state.messages, PAIRS.length + 1, 'the stream did not store the tick')

    await waitFor(() => rowOf(materializer, 'BTC-USD').mid === 96_000, { what: 'the stored row taken' })
    t.strictSame(rowOf(materializer, 'BTC-USD'), btcUnstored)
  },
)
