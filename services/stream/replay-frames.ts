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
 * Compact frames, after a static frame whenever a tick's static part differs from the one the client holds
 * for its pair: at first the part of the pair's last retained row at or before the cursor (sent when there
 * is none), then the part of the last one replayed.
 */
export function compactReplayFrames(history: TickHistory, afterPosition: number, malformed: (error: unknown) => void): ReplayFrames {
  const held = new Map<number, string | undefined>()
  const replayed = new Map<number, RowParts>()
  return (tick, cursor) => {
    const { statics, dynamic } = splitRowOr(tick.row, replayed.get(tick.pairId), malformed)
    replayed.set(tick.pairId, { statics, dynamic })
    if (!held.has(tick.pairId)) {
      const rowBefore = history.rowAtOrBefore(afterPosition, tick.pairId)
      held.set(tick.pairId, rowBefore && splitRowOr(rowBefore, undefined, malformed).statics)
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
