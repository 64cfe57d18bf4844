// One reader's numbered ticks in position order, from a live feed that may lose, repeat or swap ticks (a NATS
// reconnection, a slow consumer's dropped messages, a stream leader's change). The tick stream holds every tick,
// so whatever the live feed missed is read from it; nothing is handed over twice or out of order.

/** A tick as it arrives: its per-pair seq is the publisher's header, when it has one. */
export interface PositionedTick {
  pair: string
  row: Uint8Array
  position: number
  seq: number | undefined
}

/** Reads the ticks of positions `from` to `to` from the tick stream, handing each to `each` in order; those it no longer holds are skipped. */
export type ReadPositions = (from: number, to: number, each: (tick: PositionedTick) => void) => Promise<void>

/**
 * Live ticks held while the ticks before them are read, at most: about 5 MB of rows, 3 s of 3,500 ticks/s. A tick
 * beyond it is let go and read from the stream with the hole's other ticks.
 */
export const MAX_WAITING_TICKS = 10_000

export interface PositionOrderOptions {
  /** a read of the stream failed: it is tried again after `retryMs` */
  onReadError(error: unknown): void
  retryMs: number
  /**
   * How long a hole's reads may fail before the hole is given up (its ticks skipped, as the stream no longer holding
   * them would be): a JetStream without a meta leader (seen for 20 s after a partition healed) refuses the reads,
   * while the stream goes on storing and republishing, and the reader would otherwise hold every later tick.
   */
  giveUpAfterMs: number
  /** positions `from` to `to` were given up after their reads failed for `giveUpAfterMs` */
  onGivenUp(from: number, to: number): void
}

export class PositionOrder {
  /** the position of the last tick handed over */
  private last: number
  /** live ticks after a hole, by position, until the hole is read */
  private readonly waiting = new Map<number, PositionedTick>()
  /** the newest position known to exist that is neither handed over nor waiting: it is to be read */
  private readTo = 0
  /** while a read runs: the last position it covers (a live tick up to it is the read's to hand over) */
  private readingTo: number | undefined
  /** the read under way, if any */
  private reading: Promise<void> | undefined
  private stopped = false

  constructor(
    after: number,
    private readonly hand: (tick: PositionedTick) => void,
    private readonly read: ReadPositions,
    private readonly options: PositionOrderOptions,
  ) {
    this.last = after
  }

  /** the position of the last tick handed over */
  get position(): number {
    return this.last
  }

  /** A live tick: handed over now when it is the next, held while a hole before it is read, dropped when seen. */
  arrive(tick: PositionedTick): void {
    if (this.stopped) return
    if (tick.position <= Math.max(this.last, this.readingTo ?? 0)) return
    if (tick.position === this.last + 1 && this.readingTo === undefined) {
      this.handOver(tick)
      this.handWaiting()
      return
    }
    if (this.waiting.size < MAX_WAITING_TICKS) this.waiting.set(tick.position, tick)
    else this.readTo = Math.max(this.readTo, tick.position)
    void this.readHoles()
  }

  /** Reads every tick up to `position` (e.g. the stream's last at start or after a reconnection); resolves once handed over. */
  async catchUpTo(position: number): Promise<void> {
    this.readTo = Math.max(this.readTo, position)
    while (!this.stopped && this.last < position) await this.readHoles()
  }

  stop(): void {
    this.stopped = true
    this.waiting.clear()
  }

  private handOver(tick: PositionedTick) {
    this.last = tick.position
    this.hand(tick)
  }

  private handWaiting() {
    for (let next = this.waiting.get(this.last + 1); next; next = this.waiting.get(this.last + 1)) {
      this.waiting.delete(next.position)
      this.handOver(next)
    }
  }

  /** one read at a time: the positions before the lowest waiting tick, or up to `readTo` when none waits */
  private readHoles(): Promise<void> {
    this.reading ??= this.readUntilWhole().finally(() => {
      this.readingTo = undefined
      this.reading = undefined
    })
    return this.reading
  }

  private async readUntilWhole(): Promise<void> {
    let failingSince: number | undefined
    while (!this.stopped) {
      const to = this.waiting.size > 0 ? Math.min(...this.waiting.keys()) - 1 : this.readTo
      if (to <= this.last) return
      this.readingTo = to
      try {
        await this.read(this.last + 1, to, (tick) => {
          if (!this.stopped && tick.position > this.last && tick.position <= to) this.handOver(tick)
        })
        failingSince = undefined
      } catch (error) {
        this.options.onReadError(error)
        // one reading of the clock: a first failure is always tried again, however long the process was paused
        const now = Date.now()
        failingSince ??= now
        if (now - failingSince < this.options.giveUpAfterMs) {
          await new Promise((resolve) => setTimeout(resolve, this.options.retryMs))
          continue
        }
        failingSince = undefined
        this.options.onGivenUp(this.last + 1, to)
      }
      // what the stream no longer holds, or what could not be read in time, is skipped: the readers' per-pair
      // seqs show it as lost
      if (this.last < to) this.last = to
      this.readingTo = undefined
      this.handWaiting()
    }
  }
}
