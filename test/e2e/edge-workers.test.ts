// EDGE_WORKERS=2: two edge processes share one port; the kernel spreads connections over both, and every
// connection, whichever process holds it, gets every tick of its pairs in order with seq counting up
// from its snapshot's baseline.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { natsPriceBus } from '../../bus/nats-price-bus.ts'
import { priceRow, rowBytes } from '../support/price-rows.ts'
import { freePort, startNats } from '../support/servers.ts'
import { edgeOnNats, startServiceProcess, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { socketsByPid } from '../support/sockets.ts'
import { openStream } from '../support/stream-clients.ts'
import { waitFor } from '../support/wait.ts'
import { silentLogger } from '../support/silent-logger.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())

t.test('two edge workers on one port: connections on both, each with every tick in order and exact seq', async (t) => {
  const namespace = `e2e${randomUUID().slice(0, 8)}`
  const port = await freePort()
  const service = startServiceProcess(['edge'], { ...edgeOnNats(nats.url, namespace), PORT: String(port), EDGE_WORKERS: '2' })
  t.teardown(() => service.stop())
  const listeners = await waitFor(
    () => {
      const pids = socketsByPid(port, 'listening')
      return pids.size === 2 ? pids : undefined
    },
    { timeoutMs: 90_000, intervalMs: 100, what: 'two processes listening' },
  )
  t.ok(listeners.has(service.child.pid!), 'the primary listens')

  const pairs = ['BTC-USD', 'ETH-USD', 'XAU-USD']
  const clients = []
  for (let index = 0; index < 16; index++) {
    const client = await openStream(`ws://127.0.0.1:${port}/v1/prices/stream?pairs=${pairs.join(',')}`)
    t.teardown(() => client.socket.terminate())
    clients.push(client)
  }
  await Promise.all(clients.map((client) => client.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')))
  const held = socketsByPid(port, 'established')
  t.same([...held.keys()].sort(), [...listeners.keys()].sort(), 'both workers hold connections')
  t.equal(
    [...held.values()].reduce((sum, count) => sum + count, 0),
    16,
    'every connection is held by one of them',
  )

  const publisher = await natsPriceBus({ servers: nats.url, namespace, name: 'e2e-publisher', logger: silentLogger() })
  t.teardown(() => publisher.close())
  const published: Record<string, number[]> = Object.fromEntries(pairs.map((pair) => [pair, []]))
  for (let index = 0; index < 60; index++) {
    const pair = pairs[index % pairs.length]!
    published[pair]!.push(1000 + index)
    publisher.publishTick(pair, rowBytes(priceRow(pair, { mid: 1000 + index })))
  }

  for (const [number, client] of clients.entries()) {
    await client.messages.until(
      () => (client.messages.items.filter((frame) => frame.type === 'tick').length === 60 ? true : undefined),
      `60 ticks on connection ${number}`,
      15_000,
    )
    t.equal(client.messages.items.length, 61, `connection ${number}: the snapshot and 60 ticks, nothing else`)
    const ticks = client.messages.items.filter((frame) => frame.type === 'tick')
    for (const pair of pairs) {
      const ofPair = ticks.filter((tick) => tick.data.pair === pair)
      t.same(
        ofPair.map((tick) => tick.data.mid),
        published[pair],
        `connection ${number}: ${pair} in publish order`,
      )
      const baseline = client.messages.items[0].seq[pair]
      t.same(
        ofPair.map((tick) => tick.seq),
        ofPair.map((_, index) => baseline + index + 1),
        `connection ${number}: ${pair} seq counts up from its baseline`,
      )
    }
  }

  const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(`http://127.0.0.1:${port}/v1/prices`)))
  t.same(
    answers.map((answer) => answer.status),
    Array(8).fill(200),
    'both workers serve the snapshot',
  )
  await Promise.all(answers.map((answer) => answer.arrayBuffer()))
})

t.test('EDGE_WORKERS above 1 without NATS is refused at start', async (t) => {
  const service = startServiceProcess(['edge'], {
    ...UNUSED_INDEXED_SOURCE,
    ONBOARDING_ENABLED: 'false',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    EDGE_WORKERS: '2',
  })
  t.teardown(() => service.stop())
  const record = await service.waitForLog(
    'EDGE_WORKERS above 1 needs the edge role and NATS_URL: each worker subscribes to the ticks on NATS',
  )
  t.equal(record.level, 60)
})
