import type { TemplatedApp } from 'uWebSockets.js'
import type { Metrics } from '../../kit/metrics.ts'
import type { CompactTicks } from './compact-frames.ts'
import type { StreamConnection } from './connection.ts'
import type { Arrival } from './fan-out.ts'
import { gapFrame } from './frames.ts'
import { heartbeatFrame } from './idle-heartbeat.ts'
import { startLagCount, takeMissed } from './lag-count.ts'
import { pairIdsOf, wantsPair, type PairFilter } from './pair-filter.ts'
import type { PublishedTicks } from './published-ticks.ts'
import type { StreamRate } from './stream-rate.ts'
import { hasCursor, TickFrameVariants, VARIANTS, variantOf, VariantTopics, type TickFrames, type Variant } from './tick-variants.ts'
import { WindowBatches } from './window-batches.ts'

/**
 * Every socket stays subscribed to this topic, which is never published to: uWebSockets.js frees a
 * socket's subscriber record when it leaves its last topic, and with it any frames still queued for it.
 */
const CONNECTION_TOPIC = 'connection'
/** uWebSockets.js queues at most this many published frames per socket before writing them out */
export const TOPIC_QUEUE_FRAMES = 32
/**
 * At real time a batch holding this many bytes goes out before the next tick is added: uWS may hold 32 frames queued
 * for a socket of a topic, so a batch topic's connections stay shared only while 32 batches, and what a scan lets
 * through, fit under the slow-client limit (at 64 KiB none would), and no client must hold a huge frame. A fixed
 * rate's window is one batch: with full rows it leaves no such headroom, so its connections get a send each.
 */
const REAL_TIME_BATCH_BYTES = 16 * 1024

export interface DeliveryOptions {
  app: TemplatedApp
  /** what this delivery's connections have been sent: fan-out's ticks, or a fixed rate's windows */
  published: PublishedTicks
  /** the rate of this delivery's connections: its topics are its own, and its frames are counted by it */
  rate: StreamRate
  /** above this many buffered bytes a connection's ticks are dropped */
  slowClientBytes: number
  /** the cursor of a position */
  cursorOf(position: number): string
  /**
   * Whether ticks are sent compressed to the sockets that negotiated permessage-deflate; snapshots always are.
   * uWebSockets.js ignores the flag for the other sockets, which get the same bytes. Gaps and replies are too
   * short to gain from it.
   */
  compressTicks: boolean
  /** the compact form of each tick this delivery's connections are sent, shared with the lane's event streams */
  compact: CompactTicks
  metrics: Metrics
}

/**
 * Gets frames to connections and keeps the slow-client rule exact (spec 6.3): a tick is dropped for a
 * connection exactly when more than `slowClientBytes` are buffered for it, and the next frame it
 * receives is a `gap` with the number dropped.
 *
 * Most connections are `shared`: each tick is one publish to a topic, whatever the number of sockets.
 * A full scan of buffered amounts runs every `slowClientBytes / 8` published bytes; a connection that
 * could reach the limit before the next scan (counting what uWS may still hold queued for it) moves to
 * `direct`, where each tick checks its buffer before sending; above the limit it becomes `lagging` and
 * costs nothing per tick: what it missed is the published seq summed over its filter now, minus the same
 * sum when it stopped. Its drain event brings it back.
 *
 * A tick's frame is written once per variant (tick-variants.ts) that some connection receives, and shared:
 * full rows without the cursor (every connection's, as the spec has it), and as connections opted in, with
 * it, compact, or both. A compact connection that lagged is sent the static parts that changed meanwhile
 * before its ticks resume.
 *
 * With `batch=true` a connection gets a window's frames (real time: the ticks sent together) in one `batch`
 * frame: the batch of every pair is one publish to its kind's batch topic for the connections of every pair that
 * are `shared`, and a send of its own for each filtered one, or one close to the limit (`batched`), whose buffer
 * is checked first.
 *
 * There is one delivery per rate (rate-lanes.ts), each with topics of its own: real time's gets fan-out's
 * ticks, a fixed rate's the rows of its windows, and `published` is what its connections have been sent.
 */
