import { PAIRS } from '../../schemas/pairs.ts'
import type { Arrival } from './fan-out.ts'
import { PublishedTicks } from './published-ticks.ts'

export interface RateWindowOptions {
  /** what fan-out has published so far: the window's connections start from the same rows */
  published: PublishedTicks
  windowMs: number
  /**
   * sends one pair's latest row of the window to the connections of this rate; `droppedBefore` ticks of the
   * pair never reached this edge (its gap)
   */
  deliver(tick: Arrival, droppedBefore: number): void
  /** a window's rows have gone out */
  ended(): void
}

/**
 * Folds fan-out's ticks into windows for the connections of one fixed rate: at each window's end, the latest
 * row of every pair that ticked in it goes out once, as an ordinary tick frame, in position order (so the last
 * frame's cursor is the window's latest). Its `seq` is the tick's own, so the jump from the pair's previous
 * row is the ticks folded into it. Folding is not a loss: no gap announces it. Ticks the edge itself never
 * received are a loss, and the row that follows them goes out after a gap that counts them; ticks fan-out
 * conflated while the process was behind were folded here anyway, and count as folded.
 *
 * `sent` is what this rate's connections have been sent, the counterpart of `PublishedTicks` for real-time
 * delivery: their snapshots, their slow-client gaps and their heartbeats are computed from it.
 */
export class RateWindow {
  readonly sent = new PublishedTicks()
  private readonly latest = new Array<Arrival | undefined>(PAIRS.length)
  /** per pair: ticks this edge never received, before the pending row */
  private readonly lost = new Float64Array(PAIRS.length)
  private changed: number[] = []
  private windows: { stop(): void } | undefined

  constructor(private readonly options: RateWindowOptions) {}

  /** Starts the windows from what fan-out has published so far (once the retained ticks are in). */
  start(): void {
    const { published } = this.options
    for (let pairId = 0; pairId < PAIRS.length; pairId++) {
      const row = published.rows[pairId]
      if (row) this.sent.record(pairId, published.seq[pairId]!, row, published.position)
    }
    this.sent.position = published.position
    this.windows = atWindowEnds(this.options.windowMs, () => this.endWindow())
  }

  /** A tick fan-out delivered (as `FanOutOptions.deliver` has it). */
  add(tick: Arrival, droppedBefore: number, conflated: boolean): void {
    const { pairId } = tick
    if (droppedBefore > 0 && !conflated) this.lost[pairId]! += droppedBefore
    if (this.latest[pairId] === undefined) this.changed.push(pairId)
    this.latest[pairId] = tick
  }

  stop(): void {
    this.windows?.stop()
  }

  /** Sends each changed pair's latest row, in position order, and records it as sent. */
  endWindow(): void {
    if (this.changed.length === 0) return
    const changed = this.changed
    this.changed = []
    const ticks = changed.map((pairId) => this.latest[pairId]!).sort((a, b) => a.position - b.position)
    for (const tick of ticks) {
      const { pairId, seq, row, position } = tick
      this.options.deliver(tick, this.lost[pairId]!)
      // recorded after delivery, so a connection cut off during it still counts this row as missed
      this.sent.record(pairId, seq, row, position)
      this.latest[pairId] = undefined
      this.lost[pairId] = 0
    }
    this.options.ended()
  }
}

/**
 * When the window open at `now` ends. Windows end on multiples of their length in wall-clock time, every edge's at
 * the same instants, so a client knows when the window of a row ended: the first at or after `now` at the start,
 * then the one after `previousEnd`, or, for a process too late for that one, the first after `now` (the late
 * window's rows go out there, folded with the next's).
 */
export function nextWindowEnd(windowMs: number, now: number, previousEnd?: number): number {
  if (previousEnd === undefined) return Math.ceil(now / windowMs) * windowMs
  return Math.max(previousEnd + windowMs, (Math.floor(now / windowMs) + 1) * windowMs)
}

/** Calls `end` at every window end (`nextWindowEnd`) until stopped, on a timer that does not keep the process up. */
export function atWindowEnds(windowMs: number, end: () => void): { stop(): void } {
  let timer: NodeJS.Timeout | undefined
  const endAt = (at: number) => {
    timer = setTimeout(() => {
      end()
      if (timer !== undefined) endAt(nextWindowEnd(windowMs, Date.now(), at))
    }, at - Date.now())
    timer.unref()
  }
  endAt(nextWindowEnd(windowMs, Date.now()))
  return {
    stop() {
      clearTimeout(timer)
      timer = undefined
    },
  }
}
