import type { NatsConnection } from '@nats-io/transport-node'
import { maskUrl } from '../kit/redaction.ts'
import { Kvm } from '@nats-io/kv'
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream'
import type { MsgHdrs } from '@nats-io/transport-node'
import type { Logger } from '../kit/logger.ts'
import { throttledWarning } from '../kit/throttled-warning.ts'
import { DEFAULT_RESUME_WINDOW_SECONDS, type PriceBus } from './price-bus.ts'
import { natsTickSubscriptions } from './nats-tick-subscriptions.ts'
import { natsTickIntake } from './nats-tick-intake.ts'
import { busNames } from './subjects.ts'
import { connectResiliently } from './nats-connection.ts'
import { latestRowReader, type UnansweredGets } from './latest-rows.ts'
import { latestSeqs, natsTickLog, openTickStream, tickNumbering } from './nats-tick-log.ts'
import { retriedAtStart } from '../kit/retried-at-start.ts'

export interface NatsPriceBusOptions {
  servers: string
  /** prefixes subjects and the bucket name; empty in production */
  namespace?: string
  /** connection name shown by the server, e.g. the process's roles */
  name: string
  /**
   * How often changed rows are written to the key-value bucket. Ticks go out on their subject at once;
   * the bucket only seeds starting edges, so it is written at most once per pair per interval.
   */
  latestWriteIntervalMs?: number
  /**
   * Copies of the latest-price bucket JetStream keeps (1 by default; 3 on a three-node cluster, so the bucket
   * outlives the loss of the node holding it). Applies when the bucket is created; an existing bucket keeps its own.
   */
  bucketReplicas?: number
  /** copies JetStream keeps of the tick stream; applies when it is created (the bucket's by default) */
  tickStreamReplicas?: number
  /** how long the tick stream keeps ticks for resuming clients; applies when the stream is created */
  resumeWindowSeconds?: number
  /**
   * this process publishes ticks (the ingestor): their per-pair seq continues from the deployment's at open.
   * A process that does not publishes nothing, and its `publishTick` numbers from zero (tests' publishers).
   */
  publishes?: boolean
  logger: Logger
}

/** Ticks on core NATS subjects (one per pair), the latest row per pair in a JetStream KV bucket. */
export async function natsPriceBus(options: NatsPriceBusOptions): Promise<PriceBus> {
  const names = busNames(options.namespace)
  const log = options.logger.child({ module: 'nats-price-bus' })
  const nc = await connectResiliently(options.servers, options.name, () =>
    log.warn('the NATS connection its pings found stale had not closed a second later (its writes wait on a cut link): closed at once'),
  )

  const bucket = await retriedAtStart(() =>
    new Kvm(nc).create(names.latestPricesBucket, { history: 1, replicas: options.bucketReplicas ?? 1 }),
  )
  const readLatest = latestRowReader(
    await retriedAtStart(() => jetstreamManager(nc)),
    names,
    (await retriedAtStart(() => bucket.status())).streamInfo.config.allow_direct,
    warnOfUnansweredGets(log),
  )
  const tickStream = await openTickStream(nc, names, {
    windowSeconds: options.resumeWindowSeconds ?? DEFAULT_RESUME_WINDOW_SECONDS,
    replicas: options.tickStreamReplicas ?? options.bucketReplicas ?? 1,
  })
  // without republish (a stream made before it, on a server before 2.10) the followers read the stream themselves
  const intake = tickStream.republishes ? natsTickIntake(nc, names, log) : undefined
  if (!intake)
    log.warn(
      { tickStream: names.tickStream },
      'the tick stream does not republish the ticks it stores (a server before 2.10 cannot add that to an existing stream): this process takes each tick twice, on its subject and from the stream; recreate the stream to take it once',
    )
  const numbering = tickNumbering(options.publishes ? await retriedAtStart(() => latestSeqs(nc, names)) : new Map<string, number>())
  const connection = watchConnection(nc, log)
  const latestWriter = coalescingLatestWriter(jetstream(nc), names.latestRowSubject, options.latestWriteIntervalMs ?? 250, log)
  log.info(
    { servers: maskUrl(options.servers), bucket: names.latestPricesBucket, tickStream: names.tickStream, epoch: tickStream.epoch },
    'connected to NATS',
  )
  const tickSubjects = new Map<string, string>()
  const tickLog = natsTickLog(nc, names, tickStream)

  return {
    kind: 'nats',
    publishTick(pair, row) {
      let subject = tickSubjects.get(pair)
      if (subject === undefined) tickSubjects.set(pair, (subject = names.tickSubject(pair)))
      const { header } = numbering.next(pair)
      nc.publish(subject, row, { headers: header })
      latestWriter.record(pair, row, header)
    },
    tickLog: intake ? { ...tickLog, follow: intake.follow } : tickLog,
    subscribeTicks: natsTickSubscriptions(nc, names, log, intake),
    readLatest,
    async flush() {
      await latestWriter.flush()
      await nc.flush()
    },
    isConnected: () => connection.connected,
    onConnectionChange: connection.onChange,
    async close() {
      await latestWriter.stop()
      await nc.drain()
    },
  }
}

