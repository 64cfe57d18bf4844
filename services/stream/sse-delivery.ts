import type { HttpResponse } from 'uWebSockets.js'
import type { Metrics } from '../../kit/metrics.ts'
import { compactTickFrame, type CompactTicks } from './compact-frames.ts'
import type { Arrival } from './fan-out.ts'
import { gapFrame, TickFrameWriter } from './frames.ts'
import { heartbeatFrame } from './idle-heartbeat.ts'
import { startLagCount, takeMissed, type LagCounted } from './lag-count.ts'
import { pairIdsOf, wantsPair, type PairFilter } from './pair-filter.ts'
import type { PublishedTicks } from './published-ticks.ts'
import { endResponse, HEARTBEAT_COMMENT, sseEvent, startSseHeartbeat, writeChunk, type SseResponse } from './sse-response.ts'
import type { FixedRate, StreamRate } from './stream-rate.ts'

/**
 * The events of the stream over Server-Sent Events, named by frame type: each WebSocket frame (with its cursor)
 * as `data`, the cursor as `id` (a static part has none). `t` and `static` are compact frames.
 */
export type EventType = 'snapshot' | 'tick' | 'gap' | 'resumed' | 'heartbeat' | 't' | 'static'

/** One Server-Sent Events response of the stream; while lagging, its missed ticks are counted (lag-count.ts). */
export interface SseConnection extends SseResponse, LagCounted {
  readonly requestId: string
  readonly budgetKey: string
  readonly filter: PairFilter
  /** its ticks are compact frames */
  readonly compact: boolean
  /** its resume sends each pair's latest tick only */
  readonly foldReplay: boolean
  /** while lagging, compact: it holds the static parts changed up to this change number (CompactTicks.changes) */
  staticsAfter: number
  /** `?heartbeat=`: a heartbeat event after this long with nothing sent */
  readonly heartbeatMs: number | undefined
  /** `?rate=` when not real time */
  readonly rate: FixedRate | undefined
  /** set once its first events are out and it receives ticks */
  live: boolean
  /** above the slow-client limit: no ticks until uWS reports it writable again */
  lagging: boolean
}

export interface SseDeliveryOptions {
  published: PublishedTicks
  /** the rate of these responses, which their heartbeat frames are counted by */
  rate: StreamRate
  slowClientBytes: number
  cursorOf(position: number): string
  /** the compact form of each tick these responses are sent, shared with the lane's WebSocket delivery */
  compact: CompactTicks
  metrics: Metrics
  /** the client went away (not called for responses ended by `endAll`) */
  onAborted(connection: SseConnection): void
}

/**
 * Gets the stream's events to Server-Sent Events responses, under the slow-client rule of the WebSocket: uWS
 * holds what a client does not read, and once more than `slowClientBytes` may be held for it, its ticks are
 * dropped and counted from the per-asset seq until uWS reports it writable, when a `gap` tells it how many.
 * Each tick's event is written once per format and shared by every response.
 */
export class SseDelivery {
  private readonly connections = new Set<SseConnection>()
  /** of them, the ones of compact frames, live or not: while any is open every tick is split, so that static changes are counted */
  private compactConnections = 0
  private readonly frames = new TickFrameWriter()
  private readonly keepAlive: NodeJS.Timeout

  constructor(private readonly options: SseDeliveryOptions) {
    this.keepAlive = startSseHeartbeat(() => [...this.connections].filter((connection) => connection.live && !connection.lagging))
  }

  get size(): number {
    return this.connections.size
  }

  /** Takes over a response whose head has been written (in its cork). */
  open(
    res: HttpResponse,
    fields: Pick<SseConnection, 'requestId' | 'budgetKey' | 'filter' | 'compact' | 'foldReplay' | 'heartbeatMs' | 'rate'>,
  ): SseConnection {
    const connection: SseConnection = { res, ...fields, staticsAfter: 0, live: false, lagging: false, lagBaseline: 0, held: 0, open: true }
    this.connections.add(connection)
    if (connection.compact) this.compactConnections++
    res.onAborted(() => {
      connection.open = false
      this.connections.delete(connection)
      if (connection.compact) this.compactConnections--
      if (connection.lagging) this.options.metrics.streamLaggingConnections.dec()
      this.options.onAborted(connection)
    })
    res.onWritable(() => {
      if (connection.lagging) setImmediate(() => this.caughtUp(connection))
      return true
    })
    return connection
  }

  /** One event; false (and nothing written) when the client has more than the slow-client limit held. */
  send(connection: SseConnection, type: EventType, cursor: string | undefined, frame: Buffer | string): boolean {
    if (connection.held > this.options.slowClientBytes) return false
    return writeChunk(connection, sseEvent(type, cursor, frame))
  }