export class Delivery {
  private readonly shared = new Set<StreamConnection>()
  private readonly direct = new Set<StreamConnection>()
  private readonly batched = new Set<StreamConnection>()
  private readonly lagging = new Set<StreamConnection>()
  private readonly scanEveryBytes: number
  private bytesSinceScan = 0
  private largestTopicFrame = 0
  private largestBatchFrame = 0
  /** connections held, per variant */
  private readonly inUse = [0, 0, 0, 0]
  /** of them, the ones that asked for `batch=true` */
  private readonly batchedInUse = [0, 0, 0, 0]
  private readonly windowBatches = new WindowBatches()
  private readonly frames: TickFrameVariants
  private readonly sentFrames
  private readonly topics: VariantTopics
  /** a batch this long goes out before the next tick is added */
  private readonly batchBytes: number

  constructor(private readonly options: DeliveryOptions) {
    this.topics = new VariantTopics(options.rate)
    this.batchBytes = options.rate === 'real_time' ? REAL_TIME_BATCH_BYTES : Infinity
    this.scanEveryBytes = Math.floor(options.slowClientBytes / 8)
    this.frames = new TickFrameVariants(options.compact, options.cursorOf)
    const frames = options.metrics.streamFrames
    this.sentFrames = {
      snapshot: frames.labels('snapshot', options.rate),
      tick: frames.labels('tick', options.rate),
      gap: frames.labels('gap', options.rate),
      reply: frames.labels('reply', options.rate),
      static: frames.labels('static', options.rate),
      heartbeat: frames.labels('heartbeat', options.rate),
      batch: frames.labels('batch', options.rate),
    }
  }

  /** Whether some connection held asked for `batch=true`: then each tick's frames are kept for the batches. */
  private get anyBatched(): boolean {
    return this.batchedInUse.some((count) => count > 0)
  }

  get size(): number {
    return this.shared.size + this.direct.size + this.batched.size + this.lagging.size
  }

  *connections(): Iterable<StreamConnection> {
    yield* this.shared
    yield* this.direct
    yield* this.batched
    yield* this.lagging
  }

  /** What is buffered in the server for every connection together. */
  bufferedBytes(): number {
    let bytes = 0
    for (const connection of this.connections()) bytes += connection.socket!.getBufferedAmount()
    return bytes
  }

  /** Sends a new connection its snapshot and starts delivering ticks to it. */
  add(connection: StreamConnection, snapshot: Buffer): void {
    connection.socket!.send(snapshot, false, true)
    this.sentFrames.snapshot.inc()
    this.start(connection, 0)
  }

  /**
   * Starts delivering ticks to a connection that has had its first frames (a resume's replay); `missed`
   * ticks of its filter published before now were not among them (the slow-client limit stopped the replay):
   * it starts lagging, and its gap counts them (and, compact, every static part of its pairs is sent again).
   */
  start(connection: StreamConnection, missed: number): void {
    connection.socket!.subscribe(CONNECTION_TOPIC)
    this.inUse[variantOf(connection)]!++
    if (connection.batched) this.batchedInUse[variantOf(connection)]!++
    if (missed === 0) return this.place(connection)
    this.lagging.add(connection)
    connection.mode = 'lagging'
    startLagCount(connection, this.options.published, missed)
    connection.staticsAfter = -1
    this.options.metrics.streamLaggingConnections.inc()
  }

  remove(connection: StreamConnection): void {
    const held =
      this.shared.delete(connection) || this.direct.delete(connection) || this.batched.delete(connection) || this.lagging.has(connection)
    if (this.lagging.delete(connection)) this.options.metrics.streamLaggingConnections.dec()
    if (!held) return
    this.inUse[variantOf(connection)]!--
    if (connection.batched) this.batchedInUse[variantOf(connection)]!--
  }

