// A fixed rate's window as one frame per connection (`?batch=true`): while the window's rows go out, the frames
// each pair is sent (a gap for real losses, a compact static part, the tick) are kept per kind of frame; at the
// window's end each batched connection gets those of its pairs, in the order they went out, joined into
// `{"type":"batch","frames":[...]}`. The frames inside are exactly those a connection without `batch` receives
// one by one, so seq, cursors, gaps and statics mean the same. The connections of every pair of one kind share
// one batch, written once per window.
import { PAIRS } from '../../schemas/pairs.ts'
import { wantsPair, type PairFilter } from './pair-filter.ts'
import { VARIANTS, type Variant } from './tick-variants.ts'

const BATCH_HEAD = Buffer.from('{"type":"batch","frames":[')
const COMMA = Buffer.from(',')
const BATCH_TAIL = Buffer.from(']}')

export class WindowBatches {
  /**
   * per kind: the frames of the window, each tick's with its pair, in the order they went out (copies: a tick
   * frame's buffer is reused by the next write)
   */
  private readonly sent: Array<Array<{ pairId: number; frames: Buffer[] }>> = VARIANTS.map(() => [])
  /** per kind: the bytes of its frames in this window, commas included */
  private readonly bytes = VARIANTS.map(() => 0)
  /** per kind: the batch of the connections of every pair, once written */
  private readonly everyPair: (Buffer | undefined)[] = VARIANTS.map(() => undefined)
  /** per pair: how far its seq moved in this window (the ticks folded into its row and those lost before it) */
  private readonly seqMoved = new Float64Array(PAIRS.length)
  private readonly moved: number[] = []
  /** the compact static parts' change number when the window's first frame was written */
  changesAtStart = 0

  get empty(): boolean {
    return this.moved.length === 0
  }

  /** The bytes of the largest kind's frames so far (a batch of every pair is about this long). */
  get largestBytes(): number {
    return Math.max(...this.bytes)
  }

  /** A pair's frames of this window for one kind, in the order a connection without `batch` would get them. */
  add(variant: Variant, pairId: number, frames: readonly (Buffer | string)[]): void {
    const copies = frames.map((frame) => Buffer.from(frame))
    this.sent[variant]!.push({ pairId, frames: copies })
    for (const copy of copies) this.bytes[variant]! += copy.length + 1
  }

  /** The pair's row of this window moved its seq by `by` from the previous row sent. */
  seqMovedBy(pairId: number, by: number): void {
    if (this.seqMoved[pairId] === 0) this.moved.push(pairId)
    this.seqMoved[pairId]! += by
  }

  /** The batch frame for a connection of this kind and filter; undefined when the window sent none of its pairs. */
  frameFor(variant: Variant, filter: PairFilter): Buffer | undefined {
    if (filter === null) return (this.everyPair[variant] ??= this.join(this.sent[variant]!))
    return this.join(this.sent[variant]!.filter(({ pairId }) => filter.has(pairId)))
  }

  /** The seq movement over a filter's pairs in this window: what a connection misses when its batch is not sent. */
  seqMovedOver(filter: PairFilter): number {
    let sum = 0
    for (const pairId of this.moved) if (wantsPair(filter, pairId)) sum += this.seqMoved[pairId]!
    return sum
  }

  /** The window has gone out: the next one starts empty. */
  clear(): void {
    for (const variant of VARIANTS) {
      this.sent[variant]!.length = 0
      this.bytes[variant] = 0
      this.everyPair[variant] = undefined
    }
    for (const pairId of this.moved) this.seqMoved[pairId] = 0
    this.moved.length = 0
  }

  private join(sent: ReadonlyArray<{ frames: Buffer[] }>): Buffer | undefined {
    if (sent.length === 0) return undefined
    const parts: Buffer[] = [BATCH_HEAD]
    for (const { frames } of sent) for (const frame of frames) parts.push(frame, COMMA)
    parts[parts.length - 1] = BATCH_TAIL
    return Buffer.concat(parts)
  }
}
