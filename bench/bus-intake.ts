// What nats-server spends per tick for each way a process can take the ticks off the bus, at one tick rate: its
// CPU time beside the ticks published, one subscriber, nothing else on the server; and how long each tick takes
// from its publish to the subscriber's callback (publisher and subscriber share a process, so the clock is one).
// The ways:
// - core: a core subscription to the tick subjects and no tick stream (the bare server's bus in bench:stream);
// - stored: the tick stream without its republish, storing every tick, read by a core subscription;
// - republishing, read on core: the tick stream as the service makes it (bus/nats-tick-log.ts), storing and
//   republishing every tick, read by a core subscription to the tick subjects (a bare server on the venue's bus);
// - republished: the same stream read on the subjects it republishes to, each tick with its position (the edge's
//   intake, bus/nats-tick-intake.ts);
// - consumer: the stored stream read by a push consumer that takes no acks, delivering from the newest;
// - ordered: the stored stream read by the tick log's ordered consumer (bus/nats-tick-log.ts's natsTickLog), as a
//   process follows a stream that does not republish;
// - positioned at ingest: the stream storing without its republish, each tick published with the position its
//   publisher gave it (the stream refuses it at any other: Nats-Expected-Last-Sequence) and a reply subject for the
//   stream's acknowledgement, which the publisher reads; a core subscription reads the ticks. The bus's share of an
//   ingestor that numbers the ticks itself, so that readers need no republish to learn a tick's position;
// - positioned, unacknowledged: the same without the acknowledgements, the floor of that design's cost.
// The ways alternate run by run; the publisher is bench:stream's (loadtest/native-stream-client.ts).
// Usage: npm run bench:bus-intake [-- --rate 3500 --seconds 10 --runs 3]
import { AckPolicy, DeliverPolicy, jetstreamManager } from '@nats-io/jetstream'
import { connect, headers, type NatsConnection } from '@nats-io/transport-node'
import { randomUUID } from 'node:crypto'
import { busNames, type BusNames } from '../bus/subjects.ts'
import { natsTickLog, openTickStream, tickStreamSettings } from '../bus/nats-tick-log.ts'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { latencyHistogram, summarize } from '../loadtest/latency.ts'
import { microsecondsSinceStamp, StampedTickPublisher } from '../loadtest/native-stream-client.ts'
import { pinRunning } from '../loadtest/pinning.ts'
import { listeningPids, totalCpuMs } from '../loadtest/server-processes.ts'
import { startNats } from '../test/support/servers.ts'
import { median, printTable, writeFiguresWithLoad } from './report.ts'
import { clearNamespace } from './stream-servers.ts'

const command = parseCommandLine({
  usage: 'npm run bench:bus-intake -- [options]',
  summary:
    "nats-server's CPU per tick for each way of taking the ticks off the bus: a core subscription without and with the\n" +
    "tick stream, the stream's republish (the edge's intake), a push and an ordered consumer, and ticks numbered at ingest;\n" +
    'and the latency of each from publish to subscriber. Prints a table; writes JSON under bench/results/.',
  options: {
    rate: { type: 'string', default: '3500', value: 'N', description: 'ticks/s published, round-robin over the pairs' },
    seconds: { type: 'string', default: '10', value: 'S', description: 'seconds measured per way and run' },
    runs: { type: 'string', default: '3', value: 'N', description: 'runs, each measuring every way' },
  },
})
const rate = command.number('rate', { min: 1, integer: true })
const measureMs = command.number('seconds', { min: 1 }) * 1000
const runs = command.number('runs', { min: 1, integer: true })
const progress = progressReporter()
const loadBefore = loadAverage()

const nats = await startNats()
const serverPids = listeningPids(nats.port)
// nats-server and this process (the publisher and the subscriber) share CPU 1, as nats-server, the publisher and the
// load client do in bench:stream
for (const pid of [...serverPids, process.pid]) pinRunning('1', pid)
const [publisherConnection, subscriberConnection] = await Promise.all([
  connect({ servers: nats.url, name: 'bus-intake-publisher' }),
  connect({ servers: nats.url, name: 'bus-intake-subscriber' }),
])
const jsm = await jetstreamManager(subscriberConnection)
const STREAM = { windowSeconds: 300, replicas: 1 }

/** The tick stream as the service makes it, storing and republishing. */
const openAsMade = (names: BusNames) => openTickStream(subscriberConnection, names, STREAM)
/** The tick stream storing, without its republish. */
const addStoringStream = (names: BusNames) => jsm.streams.add(tickStreamSettings(names, STREAM))

/** Takes every tick's row to `onTick` until the function it returns is called. */
type Reader = (onTick: (row: Uint8Array) => void) => () => void
/** How a way's ticks go on the bus: what the publisher calls in place of its connection's own publish. */
type Publishing = Pick<NatsConnection, 'publish' | 'flush'>
/** A way set up: how its subscriber reads and, where it differs from a plain publish, how its ticks are published. */
interface Setup {
  read: Reader
  publishing?: Publishing & { stop(): void }
}
/** A core subscription to `subject`. */
const onSubject =
  (subject: string): Reader =>
  (onTick) => {
    const subscription = subscriberConnection.subscribe(subject, { callback: (_, message) => onTick(message.data) })
    return () => subscription.unsubscribe()
  }

/**
 * Publishes each tick at the position it numbers it with (the stream refuses a tick at any other position); with
 * `acknowledged`, with a reply subject taking the stream's acknowledgement of each, which the publisher decodes, as
 * an ingestor must to learn of a refusal. Without, a refusal goes unseen and every later tick is refused with it:
 * the floor of what numbering at ingest costs the bus, not a way to run it.
 */
