import type { TemplatedApp } from 'uWebSockets.js'
import type { Metrics } from '../../kit/metrics.ts'
import { CompactTicks } from './compact-frames.ts'
import { Delivery } from './delivery.ts'
import type { Arrival } from './fan-out.ts'
import type { PublishedTicks } from './published-ticks.ts'
import { RateWindow } from './rate-window.ts'
import { SnapshotCache } from './snapshot-cache.ts'
import { SseDelivery, type SseConnection } from './sse-delivery.ts'
import { FIXED_RATES, windowMsOf, type FixedRate, type StreamRate } from './stream-rate.ts'

/** The connections of one rate: what they have been sent, and how frames reach them over either protocol. */
export interface Lane {
  rate: StreamRate
  /** what the lane's connections have been sent: their snapshots, gaps and heartbeat cursors come from it */
  published: PublishedTicks
  delivery: Delivery
  sse: SseDelivery
  snapshots: SnapshotCache
}

export interface StreamLanesOptions {
  app: TemplatedApp
  /** what fan-out has published: the real-time lane's */
  published: PublishedTicks
  slowClientBytes: number
  cursorOf(position: number): string
  compressTicks: boolean
  /** a row that is not a price row, split for the compact connections of one lane or more (told once per row) */
  malformedRow(pairId: number, error: unknown): void
  metrics: Metrics
  /** an event stream's client went away */
  onAborted(connection: SseConnection): void
  /** a fixed rate's window has sent its rows */
  onWindowEnd(): void
}

/**
 * One lane per rate (services/stream/stream-rate.ts). The real-time lane gets fan-out's ticks as they come;
 * each fixed rate's lane gets them folded by its RateWindow, and has topics of its own, so each window's
 * frames are written once per kind (full or compact, with or without the cursor) and published once per rate,
 * never per connection. Each lane splits its rows for compact frames against what its own connections have
 * been sent, so a fixed rate's static frames follow the rows it sends, not fan-out's.
 */
export class StreamLanes {
  readonly realTime: Lane
  private readonly fixed = new Map<FixedRate, Lane & { window: RateWindow }>()

  constructor(options: StreamLanesOptions) {
    // each lane splits the rows it sends: a row one lane found malformed is not told again by the next
    const malformedRows = new WeakSet<Buffer>()
    const malformedRow = (pairId: number, error: unknown, row: Buffer) => {
      if (malformedRows.has(row)) return
      malformedRows.add(row)
      options.malformedRow(pairId, error)
    }
    const lane = (rate: StreamRate, published: PublishedTicks): Lane => {
      const compact = new CompactTicks(published, malformedRow)
      const shared = {
        rate,
        published,
        slowClientBytes: options.slowClientBytes,
        cursorOf: options.cursorOf,
        compact,
        metrics: options.metrics,
      }
      return {
        rate,
        published,
        delivery: new Delivery({
          ...shared,
          app: options.app,
          compressTicks: options.compressTicks,
        }),
        sse: new SseDelivery({ ...shared, onAborted: options.onAborted }),
        snapshots: new SnapshotCache(published),
      }
    }
    this.realTime = lane('real_time', options.published)
    for (const rate of FIXED_RATES) {
      const window: RateWindow = new RateWindow({
        published: options.published,
        windowMs: windowMsOf(rate),
        deliver: (tick, droppedBefore) => {
          fixedLane.delivery.deliverTick(tick, droppedBefore, false)
          fixedLane.sse.deliverTick(tick, droppedBefore, false)
        },
        ended: () => {
          fixedLane.delivery.endWindow()
          options.onWindowEnd()
        },
      })
      const fixedLane = { ...lane(rate, window.sent), window }
      this.fixed.set(rate, fixedLane)
    }
  }

  /** The lane of a connection's rate (undefined: real time). */
  of(rate: FixedRate | undefined): Lane {
    return rate === undefined ? this.realTime : this.fixed.get(rate)!
  }

  all(): Lane[] {
    return [this.realTime, ...this.fixed.values()]
  }

  /** Starts the fixed rates' windows from what fan-out has published (once the retained ticks are in). */
  start(): void {
    for (const { window } of this.fixed.values()) window.start()
  }

  /** fan-out's deliver: the real-time connections at once, the fixed rates' at their window's end */
  deliverTick(tick: Arrival, droppedBefore: number, conflated: boolean): void {
    this.realTime.delivery.deliverTick(tick, droppedBefore, conflated)
    this.realTime.sse.deliverTick(tick, droppedBefore, conflated)
    for (const { window } of this.fixed.values()) window.add(tick, droppedBefore, conflated)
  }

  /** conflation is a loss at real time only: a fixed rate folds those ticks anyway */
  announceConflation(dropped: number): void {
    this.realTime.delivery.announceConflation(dropped)
    this.realTime.sse.announceConflation(dropped)
  }

  /** fan-out has delivered ticks it sends together: the real-time connections with `batch=true` get them in one frame */
  sentTogether(): void {
    this.realTime.delivery.endWindow()
  }

  stop(): void {
    for (const { window } of this.fixed.values()) window.stop()
  }
}
