import type { Cursor } from './cursor.ts'
import { gapFrame } from './frames.ts'
import type { PairFilter } from './pair-filter.ts'
import type { PublishedTicks } from './published-ticks.ts'
import type { ReplayedTick, TickHistory } from './tick-history.ts'
import type { TickFrameWriter } from './frames.ts'

/**
 * What a resume from `after` gets: `recover` (every tick after it is retained here), `refuse` (another
 * epoch, or older than the window), or `wait` (a cursor this edge has not reached yet: another edge was a
 * little ahead, and this one will be there shortly).
 */
export function resumeOutcome(
  after: Cursor,
  epoch: string,
  published: PublishedTicks,
  history: TickHistory,
): 'recover' | 'refuse' | 'wait' {
  if (after.epoch !== epoch) return 'refuse'
  if (after.position > published.position) return 'wait'
  return history.holdsAfter(after.position) ? 'recover' : 'refuse'
}

/** How long a resume may wait for this edge to reach its cursor before it is refused as unknown. */
export const CURSOR_AHEAD_WAIT_MS = 2_000

export interface ReplayTarget {
  /** sends one frame; false when the client has more than the slow-client limit buffered (and nothing was sent) */
  send(type: 'tick' | 'gap', cursor: string, frame: Buffer | string): boolean
}

/**
 * Sends the retained ticks of the filter after `after` (up to the position `through`), in order, each with its
 * cursor, a gap before any this edge missed: between two of them, or between a pair's first one and its tick
 * before the cursor (which the client had). Stops at the slow-client limit like live delivery; returns how many
 * ticks it did not send, which the connection's first gap counts.
 */
export function replayTicks(
  target: ReplayTarget,
  history: TickHistory,
  after: Cursor,
  filter: PairFilter,
  frames: TickFrameWriter,
  cursorOf: (position: number) => string,
  through = Infinity,
): number {
  const replayed = new Map<number, number>()
  let lastPosition = after.position
  const visit = (tick: ReplayedTick) => {
    const previous = replayed.get(tick.pairId) ?? tick.previousSeq
    if (previous > 0 && tick.seq - previous > 1) {
      const cursor = cursorOf(lastPosition)
      if (!target.send('gap', cursor, gapFrame(tick.seq - previous - 1, cursor))) return false
    }
    const cursor = cursorOf(tick.position)
    if (!target.send('tick', cursor, frames.write(tick.seq, tick.row, cursor))) return false
    replayed.set(tick.pairId, tick.seq)
    lastPosition = tick.position
    return true
  }
  return history.replayAfter(after.position, filter, visit, through)
}