  /**
   * One tick frame for every connection that wants its pair. `droppedBefore` ticks of the pair were
   * missed just before it: conflated away (`conflated`: connections that receive every pair have already
   * been told in `announceConflation`, the others are told here) or never received by this edge (every
   * connection of the pair is told here), before the frame.
   */
  deliverTick(tick: Arrival, droppedBefore: number, conflated: boolean): void {
    // a fixed rate's lane gets every window's rows whether or not a connection holds that rate
    if (this.size === 0) return
    const anyBatched = this.anyBatched
    // a full batch goes out before this tick's frames are written: its ticks, and no other, are recorded by now
    if (anyBatched && this.windowBatches.largestBytes >= this.batchBytes) this.endWindow()
    if (anyBatched && this.windowBatches.empty) this.windowBatches.changesAtStart = this.options.compact.changes
    const written: Array<TickFrames | undefined> = VARIANTS.map((variant) =>
      this.inUse[variant]! > 0 ? this.frames.write(tick, variant) : undefined,
    )
    let longest = 0
    for (const frames of written) if (frames) longest = Math.max(longest, frames.tick.length + (frames.staticFrame?.length ?? 0))
    if (this.bytesSinceScan + longest > this.scanEveryBytes) this.scan()
    const gapToAll = droppedBefore > 0 && !conflated
    for (const variant of VARIANTS) {
      const frames = written[variant]
      if (!frames) continue
      const topic = this.topics.pair(variant, tick.pairId)
      const everyPair = this.topics.everyPair(variant)
      if (droppedBefore > 0) this.publish(topic, this.gapFor(variant, droppedBefore), droppedBefore)
      if (gapToAll) this.publish(everyPair, this.gapFor(variant, droppedBefore), droppedBefore)
      if (frames.staticFrame) {
        this.publish(everyPair, frames.staticFrame, 0, this.sentFrames.static)
        this.publish(topic, frames.staticFrame, 0, this.sentFrames.static)
      }
      this.publish(everyPair, frames.tick)
      this.publish(topic, frames.tick)
    }
    for (const connection of this.direct) {
      if (wantsPair(connection.filter, tick.pairId)) this.sendDirect(connection, written[variantOf(connection)]!, droppedBefore)
    }
    if (anyBatched) this.keepForBatches(tick, written, droppedBefore)
  }

  /**
   * A fixed rate's window (real time: the ticks sent together, or 16 KiB of them) has sent its rows: the batched
   * connections of every pair that are far from the limit get them in one publish to their kind's batch topic;
   * each other batched connection in one frame of its own, when it is within the limit; otherwise it starts
   * lagging, having missed the window's ticks of its pairs.
   */
  endWindow(): void {
    // nothing kept (no batched connection, or no tick since the last batch): real time asks after every read
    if (this.windowBatches.empty) return
    for (const variant of VARIANTS) {
      const topic = this.topics.batches(variant)
      if (this.options.app.numSubscribers(topic) === 0) continue
      const frame = this.windowBatches.frameFor(variant, null)
      if (frame === undefined) continue
      if (this.bytesSinceScan + frame.length > this.scanEveryBytes) this.scan()
      this.publish(topic, frame, 0, this.sentFrames.batch)
    }
    for (const connection of this.batched) {
      const frame = this.windowBatches.frameFor(variantOf(connection), connection.filter)
      if (frame === undefined) continue
      if (connection.socket!.getBufferedAmount() > this.options.slowClientBytes) {
        this.cutOff(connection, this.windowBatches.seqMovedOver(connection.filter), this.windowBatches.changesAtStart)
        continue
      }
      connection.socket!.send(frame, false, this.options.compressTicks)
      this.sentFrames.batch.inc()
    }
    this.windowBatches.clear()
  }

  /** A row of a fixed rate's window, kept for the batched connections of each kind that has some. */
  private keepForBatches(tick: Arrival, written: Array<TickFrames | undefined>, droppedBefore: number): void {
    this.windowBatches.seqMovedBy(tick.pairId, tick.seq - this.options.published.seq[tick.pairId]!)
    for (const variant of VARIANTS) {
      const frames = written[variant]
      if (this.batchedInUse[variant] === 0 || !frames) continue
      const gap = droppedBefore > 0 ? [this.gapFor(variant, droppedBefore)] : []
      this.windowBatches.add(variant, tick.pairId, [...gap, ...(frames.staticFrame ? [frames.staticFrame] : []), frames.tick])
    }
  }

  /** One gap, for every shared connection that receives every pair, before a batch of conflated ticks. */
  announceConflation(dropped: number): void {
    for (const variant of VARIANTS)
      if (this.inUse[variant]! > 0) this.publish(this.topics.everyPair(variant), this.gapFor(variant, dropped), dropped)
  }

