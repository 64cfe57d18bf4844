import { compactTickFrame, splitRowOr, staticFrame, type RowParts } from './compact-frames.ts'
import type { TickFrameWriter } from './frames.ts'
import type { ReplayedTick, TickHistory } from './tick-history.ts'

export interface ReplayFrame {
  type: 'tick' | 't' | 'static'
  frame: Buffer | string
}

/** The frames of one replayed tick, with its cursor, in the resuming connection's format. */
export type ReplayFrames = (tick: ReplayedTick, cursor: string) => ReplayFrame[]

/** Full rows: the tick frame. */
export const fullReplayFrames =
  (writer: TickFrameWriter): ReplayFrames =>
  (tick, cursor) => [{ type: 'tick', frame: writer.write(tick.seq, tick.row, cursor) }]

/**
 * The parts of retained rows, shared by every compact replay of an edge: a storm of resumes replays the same
 * ticks to thousands of connections, each split once here. Kept by position (with the tick's pair and seq, so an
 * entry never stands for another tick), at most `limit` of them, all let go when that is reached; a pair's
 * static part is kept once while it stays the same.
 */
export class RetainedRowParts {
  private readonly byPosition = new Map<number, { pairId: number; seq: number; parts: RowParts }>()
  private readonly statics = new Map<number, string>()

  constructor(
    private readonly malformed: (error: unknown) => void,
    private readonly limit = 100_000,
  ) {}

  /** The tick's parts; `instead`: the parts that stand for a row that is not a price row. */
  of(tick: ReplayedTick, instead: RowParts | undefined): RowParts {
    const kept = this.byPosition.get(tick.position)
    if (kept && kept.pairId === tick.pairId && kept.seq === tick.seq) return kept.parts
    if (this.byPosition.size >= this.limit) this.byPosition.clear()
    const split = splitRowOr(tick.row, instead, this.malformed)
    const held = this.statics.get(tick.pairId)
    if (held !== split.statics) this.statics.set(tick.pairId, split.statics)
    const parts = { statics: held === split.statics ? held : split.statics, dynamic: split.dynamic }
    this.byPosition.set(tick.position, { pairId: tick.pairId, seq: tick.seq, parts })
    return parts
  }

  /** A row's parts, not kept (the row before a cursor, once per replay). */
  ofRow(row: Buffer): RowParts {
    return splitRowOr(row, undefined, this.malformed)
  }
}

/**
 * Compact frames, after a static frame whenever a tick's static part differs from the one the client holds
 * for its pair: at first the part of the pair's last retained row at or before the cursor (sent when there
 * is none), then the part of the last one replayed.
 */
export function compactReplayFrames(history: TickHistory, afterPosition: number, parts: RetainedRowParts): ReplayFrames {
  const held = new Map<number, string | undefined>()
  const replayed = new Map<number, RowParts>()
  return (tick, cursor) => {
    const { statics, dynamic } = parts.of(tick, replayed.get(tick.pairId))
    replayed.set(tick.pairId, { statics, dynamic })
    if (!held.has(tick.pairId)) {
      const rowBefore = history.rowAtOrBefore(afterPosition, tick.pairId)
      held.set(tick.pairId, rowBefore && parts.ofRow(rowBefore).statics)
    }
    const frames: ReplayFrame[] = []
    if (held.get(tick.pairId) !== statics) {
      frames.push({ type: 'static', frame: staticFrame(tick.pairId, statics) })
      held.set(tick.pairId, statics)
    }
    frames.push({ type: 't', frame: compactTickFrame(tick.seq, tick.pairId, dynamic, cursor) })
    return frames
  }
}