function watchConnection(nc: NatsConnection, log: Logger) {
  const listeners = new Set<(connected: boolean) => void>()
  const state = { connected: true }
  const set = (connected: boolean) => {
    if (state.connected === connected) return
    state.connected = connected
    for (const listener of listeners) listener(connected)
  }
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        log.warn({ server: status.server }, 'NATS connection lost, reconnecting')
        set(false)
      } else if (status.type === 'reconnect') {
        log.info({ server: status.server }, 'NATS connection restored')
        set(true)
      }
    }
  })()
  void nc.closed().then(() => set(false))
  return {
    get connected() {
      return state.connected
    },
    onChange(listener: (connected: boolean) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

interface LatestRow {
  row: Uint8Array
  /** carries the row's per-pair seq, so a restarted publisher continues a quiet pair's numbering */
  header: MsgHdrs
}

/**
 * Writes the newest row per pair to the bucket on a timer; a failed write is retried on the next one. Rows go
 * to the bucket's subjects as a put would, with the seq header beside them (readers of the bucket see the row).
 */
function coalescingLatestWriter(js: JetStreamClient, subjectOf: (pair: string) => string, intervalMs: number, log: Logger) {
  // a NATS outage fails every pair's write at once, on every timer turn: one warning per window
  const warn = throttledWarning(log, 'latest-row writes failed, will retry')
  let pending = new Map<string, LatestRow>()
  let writing: Promise<void> = Promise.resolve()

  const writeBatch = async (): Promise<void> => {
    if (pending.size === 0) return
    const batch = pending
    pending = new Map()
    const results = await Promise.allSettled(
      [...batch].map(([pair, { row, header }]) => js.publish(subjectOf(pair), row, { headers: header })),
    )
    const failed: string[] = []
    let reason: unknown
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') return
      const [pair, latest] = [...batch][index]!
      if (!pending.has(pair)) pending.set(pair, latest)
      failed.push(pair)
      reason = result.reason
    })
    if (failed.length > 0) warn('latest-row', { pairs: failed.length, firstPair: failed[0], err: reason })
  }
  const writeNow = () => (writing = writing.then(writeBatch))
  const timer = setInterval(() => void writeNow(), intervalMs)
  timer.unref()

  return {
    record(pair: string, row: Uint8Array, header: MsgHdrs) {
      pending.set(pair, { row, header })
    },
    flush: () => writeNow(),
    async stop() {
      clearInterval(timer)
      await writeNow()
    },
  }
}

/** a read of the latest-value store that took only some pairs' rows is said once a minute, with the pairs it lacked */
function warnOfUnansweredGets(log: Logger) {
  const warn = throttledWarning(
    log,
    "some pairs' gets did not answer a read of the latest-value store: took the rows that answered; the next read asks for the rest again",
    60_000,
  )
  return ({ pairs, error }: UnansweredGets) => warn('latest-rows', { pairs: pairs.length, firstPair: pairs[0], err: error })
}
