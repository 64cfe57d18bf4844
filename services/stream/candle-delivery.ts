import type { HttpResponse, TemplatedApp, WebSocket } from 'uWebSockets.js'
import type { Metrics } from '../../kit/metrics.ts'
import { OHLC_RESOLUTIONS, type OhlcResolution } from '../../schemas/ohlc.ts'
import { PAIRS } from '../../schemas/pairs.ts'
import type { CandleSubscription } from './candle-query.ts'
import { gapFrame } from './frames.ts'
import { heartbeatFrame } from './idle-heartbeat.ts'
import { endResponse, HEARTBEAT_COMMENT, sseEvent, startSseHeartbeat, writeChunk, type SseResponse } from './sse-response.ts'

/** The user data of one candle-stream socket. */
export interface CandleSocket {
  readonly requestId: string
  readonly budgetKey: string
  readonly subscription: CandleSubscription
  /** above the slow-client limit: off its topics until it drains */
  lagging: boolean
  /** while lagging: the frames published to its topics when it left them */
  lagBaseline: number
  /** set when the socket opens; undefined once it has closed */
  socket: WebSocket<CandleSocket> | undefined
}

/** One Server-Sent Events response of the candle stream. */
export interface CandleEventStream extends SseResponse {
  readonly requestId: string
  readonly budgetKey: string
  readonly subscription: CandleSubscription
  /** candle frames not written since it passed the slow-client limit, told in its next `gap` */
  dropped: number
}

export interface CandleDeliveryOptions {
  app: TemplatedApp
  /** above this many buffered bytes a client's candle frames are dropped */
  slowClientBytes: number
  metrics: Metrics
  /** an event stream's client went away (not called for responses ended by `endAll`) */
  onAborted(eventStream: CandleEventStream): void
}

/** A series is one pair's candles of one resolution; each has a topic. */
const seriesIndex = (pairId: number, resolution: OhlcResolution) => pairId * OHLC_RESOLUTIONS.length + OHLC_RESOLUTIONS.indexOf(resolution)
const TOPICS = PAIRS.flatMap((pair) => OHLC_RESOLUTIONS.map((resolution) => `candles:${resolution}:${pair.symbol}`))
/** never published to: a socket off its candle topics keeps what uWS still holds for it (see delivery.ts) */
const CONNECTION_TOPIC = 'candle-connection'

/**
 * Gets candle frames to candle-stream clients under the slow-client rule: each frame is encoded once and
 * published to its series' topic. Frames go out once a second, and just before, every socket with more than
 * `slowClientBytes` buffered leaves its topics: what is published to them meanwhile is counted, and when it
 * drains it gets a `gap` with that count and rejoins them. An event stream past the limit is skipped and
 * counted the same way until uWS reports it writable.
 */
export class CandleDelivery {
  private readonly sockets = new Set<CandleSocket>()
  private readonly eventStreams = new Set<CandleEventStream>()
  /** frames published per series */
  private readonly published = TOPICS.map(() => 0)
  private readonly sent
  private readonly keepAlive: NodeJS.Timeout

  constructor(private readonly options: CandleDeliveryOptions) {
    const frames = options.metrics.candleStreamFrames
    this.sent = {
      snapshot: frames.labels('snapshot'),
      candle: frames.labels('candle'),
      gap: frames.labels('gap'),
      heartbeat: frames.labels('heartbeat'),
    }
    this.keepAlive = startSseHeartbeat(() => [...this.eventStreams].filter((eventStream) => !this.isBehind(eventStream)))
  }

  get size(): number {
    return this.sockets.size + this.eventStreams.size
  }

  /** Sends a new socket its snapshot and starts its candles. */
  addSocket(connection: CandleSocket, snapshot: string): void {
    const socket = connection.socket!
    socket.send(snapshot, false, true)
    this.sent.snapshot.inc()
    socket.subscribe(CONNECTION_TOPIC)
    for (const topic of topicsOf(connection.subscription)) socket.subscribe(topic)
    this.sockets.add(connection)
  }

  removeSocket(connection: CandleSocket): void {
    this.sockets.delete(connection)
  }

  /** Takes over a response whose head has been written, sends its snapshot and starts its candles. */
  addEventStream(
    res: HttpResponse,
    fields: Pick<CandleEventStream, 'requestId' | 'budgetKey' | 'subscription'>,
    snapshot: string,
  ): CandleEventStream {
    const eventStream: CandleEventStream = { res, ...fields, held: 0, open: true, dropped: 0 }
    res.onAborted(() => {
      eventStream.open = false
      this.eventStreams.delete(eventStream)
      this.options.onAborted(eventStream)
    })
    res.onWritable(() => {
      if (this.isBehind(eventStream)) setImmediate(() => this.caughtUp(eventStream))
      return true
    })
    writeChunk(eventStream, sseEvent('snapshot', undefined, snapshot))
    this.sent.snapshot.inc()
    this.eventStreams.add(eventStream)
    return eventStream
  }