  /** A reply to a client message; a `gap` goes first if ticks were dropped since the last frame. */
  reply(connection: StreamConnection, frame: string): void {
    const socket = connection.socket!
    if (connection.mode === 'lagging') {
      const dropped = takeMissed(connection, this.options.published)
      if (dropped > 0) this.sendGap(connection, dropped)
    }
    socket.send(frame)
    this.sentFrames.reply.inc()
    if (connection.mode === 'shared' && !this.hasHeadroom(connection)) this.toDirect(connection)
  }

  /**
   * A heartbeat frame (services/stream/idle-heartbeat.ts), with the cursor of the latest tick sent when the
   * connection carries cursors; none for a lagging connection, which is not reading, nor past the limit.
   */
  heartbeat(connection: StreamConnection, time: number): void {
    const socket = connection.socket!
    if (connection.mode === 'lagging' || socket.getBufferedAmount() > this.options.slowClientBytes) return
    const cursor = connection.withCursor ? this.options.cursorOf(this.options.published.position) : undefined
    socket.send(heartbeatFrame(time, cursor))
    this.sentFrames.heartbeat.inc()
  }

  /** Applies an accepted filter change to the connection's delivery. */
  changeFilter(connection: StreamConnection, next: PairFilter): void {
    const previous = connection.filter
    connection.filter = next
    // a compact connection has the static parts of its pairs only: added ones come before their first tick
    if (connection.compact) {
      for (const pairId of pairIdsOf(next)) {
        const frame = previous?.has(pairId) === false ? this.options.compact.publishedStatic(pairId) : undefined
        if (frame) this.sendStatic(connection, frame)
      }
    }
    if (connection.mode === 'shared') {
      const before = this.topicsOf(connection, previous)
      const after = this.topicsOf(connection, next)
      for (const topic of after) if (!before.includes(topic)) connection.socket!.subscribe(topic)
      for (const topic of before) if (!after.includes(topic)) connection.socket!.unsubscribe(topic)
      // a filtered batched connection has its own batches: it has left the batch topic
      if (!this.canShare(connection)) this.toDirect(connection)
    } else if (connection.mode === 'lagging') {
      // keeps the count missed so far: added pairs start counting now, removed ones stop
      connection.lagBaseline += this.options.published.sumOver(next) - this.options.published.sumOver(previous)
    }
  }

  /** The socket's drain event: a lagging connection that is back under the limit gets its gap and resumes. */
  drained(connection: StreamConnection): void {
    if (connection.mode !== 'lagging' || connection.socket!.getBufferedAmount() > this.options.slowClientBytes) return
    this.lagging.delete(connection)
    this.options.metrics.streamLaggingConnections.dec()
    const dropped = takeMissed(connection, this.options.published)
    if (dropped > 0) this.sendGap(connection, dropped)
    if (connection.compact) {
      for (const frame of this.options.compact.changedSince(connection.staticsAfter, pairIdsOf(connection.filter)))
        this.sendStatic(connection, frame)
    }
    this.place(connection)
  }

  /** A frame to a topic's subscribers; `dropped` is set when it is a gap frame, `counter` when it is not a tick. */
  private publish(topic: string, frame: Buffer | string, dropped = 0, counter = this.sentFrames.tick): void {
    const { app } = this.options
    if (!app.publish(topic, frame, false, dropped === 0 && this.options.compressTicks)) return
    // a frame given as a string is ASCII (gaps, compact ticks) or nearly so (a static part): its length stands for its size
    this.bytesSinceScan += frame.length
    // what uWS may hold queued for a subscriber is counted in frames of its topics' kind: ticks, or batches
    if (counter === this.sentFrames.batch) this.largestBatchFrame = Math.max(this.largestBatchFrame, frame.length)
    else this.largestTopicFrame = Math.max(this.largestTopicFrame, frame.length)
    const receivers = app.numSubscribers(topic)
    if (dropped > 0) {
      this.sentFrames.gap.inc(receivers)
      this.options.metrics.streamDroppedTicks.inc(receivers * dropped)
    } else {
      counter.inc(receivers)
    }
  }

