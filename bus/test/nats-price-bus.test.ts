import t from 'tap'
import { randomUUID } from 'node:crypto'
import { connect } from '@nats-io/transport-node'
import { natsPriceBus } from '../nats-price-bus.ts'
import { natsTickSubscriptions } from '../nats-tick-subscriptions.ts'
import { busNames } from '../subjects.ts'
import { freePort, startNats } from '../../test/support/servers.ts'
import { startTcpProxy } from '../../test/support/tcp-proxy.ts'
import { waitFor } from '../../test/support/wait.ts'
import { priceBusContract } from './price-bus-contract.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const logger = silentLogger()

priceBusContract(t, async () => {
  // a fresh namespace per test: no test sees another's subjects or bucket
  const namespace = `t${randomUUID().slice(0, 8)}`
  const open = (name: string) => natsPriceBus({ servers: nats.url, namespace, name, logger, latestWriteIntervalMs: 20 })
  const [publisher, subscriber] = await Promise.all([open('publisher'), open('subscriber')])
  return {
    publisher,
    subscriber,
    close: async () => {
      await Promise.all([publisher.close(), subscriber.close()])
    },
  }
})

t.test('a server cut off without a reset: the bus is on the other server within ping detection and one dial timeout', async (t) => {
  const other = await startNats()
  t.teardown(() => other.dispose())
  const port = (url: string) => Number(new URL(url).port)
  const listenPorts = [await freePort(), await freePort()]
  const proxies = await Promise.all(
    [nats.url, other.url].map((url, index) =>
      startTcpProxy({ host: '127.0.0.1', port: listenPorts[index]! }, { host: '127.0.0.1', port: port(url) }),
    ),
  )
  t.teardown(() => Promise.all(proxies.map((proxy) => proxy.close())))
  const bus = await natsPriceBus({
    servers: listenPorts.map((listenPort) => `nats://127.0.0.1:${listenPort}`).join(','),
    namespace: `t${randomUUID().slice(0, 8)}`,
    name: 'cut-off',
    logger,
  })
  t.teardown(() => bus.close())
  const changes: boolean[] = []
  bus.onConnectionChange((connected) => changes.push(connected))
  const used = proxies.findIndex((proxy) => proxy.connections() > 0)
  t.not(used, -1, 'connected through one of the two servers')
  // drops everything both ways, sockets kept open: what a partition looks like to the client
  proxies[used]!.setDelay(Infinity)
  const cutAt = Date.now()
  // 2 missed pings 2 s apart, then one dial of the lost server (4 s) before the other; the client's default dial
  // timeout (20 s) alone would overrun this deadline
  await waitFor(() => changes.length === 2, {
    timeoutMs: 18_000,
    intervalMs: 50,
    what: 'the bus lost and connected again',
    bound: 'two missed pings and one 4 s dial (docs/cluster.md, a NATS node partitioned)',
  })
  t.same(changes, [false, true], 'lost, then connected again')
  t.equal(bus.isConnected(), true)
  t.equal(proxies[1 - used]!.connections(), 1, 'now through the other server')
  t.ok(Date.now() - cutAt < 18_000, 'within 18 s of the cut')
})

t.test('readers of every tick share one subscription: the server sends the process each tick once', async (t) => {
  const names = busNames(`t${randomUUID().slice(0, 8)}`)
  const [reader, publisher] = await Promise.all([connect({ servers: nats.url }), connect({ servers: nats.url })])
  t.teardown(() => Promise.all([reader.close(), publisher.close()]))
  const subscribeTicks = natsTickSubscriptions(reader, names, logger, undefined)
  const seen = { first: [] as string[], second: [] as string[], group: [] as string[] }
  const unsubscribeFirst = subscribeTicks((pair) => seen.first.push(pair))
  const unsubscribeSecond = subscribeTicks((pair) => seen.second.push(pair))
  subscribeTicks((pair) => seen.group.push(pair), { queueGroup: 'writers' })
  await reader.flush()
  const before = reader.stats().inMsgs
  const publishAll = async (pairs: string[]) => {
    for (const pair of pairs) publisher.publish(names.tickSubject(pair), '{}')
    await publisher.flush()
    await reader.flush()
  }
  await publishAll(['BTC-USD', 'ETH-USD', 'BTC-USD'])
  t.same(seen.first, ['BTC-USD', 'ETH-USD', 'BTC-USD'])
  t.same(seen.second, seen.first, 'both readers get every tick')
  t.same(seen.group, seen.first, 'the queue group member (alone in its group) too, on its own subscription')
  t.equal(reader.stats().inMsgs - before, 6, 'three ticks arrived twice: once for both readers of every tick, once for the group')
  unsubscribeFirst()
  await publishAll(['SOL-USD'])
  t.same([seen.first.length, seen.second.at(-1)], [3, 'SOL-USD'], 'a reader that left gets nothing; the other still reads')
  unsubscribeSecond()
  subscribeTicks((pair) => seen.first.push(pair))
  await reader.flush()
  await publishAll(['XRP-USD'])
  t.same([seen.first.at(-1), seen.second.length], ['XRP-USD', 4], 'a reader joining after the last left gets a new subscription')
})