  /**
   * One turn's frames, in order. Each is encoded only when some client receives it: a turn where every series
   * changed has hundreds, and most series usually have no client.
   */
  publish(frames: readonly { pairId: number; resolution: OhlcResolution; encode: () => string }[]): void {
    if (frames.length === 0) return
    for (const connection of this.sockets) if (!connection.lagging) this.cutOffIfOver(connection)
    for (const { pairId, resolution, encode } of frames) {
      const series = seriesIndex(pairId, resolution)
      const topic = TOPICS[series]!
      // encoded at the first client that receives it, once for the sockets and the event streams
      let frame: string | undefined
      const encoded = () => (frame ??= encode())
      const receivers = this.options.app.numSubscribers(topic)
      if (receivers > 0) this.options.app.publish(topic, encoded(), false, false)
      this.sent.candle.inc(receivers)
      this.published[series]!++
      let event: Buffer | undefined
      for (const eventStream of this.eventStreams) {
        if (!wants(eventStream.subscription, series)) continue
        if (this.isBehind(eventStream)) {
          eventStream.dropped++
          continue
        }
        writeChunk(eventStream, (event ??= sseEvent('candle', undefined, encoded())))
        this.sent.candle.inc()
      }
    }
  }

  /** The socket's drain event: a lagging socket back under the limit gets its gap and rejoins its topics. */
  drained(connection: CandleSocket): void {
    const socket = connection.socket!
    if (!connection.lagging || socket.getBufferedAmount() > this.options.slowClientBytes) return
    connection.lagging = false
    const dropped = this.publishedTo(connection.subscription) - connection.lagBaseline
    if (dropped > 0) {
      socket.send(gapFrame(dropped))
      this.counted(dropped)
    }
    for (const topic of topicsOf(connection.subscription)) socket.subscribe(topic)
  }

  /**
   * Grows whenever a frame is published for the subscription (services/stream/idle-heartbeat.ts): a client
   * that is not dropping frames has been sent it.
   */
  activity(subscription: CandleSubscription): number {
    return this.publishedTo(subscription)
  }

  /** A heartbeat frame (`event: heartbeat` on an event stream); none while its frames are being dropped. */
  heartbeat(client: CandleSocket | CandleEventStream, time: number): void {
    if ('socket' in client) {
      const socket = client.socket
      if (!socket || client.lagging || socket.getBufferedAmount() > this.options.slowClientBytes) return
      socket.send(heartbeatFrame(time))
    } else {
      if (!client.open || this.isBehind(client)) return
      writeChunk(client, sseEvent('heartbeat', undefined, heartbeatFrame(time)))
    }
    this.sent.heartbeat.inc()
  }

  /** Shutdown: every socket is closed with 1001 and every event stream ended. */
  endAll(): number {
    clearInterval(this.keepAlive)
    const ended = this.size
    for (const connection of this.sockets) connection.socket?.end(1001, 'going away')
    for (const eventStream of this.eventStreams) endResponse(eventStream)
    this.eventStreams.clear()
    return ended
  }

  private cutOffIfOver(connection: CandleSocket): void {
    const socket = connection.socket!
    if (socket.getBufferedAmount() <= this.options.slowClientBytes) return
    connection.lagging = true
    connection.lagBaseline = this.publishedTo(connection.subscription)
    for (const topic of topicsOf(connection.subscription)) socket.unsubscribe(topic)
  }

  /** Past the limit, or owed a gap: its frames are dropped and counted. */
  private isBehind(eventStream: CandleEventStream): boolean {
    return eventStream.dropped > 0 || eventStream.held > this.options.slowClientBytes
  }

  /**
   * uWS has sent some of what it held: the gap (or a heartbeat comment) goes out, and once uWS takes a write
   * whole nothing is held any more and frames resume; until then they are counted for the next gap.
   */
  private caughtUp(eventStream: CandleEventStream): void {
    if (!eventStream.open) return
    const dropped = eventStream.dropped
    eventStream.dropped = 0
    writeChunk(eventStream, dropped > 0 ? sseEvent('gap', undefined, gapFrame(dropped)) : HEARTBEAT_COMMENT)
    if (dropped > 0) this.counted(dropped)
  }

  private counted(dropped: number): void {
    this.sent.gap.inc()
    this.options.metrics.candleStreamDroppedFrames.inc(dropped)
  }

  private publishedTo({ pairIds, resolution }: CandleSubscription): number {
    let sum = 0
    for (const pairId of pairIds) sum += this.published[seriesIndex(pairId, resolution)]!
    return sum
  }
}

function topicsOf({ pairIds, resolution }: CandleSubscription): string[] {
  return pairIds.map((pairId) => TOPICS[seriesIndex(pairId, resolution)]!)
}

const wants = ({ pairIds, resolution }: CandleSubscription, series: number) =>
  pairIds.some((pairId) => seriesIndex(pairId, resolution) === series)