  private sendDirect(connection: StreamConnection, frames: TickFrames, droppedBefore: number): void {
    const socket = connection.socket!
    if (socket.getBufferedAmount() > this.options.slowClientBytes) {
      // the tick is not recorded yet: the count from now includes it, and its static part when it changed one
      return this.cutOff(connection, 0, this.options.compact.changes - (frames.staticFrame !== undefined ? 1 : 0))
    }
    socket.cork(() => {
      if (droppedBefore > 0) this.sendGap(connection, droppedBefore)
      if (frames.staticFrame) this.sendStatic(connection, frames.staticFrame)
      socket.send(frames.tick, false, this.options.compressTicks)
    })
    this.sentFrames.tick.inc()
  }

  private sendGap(connection: StreamConnection, dropped: number): void {
    connection.socket!.send(this.gapFor(variantOf(connection), dropped))
    this.sentFrames.gap.inc()
    this.options.metrics.streamDroppedTicks.inc(dropped)
  }

  private sendStatic(connection: StreamConnection, frame: string): void {
    connection.socket!.send(frame, false, this.options.compressTicks)
    this.sentFrames.static.inc()
  }

  /** A gap's cursor is the latest tick's sent before it: everything up to it was received or counted. */
  private gapFor(variant: Variant, dropped: number): string {
    return hasCursor(variant) ? gapFrame(dropped, this.options.cursorOf(this.options.published.position)) : gapFrame(dropped)
  }

  /**
   * Over the limit: no more ticks until it drains; the published seq counts what it misses, from `missed` already
   * recorded, and it holds the static parts changed up to `staticsAfter` (compact).
   */
  private cutOff(connection: StreamConnection, missed: number, staticsAfter: number): void {
    this.direct.delete(connection)
    this.batched.delete(connection)
    this.lagging.add(connection)
    connection.mode = 'lagging'
    startLagCount(connection, this.options.published, missed)
    connection.staticsAfter = staticsAfter
    this.options.metrics.streamLaggingConnections.inc()
  }

  /** Moves connections between shared and direct delivery by what is buffered for them now. */
  private scan(): void {
    this.bytesSinceScan = 0
    for (const connection of this.shared) if (!this.hasHeadroom(connection)) this.toDirect(connection)
    for (const connection of this.direct) if (this.hasHeadroom(connection)) this.toShared(connection)
    for (const connection of this.batched) if (this.canShare(connection)) this.toShared(connection)
  }

  /** True when the connection cannot pass the limit before the next scan even if it reads nothing. */
  private hasHeadroom(connection: StreamConnection): boolean {
    const largestFrame = connection.batched ? this.largestBatchFrame : this.largestTopicFrame
    const worstCase = connection.socket!.getBufferedAmount() + TOPIC_QUEUE_FRAMES * largestFrame + this.scanEveryBytes
    return worstCase <= this.options.slowClientBytes
  }

  /** Whether the connection may be on topics now: a batched one only when it takes every pair (one batch for all). */
  private canShare(connection: StreamConnection): boolean {
    return (!connection.batched || connection.filter === null) && this.hasHeadroom(connection)
  }

  /** The topics of a connection's kind and `filter`: a batched one's batch topic, when it takes every pair. */
  private topicsOf(connection: StreamConnection, filter = connection.filter): string[] {
    if (!connection.batched) return this.topics.of(filter, variantOf(connection))
    return filter === null ? [this.topics.batches(variantOf(connection))] : []
  }

  private place(connection: StreamConnection): void {
    if (this.canShare(connection)) this.toShared(connection)
    else this.toDirect(connection)
  }

  private toShared(connection: StreamConnection): void {
    for (const topic of this.topicsOf(connection)) connection.socket!.subscribe(topic)
    this.direct.delete(connection)
    this.batched.delete(connection)
    this.shared.add(connection)
    connection.mode = 'shared'
  }

  /** Off the topics: each tick (batched: each batch) sent to it alone, after its buffer is checked. */
  private toDirect(connection: StreamConnection): void {
    if (this.shared.delete(connection)) for (const topic of this.topicsOf(connection)) connection.socket!.unsubscribe(topic)
    if (connection.batched) {
      this.batched.add(connection)
      connection.mode = 'batched'
    } else {
      this.direct.add(connection)
      connection.mode = 'direct'
    }
  }
}
