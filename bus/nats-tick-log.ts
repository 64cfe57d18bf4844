// The deployment's tick numbering on NATS. Ticks still go out on their core subjects; a JetStream stream over
// those subjects keeps them for the resume window and gives each its position (the stream sequence). The
// publisher gives each its per-pair seq in a header, and keeps it across its own restarts from the stream
// and from the latest-row bucket (a pair quiet for longer than the window has its last tick there only).
// The stream's creation time is the epoch: a stream deleted and made again numbers afresh, and cursors of the
// old one are recognisably foreign.
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  StorageType,
  type ConsumerMessages,
  type JetStreamManager,
  type StreamInfo,
} from '@nats-io/jetstream'
import { delay, headers, millis, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node'
import { PAIRS } from '../schemas/pairs.ts'
import { headerNumber, positiveWhole } from './header-numbers.ts'
import type { TickLog } from './price-bus.ts'
import type { ReadPositions } from './position-order.ts'
import type { BusNames } from './subjects.ts'
import { retriedAtStart } from '../kit/retried-at-start.ts'

/** The header holding a tick's per-pair seq (and the seq of a latest-row bucket entry). */
export const SEQ_HEADER = 'Price-Seq'

/** how long a consumer that failed waits before it is made again */
export const CONSUMER_RETRY_MS = 500
/**
 * Ticks asked for per pull (nats.js's default is 100, pulled again once 75 are pending: a pull request every 25
 * ticks, a third of the consumer's client cost at 2,500 ticks/s). A thousand rows are about 0.5 MB held.
 */
const PULL_BATCH_MESSAGES = 1_000
/**
 * How long one pull request waits (nats.js's default is 30 s). The server's idle heartbeats come at half of it,
 * and two missed make nats.js pull again and make the ordered consumer anew: when the node holding the consumer
 * is cut off while this client's own connection stays up, the edge's stream stalls about 5 s, not 30.
 */
const PULL_EXPIRES_MS = 5_000

export interface TickStreamOptions {
  /** how long the stream keeps a tick */
  windowSeconds: number
  /** copies JetStream keeps of the stream when it creates it */
  replicas: number
}

export interface TickStream {
  /** the stream's creation time, base 36 */
  epoch: string
  windowSeconds: number
  /** the stream republishes each tick it stores with its position, for the processes' tick intake */
  republishes: boolean
}

/** The tick stream's settings as it is created, but for its republish. */
export const tickStreamSettings = (names: BusNames, options: TickStreamOptions) => ({
  name: names.tickStream,
  subjects: [names.allTicks],
  max_age: nanos(options.windowSeconds * 1000),
  storage: StorageType.File,
  num_replicas: options.replicas,
})

/**
 * Opens the tick stream, creating it when it does not exist (an existing one keeps its own settings), and has it
 * republish each tick it stores on the numbered subjects. A server before 2.10 refuses to add that to an existing
 * stream (it can only be set at creation there): such a stream is followed with a consumer instead.
 */
export async function openTickStream(nc: NatsConnection, names: BusNames, options: TickStreamOptions): Promise<TickStream> {
  const republish = { src: names.allTicks, dest: names.numberedTickDestination }
  // jetstreamManager asks the server for the account's JetStream first: that request is retried too
  const jsm = await retriedAtStart(() => jetstreamManager(nc))
  const answer = await retriedAtStart(() =>
    jsm.streams.info(names.tickStream).catch(() => jsm.streams.add({ ...tickStreamSettings(names, options), republish })),
  )
  let info = await settledStreamInfo(jsm, names.tickStream, answer)
  // an update keeps the stream's creation time, and with it the epoch
  if (info.config.republish === undefined)
    info = await jsm.streams.update(names.tickStream, { ...info.config, republish }).catch(() => info)
  return {
    epoch: Date.parse(info.created).toString(36),
    windowSeconds: millis(info.config.max_age) / 1000,
    republishes: info.config.republish?.dest === republish.dest,
  }
}

/** How young a clustered stream is when its creation time is read twice before it is taken as the epoch. */
const YOUNG_STREAM_MS = 10_000
/** How long apart the two reads are: the transient answers seen ended within about 0.5 s of the creation. */
const SETTLE_MS = 500

/**
 * The stream's info, its creation time settled. On one server a stream is made in one step. On a cluster
 * (nats-server 2.9), when processes add the stream at once, an answer just after can carry a creation time other
 * than the one the stream keeps (seen 7 to 324 ms off; 21 ms in a cluster run, where that edge's cursors were then
 * foreign to the other edge), or Go's zero time (0001-01-01, once in 300 opens of the epoch test). A young
 * clustered stream, or one whose creation time is no instant since 1970, is read again until two reads agree.
 * `firstRead` is the answer to the info or the add request that opened the stream.
 */
export async function settledStreamInfo(
  jsm: { streams: Pick<JetStreamManager['streams'], 'info'> },
  name: string,
  firstRead: StreamInfo,
): Promise<StreamInfo> {
  const unsettled = (info: StreamInfo) => {
    const createdMs = Date.parse(info.created)
    return !(createdMs > 0) || (info.cluster !== undefined && Date.now() - createdMs < YOUNG_STREAM_MS)
  }
  let info = firstRead
  while (unsettled(info)) {
    await delay(SETTLE_MS)
    const again = await retriedAtStart(() => jsm.streams.info(name))
    if (again.created === info.created) break
    info = again
  }
  return info
}

/** The position of the last tick the tick stream holds. */
export async function lastPosition(nc: NatsConnection, names: BusNames): Promise<number> {
  return (await (await jetstreamManager(nc)).streams.info(names.tickStream)).state.last_seq
}

/**
 * Reads positions `from` to `to` of the tick stream with an ordered consumer; resolves after `to`, or after the
 * last tick the stream holds when that comes first.
 */
export function tickStreamReader(nc: NatsConnection, names: BusNames): ReadPositions {
  return async (from, to, each) => {
    const { state } = await (await jetstreamManager(nc)).streams.info(names.tickStream)
    const last = Math.min(to, state.last_seq)
    if (last < Math.max(from, state.first_seq)) return
    const consumer = await jetstream(nc).consumers.get(names.tickStream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: from,
    })
    let done = false
    const messages = await consumer.consume({
      max_messages: Math.min(PULL_BATCH_MESSAGES, last - from + 1),
      expires: PULL_EXPIRES_MS,
      callback(message) {
        if (done) return
        each({ pair: names.pairOfTickSubject(message.subject), row: message.data, position: message.seq, seq: seqOf(message.headers) })
        // the end of the range, or of what the stream holds (a tick of the range expired since the info above)
        if (message.seq >= last || message.info.pending === 0) done = true
        if (done) void messages.close()
      },
    })
    if (done) void messages.close()
    const failure = await messages.closed()
    if (failure) throw failure
  }
}