  /**
   * Starts ticks; `missed` ticks of its filter published before now were not sent (a replay that stopped at the
   * limit; compact, every static part of its pairs is sent again with its gap).
   */
  start(connection: SseConnection, missed: number): void {
    connection.live = true
    if (missed > 0) this.cutOff(connection, missed, -1)
  }

  /** as Delivery.deliverTick */
  deliverTick(tick: Arrival, droppedBefore: number, conflated: boolean): void {
    if (this.connections.size === 0) return
    const cursor = this.options.cursorOf(tick.position)
    // full rows' event is written when a response first wants it
    let full: Buffer | undefined
    const compact = this.compactConnections > 0 ? this.compactEvents(tick, cursor) : undefined
    const gap = droppedBefore > 0 ? this.gapEvent(droppedBefore) : undefined
    for (const connection of this.connections) {
      if (!connection.live || connection.lagging || !wantsPair(connection.filter, tick.pairId)) continue
      if (connection.held > this.options.slowClientBytes) {
        const staticPending = connection.compact && compact!.staticEvent !== undefined
        this.cutOff(connection, 0, this.options.compact.changes - (staticPending ? 1 : 0))
        continue
      }
      if (gap && !(conflated && connection.filter === null)) writeChunk(connection, gap)
      if (!connection.compact) {
        writeChunk(connection, (full ??= sseEvent('tick', cursor, this.frames.write(tick.seq, tick.row, cursor))))
        continue
      }
      if (compact!.staticEvent) writeChunk(connection, compact!.staticEvent)
      writeChunk(connection, compact!.tickEvent)
    }
  }

  /** A heartbeat event (services/stream/idle-heartbeat.ts) with the cursor of the latest tick sent; none while lagging. */
  heartbeat(connection: SseConnection, time: number): void {
    if (!connection.live || connection.lagging) return
    const cursor = this.options.cursorOf(this.options.published.position)
    if (this.send(connection, 'heartbeat', cursor, heartbeatFrame(time, cursor)))
      this.options.metrics.streamFrames.labels('heartbeat', this.options.rate).inc()
  }

  /** A gap for the responses that receive every pair, before a batch of conflated ticks. */
  announceConflation(dropped: number): void {
    if (this.connections.size === 0) return
    const gap = this.gapEvent(dropped)
    for (const connection of this.connections)
      if (connection.live && !connection.lagging && connection.filter === null) writeChunk(connection, gap)
  }

  /** Ends every response (shutdown): an EventSource comes back with its Last-Event-ID. */
  endAll(): number {
    clearInterval(this.keepAlive)
    const ended = this.connections.size
    for (const connection of this.connections) endResponse(connection)
    this.connections.clear()
    this.compactConnections = 0
    return ended
  }

  private compactEvents(tick: Arrival, cursor: string): { staticEvent: Buffer | undefined; tickEvent: Buffer } {
    const { staticFrame, dynamic } = this.options.compact.of(tick)
    return {
      staticEvent: staticFrame === undefined ? undefined : sseEvent('static', undefined, staticFrame),
      tickEvent: sseEvent('t', cursor, compactTickFrame(tick.seq, tick.pairId, dynamic, cursor)),
    }
  }

  private gapEvent(dropped: number): Buffer {
    const cursor = this.options.cursorOf(this.options.published.position)
    return sseEvent('gap', cursor, gapFrame(dropped, cursor))
  }

  /**
   * Over the limit: no more ticks until uWS reports it writable; the published seq counts what it misses, and
   * `staticsAfter` the static parts it holds.
   */
  private cutOff(connection: SseConnection, missed: number, staticsAfter: number): void {
    connection.lagging = true
    startLagCount(connection, this.options.published, missed)
    connection.staticsAfter = staticsAfter
    this.options.metrics.streamLaggingConnections.inc()
  }

  /**
   * uWS has sent some of what it held: the gap (or a heartbeat) goes out, and when uWS takes it whole nothing
   * is held any more and ticks resume; otherwise the next writable event tries again.
   */
  private caughtUp(connection: SseConnection): void {
    if (!connection.open || !connection.lagging) return
    const dropped = takeMissed(connection, this.options.published)
    if (dropped > 0) {
      writeChunk(connection, this.gapEvent(dropped))
      this.options.metrics.streamDroppedTicks.inc(dropped)
    } else writeChunk(connection, HEARTBEAT_COMMENT)
    if (connection.compact) {
      const statics = this.options.compact.changedSince(connection.staticsAfter, pairIdsOf(connection.filter))
      for (const frame of statics) writeChunk(connection, sseEvent('static', undefined, frame))
      // sent: what may still be held is counted in `held`, and ticks wait for the next writable event if need be
      connection.staticsAfter = this.options.compact.changes
    }
    if (connection.held > this.options.slowClientBytes) return
    connection.lagging = false
    this.options.metrics.streamLaggingConnections.dec()
  }
}
