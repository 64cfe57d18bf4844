import type { PairFilter } from './pair-filter.ts'

/** One retained tick as `replayAfter` hands it over. */
export interface RetainedTick {
  pairId: number
  seq: number
  position: number
  row: Buffer
}

/** A retained tick with the seq of its pair's tick before it in the history (0: none), as `replayAfter` hands it over. */
export interface ReplayedTick extends RetainedTick {
  previousSeq: number
}

const INITIAL_CAPACITY = 1024
/** rows are copied into slabs of this size: a few large buffers instead of one object per tick for the collector */
const SLAB_BYTES = 4 * 1024 * 1024

/**
 * The ticks this edge has passed on, for the resume window, in position order: what a resuming client is
 * replayed from. Ticks conflated away from live connections under load are here too, so a resume replays
 * them. A ring of typed arrays that doubles when full, the rows' bytes copied into slabs; ticks older than
 * the window are let go as new ones come and whenever a resume asks, and a slab with none of them left goes
 * too, kept as the next slab to fill: memory the process has written before, where a fresh slab takes a page
 * fault for every 4 KB written (about 11 µs each on a paravirtualized guest, most of the history's cost per tick)
 * and adds to V8's count of external memory, which brings full collections forward. Memory is bounded by the
 * window times the tick rate, plus that slab: the row's bytes and 50 bytes per tick.
 * A row handed over (`replayAfter`, `rowAtOrBefore`) is a view into a slab: it is valid until the next append.
 */
