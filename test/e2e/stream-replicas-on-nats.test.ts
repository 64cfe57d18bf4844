import t from 'tap'
import { natsPriceBus } from '../../bus/nats-price-bus.ts'
import { priceRow, rowBytes } from '../support/price-rows.ts'
import { freePort, startNats } from '../support/servers.ts'
import { edgeOnNats, startServiceProcess } from '../support/service-process.ts'
import { openStream } from '../support/stream-clients.ts'
import { silentLogger } from '../support/silent-logger.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())

t.test('two edge replicas on one NATS stream the same rows in the same order per pair', async (t) => {
  const shared = edgeOnNats(nats.url)
  const ports = [await freePort(), await freePort()]
  const replicas = ports.map((port) => startServiceProcess(['edge'], { ...shared, PORT: String(port) }))
  for (const replica of replicas) t.teardown(() => replica.stop())
  await Promise.all(replicas.map((replica) => replica.waitForLog('edge listening')))

  const clients = await Promise.all(
    ports.map((port) => openStream(`ws://127.0.0.1:${port}/v1/prices/stream?pairs=BTC-USD,ETH-USD,XAU-USD`)),
  )
  for (const client of clients) t.teardown(() => client.socket.terminate())
  await Promise.all(clients.map((client) => client.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')))

  const publisher = await natsPriceBus({
    servers: nats.url,
    namespace: shared.BUS_NAMESPACE,
    name: 'e2e-publisher',
    logger: silentLogger(),
  })
  t.teardown(() => publisher.close())
  const published: Record<string, number[]> = { 'BTC-USD': [], 'ETH-USD': [], 'XAU-USD': [] }
  const pairs = Object.keys(published)
  for (let index = 0; index < 60; index++) {
    const pair = pairs[index % 3]!
    const mid = 1000 + index
    published[pair]!.push(mid)
    publisher.publishTick(pair, rowBytes(priceRow(pair, { mid })))
    publisher.publishTick('EUR-USD', rowBytes(priceRow('EUR-USD', { mid })))
  }

  for (const [replica, client] of clients.entries()) {
    await client.messages.until(
      () => (client.messages.items.filter((frame) => frame.type === 'tick').length === 60 ? true : undefined),
      `60 ticks from replica ${replica}`,
      15_000,
    )
    const ticks = client.messages.items.filter((frame) => frame.type === 'tick')
    t.equal(client.messages.items.length, 61, `replica ${replica}: the snapshot and 60 ticks, nothing else`)
    for (const pair of pairs) {
      const ofPair = ticks.filter((tick) => tick.data.pair === pair)
      t.same(
        ofPair.map((tick) => tick.data.mid),
        published[pair],
        `replica ${replica}: ${pair} rows in publish order`,
      )
      const baseline = client.messages.items[0].seq[pair]
      t.same(
        ofPair.map((tick) => tick.seq),
        ofPair.map((_, index) => baseline + index + 1),
        `replica ${replica}: ${pair} seq counts up from its baseline`,
      )
    }
  }
})