/** The numbered ticks as the tick stream holds them, read with an ordered consumer (a stream that does not republish). */
export function natsTickLog(nc: NatsConnection, names: BusNames, stream: { epoch: string; windowSeconds: number }): TickLog {
  return {
    ...stream,
    follow(handler, { after = 0 } = {}) {
      let stopped = false
      let current: ConsumerMessages | undefined
      // the position of the last tick handed over: a consumer made again (after a reconnection) starts after it
      let last = after
      const seqOfPair = perPairSeqs()
      const consume = async (lastAtStart: number, caughtUp: () => void) => {
        const js = jetstream(nc)
        while (!stopped) {
          try {
            const from =
              last === 0 ? { deliver_policy: DeliverPolicy.All } : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: last + 1 }
            // a callback, not the async iterator: the messages of one read from the socket are handed over in
            // one synchronous run, as a core subscription's are, so the stream's fan-out sends them as one batch
            // (the iterator hands over one per microtask turn)
            current = await (
              await js.consumers.get(names.tickStream, from)
            ).consume({
              max_messages: PULL_BATCH_MESSAGES,
              expires: PULL_EXPIRES_MS,
              callback(message) {
                const pair = names.pairOfTickSubject(message.subject)
                last = message.seq
                handler({ pair, row: message.data, seq: seqOfPair(pair, seqOf(message.headers)), position: message.seq })
                if (last >= lastAtStart) caughtUp()
              },
            })
            if (stopped) void current.close()
            await current.closed()
          } catch {
            // the server went away or the stream is being made again: try again shortly
          }
          if (!stopped) await delay(CONSUMER_RETRY_MS)
        }
      }
      // after a reconnection the server may have lost the consumer (a restarted server): a new one goes on from `last`
      void (async () => {
        for await (const status of nc.status()) if (status.type === 'reconnect') void current?.close()
      })()
      const ready = (async () => {
        const lastAtStart = await retriedAtStart(() => lastPosition(nc, names))
        await new Promise<void>((resolve) => {
          if (lastAtStart <= after) resolve()
          void consume(lastAtStart, resolve)
        })
      })()
      return {
        ready,
        stop() {
          stopped = true
          void current?.close()
        },
      }
    },
    latestSeqs: () => retriedAtStart(() => latestSeqs(nc, names)),
  }
}

/** Each pair's latest seq: the larger of its last tick in the stream and its latest-row bucket entry. */
export async function latestSeqs(nc: NatsConnection, names: BusNames): Promise<Map<string, number>> {
  const jsm = await jetstreamManager(nc)
  const seqs = new Map<string, number>()
  await Promise.all(
    PAIRS.map(async ({ symbol }) => {
      const [tick, stored] = await Promise.all([
        lastSeqOf(jsm, names.tickStream, names.tickSubject(symbol)),
        lastSeqOf(jsm, `KV_${names.latestPricesBucket}`, names.latestRowSubject(symbol)),
      ])
      const seq = Math.max(tick ?? 0, stored ?? 0)
      if (seq > 0) seqs.set(symbol, seq)
    }),
  )
  return seqs
}

async function lastSeqOf(jsm: JetStreamManager, stream: string, subject: string): Promise<number | undefined> {
  const message = await jsm.streams.getMessage(stream, { last_by_subj: subject })
  return message ? seqOf(message.header) : undefined
}

/** A tick's per-pair seq: its header's, or for a tick without one (a publisher that does not number) its pair's last + 1. */
export function perPairSeqs() {
  const seqs = new Map<string, number>()
  return (pair: string, header: number | undefined): number => {
    const seq = header ?? (seqs.get(pair) ?? 0) + 1
    seqs.set(pair, seq)
    return seq
  }
}

export function seqOf(header: MsgHdrs | undefined): number | undefined {
  return positiveWhole(header?.get(SEQ_HEADER))
}

/** a tick message's per-pair seq, read from its header bytes (as `seqOf`, without decoding every header) */
export const publishedSeqOf = headerNumber(SEQ_HEADER)

/** Numbers a publisher's ticks per pair, starting after the seqs it is given. */
export function tickNumbering(seeds: Map<string, number>) {
  const seqs = new Map(seeds)
  return {
    /** the header of the pair's next tick */
    next(pair: string): { seq: number; header: MsgHdrs } {
      const seq = (seqs.get(pair) ?? 0) + 1
      seqs.set(pair, seq)
      const header = headers()
      header.set(SEQ_HEADER, String(seq))
      return { seq, header }
    },
  }
}
