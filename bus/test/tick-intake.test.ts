// One intake per process on a real nats-server: the tick stream republishes each tick it stores with its position,
// the process takes it once for every reader, a follower reads from the stream only what the subscription missed,
// and a stream made without republish is still followed, with the process saying why it takes ticks twice.
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { pino } from 'pino'
import { jetstreamManager, StorageType } from '@nats-io/jetstream'
import { connect, nanos } from '@nats-io/transport-node'
import { natsPriceBus } from '../nats-price-bus.ts'
import { natsTickIntake } from '../nats-tick-intake.ts'
import { openTickStream } from '../nats-tick-log.ts'
import { connectResiliently } from '../nats-connection.ts'
import type { NumberedTick } from '../price-bus.ts'
import { busNames } from '../subjects.ts'
import { freePort, startNats } from '../../test/support/servers.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'
import { startTcpProxy } from '../../test/support/tcp-proxy.ts'
import { waitFor } from '../../test/support/wait.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const logger = silentLogger()
const positions = (ticks: NumberedTick[]) => ticks.map(({ pair, seq, position }) => ({ pair, seq, position }))

async function publisherOf(t: Test, namespace: string) {
  const publisher = await natsPriceBus({ servers: nats.url, namespace, name: 'publisher', publishes: true, logger })
  t.teardown(() => publisher.close())
  return {
    async publish(...pairs: string[]) {
      for (const pair of pairs) publisher.publishTick(pair, Buffer.from(`{"pair":"${pair}"}`))
      await publisher.flush()
    },
  }
}

t.test('each tick comes to the process once, for every reader and for the follower, with its numbers', async (t) => {
  const namespace = `t${randomUUID().slice(0, 8)}`
  const names = busNames(namespace)
  const reader = await connect({ servers: nats.url })
  t.teardown(() => reader.close())
  t.equal((await openTickStream(reader, names, { windowSeconds: 60, replicas: 1 })).republishes, true, 'a new stream republishes')
  const intake = natsTickIntake(reader, names, logger)
  const [first, second] = [[] as string[], [] as string[]]
  intake.subscribe((pair) => first.push(pair))
  intake.subscribe((pair) => second.push(pair))
  const followed: NumberedTick[] = []
  const follower = intake.follow((tick) => followed.push(tick))
  t.teardown(() => follower.stop())
  await follower.ready
  const before = reader.stats().inMsgs

  await (await publisherOf(t, namespace)).publish('BTC-USD', 'ETH-USD', 'BTC-USD')
  await waitFor(() => followed.length === 3 && second.length === 3, { what: 'three ticks for every reader' })
  await reader.flush()
  t.same(positions(followed), [
    { pair: 'BTC-USD', seq: 1, position: 1 },
    { pair: 'ETH-USD', seq: 1, position: 2 },
    { pair: 'BTC-USD', seq: 2, position: 3 },
  ])
  t.same(first, ['BTC-USD', 'ETH-USD', 'BTC-USD'])
  t.same(second, first)
  t.equal(reader.stats().inMsgs - before, 3, 'three messages came in: one per tick, and nothing from a consumer')
})

t.test('ticks published while the process was away are read from the stream when it is back, each once', async (t) => {
  const namespace = `t${randomUUID().slice(0, 8)}`
  const names = busNames(namespace)
  const listen = { host: '127.0.0.1', port: await freePort() }
  const target = { host: '127.0.0.1', port: Number(new URL(nats.url).port) }
  let proxy = await startTcpProxy(listen, target)
  t.teardown(() => proxy.close())
  const reader = await connectResiliently(`nats://127.0.0.1:${listen.port}`, 'away')
  t.teardown(() => reader.close())
  await openTickStream(reader, names, { windowSeconds: 60, replicas: 1 })
  const intake = natsTickIntake(reader, names, logger)
  const live: string[] = []
  intake.subscribe((pair) => live.push(pair))
  const followed: NumberedTick[] = []
  const follower = intake.follow((tick) => followed.push(tick))
  t.teardown(() => follower.stop())
  await follower.ready
  const publisher = await publisherOf(t, namespace)

  await publisher.publish('BTC-USD')
  await waitFor(() => followed.length === 1, { what: 'the first tick' })
  await proxy.close()
  await publisher.publish('ETH-USD', 'BTC-USD', 'SOL-USD')
  proxy = await startTcpProxy(listen, target)
  // no tick after the reconnection reveals the hole: the reconnection itself has the follower read to the stream's last
  await waitFor(() => followed.length === 4, { what: 'the ticks of the time away', bound: 'a reconnection 500 ms after the loss' })
  await publisher.publish('BTC-USD')
  await waitFor(() => followed.length === 5 && live.length === 2, { what: 'the tick after' })
  t.same(positions(followed), [
    { pair: 'BTC-USD', seq: 1, position: 1 },
    { pair: 'ETH-USD', seq: 1, position: 2 },
    { pair: 'BTC-USD', seq: 2, position: 3 },
    { pair: 'SOL-USD', seq: 1, position: 4 },
    { pair: 'BTC-USD', seq: 3, position: 5 },
  ])
  t.same(live, ['BTC-USD', 'BTC-USD'], 'readers without a position take what comes, as on a tick subject')
})

t.test(
  'a stream made without republish: republish is added where the server allows it, and the stream is followed either way',
  async (t) => {
    const namespace = `t${randomUUID().slice(0, 8)}`
    const names = busNames(namespace)
    const nc = await connect({ servers: nats.url })
    t.teardown(() => nc.close())
    const jsm = await jetstreamManager(nc)
    const made = await jsm.streams.add({
      name: names.tickStream,
      subjects: [names.allTicks],
      max_age: nanos(60_000),
      storage: StorageType.File,
    })
    const [major = 0, minor = 0] = (nc.info?.version ?? '').split('.').map(Number)
    const allowsUpdate = major > 2 || (major === 2 && minor >= 10)

    const lines: { msg: string }[] = []
    const bus = await natsPriceBus({
      servers: nats.url,
      namespace,
      name: 'follower',
      logger: pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) }),
    })
    t.teardown(() => bus.close())
    const stream = await openTickStream(nc, names, { windowSeconds: 60, replicas: 1 })
    t.equal(
      stream.republishes,
      allowsUpdate,
      `nats-server ${nc.info?.version} ${allowsUpdate ? 'adds' : 'refuses to add'} republish to a stream`,
    )
    t.equal(stream.epoch, Date.parse(made.created).toString(36), 'the epoch is the stream creation time, kept by an update')
    t.equal(
      lines.some(({ msg }) => msg.startsWith('the tick stream does not republish')),
      !allowsUpdate,
      'the process says it takes each tick twice only where republish could not be added',
    )
    const followed: NumberedTick[] = []
    const follower = bus.tickLog.follow((tick) => followed.push(tick))
    t.teardown(() => follower.stop())
    await follower.ready
    await (await publisherOf(t, namespace)).publish('BTC-USD', 'ETH-USD')
    await waitFor(() => followed.length === 2, { what: 'two ticks' })
    t.same(positions(followed), [
      { pair: 'BTC-USD', seq: 1, position: 1 },
      { pair: 'ETH-USD', seq: 1, position: 2 },
    ])
  },
)