function positionedPublishing(names: BusNames, acknowledged: boolean): NonNullable<Setup['publishing']> {
  const acks = `${names.tickStream}.acks`
  const subscription = acknowledged ? publisherConnection.subscribe(acks, { callback: (_, message) => void message.json() }) : undefined
  let lastPosition = 0
  return {
    publish(subject, payload) {
      const header = headers()
      header.set('Nats-Expected-Last-Sequence', String(lastPosition++))
      publisherConnection.publish(subject, payload, { reply: acknowledged ? acks : undefined, headers: header })
    },
    flush: () => publisherConnection.flush(),
    stop: () => subscription?.unsubscribe(),
  }
}

/** Each way: sets the bus up in a namespace of its own and returns how its subscriber reads. */
const ways: Record<string, (names: BusNames) => Promise<Setup>> = {
  core: async (names) => ({ read: onSubject(names.allTicks) }),
  stored: async (names) => (await addStoringStream(names), { read: onSubject(names.allTicks) }),
  'republishing, read on core': async (names) => (await openAsMade(names), { read: onSubject(names.allTicks) }),
  republished: async (names) => (await openAsMade(names), { read: onSubject(names.allNumberedTicks) }),
  consumer: async (names) => {
    await addStoringStream(names)
    const deliverTo = `${names.tickStream}.deliver`
    await jsm.consumers.add(names.tickStream, { deliver_subject: deliverTo, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.New })
    return { read: onSubject(deliverTo) }
  },
  ordered: async (names) => {
    await addStoringStream(names)
    const log = natsTickLog(subscriberConnection, names, { epoch: '', windowSeconds: STREAM.windowSeconds })
    return {
      read: (onTick) => {
        const following = log.follow((tick) => onTick(tick.row))
        return () => following.stop()
      },
    }
  },
  'positioned at ingest': async (names) => {
    await addStoringStream(names)
    return { read: onSubject(names.allTicks), publishing: positionedPublishing(names, true) }
  },
  'positioned, unacknowledged': async (names) => {
    await addStoringStream(names)
    return { read: onSubject(names.allTicks), publishing: positionedPublishing(names, false) }
  },
}

async function measure(way: string, run: number) {
  const namespace = `intake${randomUUID().slice(0, 8)}`
  const names = busNames(namespace)
  const { read, publishing } = await ways[way]!(names)
  let received = 0
  const latency = latencyHistogram()
  const stop = read((row) => {
    received++
    const microseconds = microsecondsSinceStamp(row)
    if (microseconds !== undefined) latency.recordValue(Math.max(1, microseconds))
  })
  await subscriberConnection.flush()
  const publisher = new StampedTickPublisher(publishing ?? publisherConnection, namespace)
  progress(`run ${run}: ${way}, ${rate} ticks/s for ${measureMs / 1000} s`)
  const [cpuBefore, ownBefore, startedAt] = [totalCpuMs(serverPids), process.cpuUsage(), performance.now()]
  await publisher.run(rate, measureMs)
  await subscriberConnection.flush()
  const [cpuMs, elapsedMs] = [totalCpuMs(serverPids) - cpuBefore, performance.now() - startedAt]
  const own = process.cpuUsage(ownBefore)
  const { p50Ms, p99Ms } = summarize(latency)
  stop()
  publishing?.stop()
  const published = Math.floor((measureMs * rate) / 1000)
  // read before the way's namespace is cleared: a tick published at a position the stream did not take (none, for
  // the figures to hold)
  const refused = publishing ? published - (await jsm.streams.info(names.tickStream)).state.messages : 0
  // left on the server, the way's ticks would expire in the middle of a later way, measured as that way's cost
  await clearNamespace(nats.url, namespace)
  return {
    way,
    run,
    published,
    received,
    refused,
    'nats-server CPU %': Math.round((cpuMs / elapsedMs) * 1000) / 10,
    'nats-server µs per tick': Math.round((cpuMs * 1000) / published),
    'p50 ms': p50Ms,
    'p99 ms': p99Ms,
    // the publisher's share is the same for every way but those numbered at ingest: elsewhere a difference is the subscriber's
    'publisher and subscriber µs per tick': Math.round((own.user + own.system) / published),
  }
}

const rows: Array<Awaited<ReturnType<typeof measure>>> = []
for (let run = 1; run <= runs; run++) {
  // reversed every other run, so that no way always follows the same one
  const order = run % 2 === 1 ? Object.keys(ways) : Object.keys(ways).reverse()
  for (const way of order) rows.push(await measure(way, run))
}
printTable(rows)

const medians = Object.keys(ways).map((way) => {
  const mine = rows.filter((row) => row.way === way)
  return {
    way,
    'median nats-server CPU %': median(mine.map((row) => row['nats-server CPU %'])),
    'median µs per tick': median(mine.map((row) => row['nats-server µs per tick'])),
    'median p50 ms': median(mine.map((row) => row['p50 ms'])),
    'median p99 ms': median(mine.map((row) => row['p99 ms'])),
    'median publisher and subscriber µs per tick': median(mine.map((row) => row['publisher and subscriber µs per tick'])),
  }
})
console.log(`\nmedians of ${runs} runs at ${rate} ticks/s`)
printTable(medians)
await Promise.all([publisherConnection.close(), subscriberConnection.close()])
await nats.dispose()
writeFiguresWithLoad('bus-intake', { rate, measureMs, runs, rows, medians }, loadBefore)