export class TickHistory {
  private capacity = INITIAL_CAPACITY
  private pairIds = new Uint16Array(INITIAL_CAPACITY)
  private seqs = new Float64Array(INITIAL_CAPACITY)
  /** the seq of the same pair's tick appended before it (0: none): a jump from it is ticks this edge never had */
  private previousSeqs = new Float64Array(INITIAL_CAPACITY)
  private readonly lastSeqOfPair = new Map<number, number>()
  private positions = new Float64Array(INITIAL_CAPACITY)
  private times = new Float64Array(INITIAL_CAPACITY)
  /** where each row is: its slab's number, offset and length */
  private slabNumbers = new Float64Array(INITIAL_CAPACITY)
  private offsets = new Uint32Array(INITIAL_CAPACITY)
  private lengths = new Uint32Array(INITIAL_CAPACITY)
  /** the slabs still holding retained rows, oldest first; `firstSlab` is the number of slabs[0] */
  private readonly slabs: Buffer[] = []
  /** the last slab let go, to be filled again */
  private spareSlab: Buffer | undefined
  private firstSlab = 0
  private slabUsed = SLAB_BYTES
  private head = 0
  private count = 0
  /** every tick at or before this position has been let go (or was never seen by this edge) */
  private floor: number | undefined

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.count
  }

  append(tick: RetainedTick): void {
    const at = this.now()
    this.letGoBefore(at - this.windowMs)
    if (this.floor === undefined) this.floor = tick.position - 1
    if (this.count === this.capacity) this.grow()
    const index = (this.head + this.count) % this.capacity
    this.pairIds[index] = tick.pairId
    this.seqs[index] = tick.seq
    this.previousSeqs[index] = this.lastSeqOfPair.get(tick.pairId) ?? 0
    this.lastSeqOfPair.set(tick.pairId, tick.seq)
    this.positions[index] = tick.position
    this.times[index] = at
    this.store(index, tick.row)
    this.count++
  }

  /** True when every tick this edge sent after `position` is still here. */
  holdsAfter(position: number): boolean {
    this.letGoBefore(this.now() - this.windowMs)
    return this.floor === undefined ? position === 0 : position >= this.floor
  }

  /**
   * The retained ticks after `position` and up to `through` of the filter's pairs, oldest first, while `visit`
   * returns true; returns how many were left.
   */
  replayAfter(position: number, filter: PairFilter, visit: (tick: ReplayedTick) => boolean, through = Infinity): number {
    let index = this.firstAfter(position)
    let left = 0
    let visiting = true
    for (; index < this.count; index++) {
      const slot = (this.head + index) % this.capacity
      if (this.positions[slot]! > through) break
      const pairId = this.pairIds[slot]!
      if (filter !== null && !filter.has(pairId)) continue
      if (visiting) {
        const row = this.rowAt(slot)
        visiting = visit({ pairId, seq: this.seqs[slot]!, previousSeq: this.previousSeqs[slot]!, position: this.positions[slot]!, row })
        if (visiting) continue
      }
      left++
    }
    return left
  }

  /** The row of the pair's last retained tick at or before `position`; undefined when none is retained. */
  rowAtOrBefore(position: number, pairId: number): Buffer | undefined {
    for (let index = this.firstAfter(position) - 1; index >= 0; index--) {
      const slot = (this.head + index) % this.capacity
      if (this.pairIds[slot] === pairId) return this.rowAt(slot)
    }
    return undefined
  }

  /** the index (from the oldest) of the first tick after `position`: positions grow, so a binary search */
  private firstAfter(position: number): number {
    let low = 0
    let high = this.count
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.positions[(this.head + middle) % this.capacity]! <= position) low = middle + 1
      else high = middle
    }
    return low
  }

  private rowAt(slot: number): Buffer {
    const offset = this.offsets[slot]!
    return this.slabs[this.slabNumbers[slot]! - this.firstSlab]!.subarray(offset, offset + this.lengths[slot]!)
  }

  /** copies a row into the current slab (a new one when it does not fit) */
  private store(index: number, row: Buffer): void {
    if (this.slabUsed + row.length > SLAB_BYTES) {
      this.slabs.push(this.emptySlab(row.length))
      this.slabUsed = 0
    }
    row.copy(this.slabs.at(-1)!, this.slabUsed)
    this.slabNumbers[index] = this.firstSlab + this.slabs.length - 1
    this.offsets[index] = this.slabUsed
    this.lengths[index] = row.length
    this.slabUsed += row.length
  }

  private letGoBefore(time: number): void {
    while (this.count > 0 && this.times[this.head]! < time) {
      this.floor = this.positions[this.head]!
      this.head = (this.head + 1) % this.capacity
      this.count--
    }
    // slabs before the oldest retained row's hold nothing retained
    const oldestSlab = this.count > 0 ? this.slabNumbers[this.head]! : this.firstSlab + this.slabs.length - 1
    while (this.firstSlab < oldestSlab) {
      const slab = this.slabs.shift()!
      if (slab.length === SLAB_BYTES) this.spareSlab = slab
      this.firstSlab++
    }
  }

  /** a slab for rows from `rowBytes` on: the spare one when it has room, else a new one */
  private emptySlab(rowBytes: number): Buffer {
    const spare = this.spareSlab
    this.spareSlab = undefined
    return spare !== undefined && rowBytes <= SLAB_BYTES ? spare : Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, rowBytes))
  }

  private grow(): void {
    const capacity = this.capacity * 2
    this.pairIds = this.inOrder(this.pairIds, new Uint16Array(capacity))
    this.seqs = this.inOrder(this.seqs, new Float64Array(capacity))
    this.previousSeqs = this.inOrder(this.previousSeqs, new Float64Array(capacity))
    this.positions = this.inOrder(this.positions, new Float64Array(capacity))
    this.times = this.inOrder(this.times, new Float64Array(capacity))
    this.slabNumbers = this.inOrder(this.slabNumbers, new Float64Array(capacity))
    this.offsets = this.inOrder(this.offsets, new Uint32Array(capacity))
    this.lengths = this.inOrder(this.lengths, new Uint32Array(capacity))
    this.head = 0
    this.capacity = capacity
  }

  /** `next` with the retained entries of `array`, oldest first */
  private inOrder<T extends { [index: number]: unknown }>(array: T, next: T): T {
    for (let index = 0; index < this.count; index++) next[index] = array[(this.head + index) % this.capacity]
    return next
  }
}
