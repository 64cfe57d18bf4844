import { PAIRS } from '../../schemas/pairs.ts'
import { compactTickFrame, type CompactTicks } from './compact-frames.ts'
import type { Arrival } from './fan-out.ts'
import { TickFrameWriter } from './frames.ts'
import type { PairFilter } from './pair-filter.ts'
import type { StreamRate } from './stream-rate.ts'

/**
 * The kinds of tick frame a connection can receive: full rows (the spec's) or compact, each without or with
 * its cursor. Each kind has its own topics (every pair, and one per pair), and a tick's frame is written
 * once per kind that some connection receives.
 */
export type Variant = 0 | 1 | 2 | 3
export const VARIANTS: readonly Variant[] = [0, 1, 2, 3]

export const variantOf = (connection: { compact: boolean; withCursor: boolean }): Variant =>
  ((connection.compact ? 2 : 0) + (connection.withCursor ? 1 : 0)) as Variant

export const hasCursor = (variant: Variant): boolean => variant % 2 === 1
export const isCompact = (variant: Variant): boolean => variant >= 2

const KIND_TOPICS = ['ticks', 'cursor-ticks', 'compact', 'compact-cursor']

/**
 * The topics of one delivery, per kind: one for the connections that receive every pair (`ticks`,
 * `cursor-ticks`, `compact`, `compact-cursor`) and one per pair (`ticks:BTC-USD`, ...). Real time has them as
 * they are; a fixed rate's delivery has its own behind a prefix (`fixed_rate@200ms/compact:BTC-USD`). The batches
 * of the connections of every pair that asked for `batch=true` have one more per kind (`compact/batches`). Built
 * once per delivery.
 */
export class VariantTopics {
  private readonly everyPairTopics: string[]
  private readonly pairTopics: string[][]
  private readonly batchTopics: string[]

  constructor(rate: StreamRate) {
    const prefix = rate === 'real_time' ? '' : `${rate}/`
    this.everyPairTopics = KIND_TOPICS.map((kind) => `${prefix}${kind}`)
    this.pairTopics = this.everyPairTopics.map((topic) => PAIRS.map((pair) => `${topic}:${pair.symbol}`))
    this.batchTopics = this.everyPairTopics.map((topic) => `${topic}/batches`)
  }

  /** The batches of the connections of every pair of a kind. */
  batches(variant: Variant): string {
    return this.batchTopics[variant]!
  }

  everyPair(variant: Variant): string {
    return this.everyPairTopics[variant]!
  }

  pair(variant: Variant, pairId: number): string {
    return this.pairTopics[variant]![pairId]!
  }

  /** The topics of a connection's filter and kind. */
  of(filter: PairFilter, variant: Variant): string[] {
    if (filter === null) return [this.everyPair(variant)]
    return [...filter].map((pairId) => this.pair(variant, pairId))
  }
}

/** A tick's frames for one kind: the tick, after a static frame when a compact connection must get one first. */
export interface TickFrames {
  staticFrame: string | undefined
  tick: Buffer | string
}

/** Writes a tick's frames for each kind asked for. */
export class TickFrameVariants {
  private readonly writers = [new TickFrameWriter(), new TickFrameWriter()]

  constructor(
    private readonly compact: CompactTicks,
    private readonly cursorOf: (position: number) => string,
  ) {}

  write(tick: Arrival, variant: Variant): TickFrames {
    const cursor = hasCursor(variant) ? this.cursorOf(tick.position) : undefined
    if (!isCompact(variant)) return { staticFrame: undefined, tick: this.writers[variant]!.write(tick.seq, tick.row, cursor) }
    const { staticFrame, dynamic } = this.compact.of(tick)
    return { staticFrame, tick: compactTickFrame(tick.seq, tick.pairId, dynamic, cursor) }
  }
}
