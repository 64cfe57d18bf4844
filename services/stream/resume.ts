import type { Cursor } from './cursor.ts'
import { gapFrame } from './frames.ts'
import type { PairFilter } from './pair-filter.ts'
import type { PublishedTicks } from './published-ticks.ts'
import type { ReplayFrames } from './replay-frames.ts'
import type { ReplayedTick, TickHistory } from './tick-history.ts'

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
  /**
   * sends one frame (the cursor is undefined for a static part, which has none); false when the client has more
   * than the slow-client limit buffered (and nothing was sent)
   */
  send(type: 'tick' | 't' | 'static' | 'gap', cursor: string | undefined, frame: Buffer | string): boolean
}

/**
 * A replay: sends what a resume after `after` gets from the retained ticks up to the position `through` (where
 * the connection's live frames go on: a fixed rate's last window), returns how many ticks it did not send (the
 * connection's first gap counts them).
 */
export type Replay = (
  target: ReplayTarget,
  history: TickHistory,
  after: Cursor,
  filter: PairFilter,
  frames: ReplayFrames,
  cursorOf: (position: number) => string,
  through?: number,
) => number

/**
 * Sends the retained ticks of the filter after `after`, in order, each with its cursor, a gap before any this
 * edge missed: between two of them, or between a pair's first one and its tick before the cursor (which the
 * client had). Stops at the slow-client limit like live delivery.
 */
export const replayTicks: Replay = (target, history, after, filter, frames, cursorOf, through) => {
  const replayed = new Map<number, number>()
  let lastPosition = after.position
  const visit = (tick: ReplayedTick) => {
    const previous = replayed.get(tick.pairId) ?? tick.previousSeq
    if (previous > 0 && tick.seq - previous > 1) {
      const cursor = cursorOf(lastPosition)
      if (!target.send('gap', cursor, gapFrame(tick.seq - previous - 1, cursor))) return false
    }
    if (!sendTick(target, tick, frames, cursorOf)) return false
    replayed.set(tick.pairId, tick.seq)
    lastPosition = tick.position
    return true
  }
  return history.replayAfter(after.position, filter, visit, through)
}

/**
 * `?replay=latest`: the latest retained tick of each pair of the filter after `after`, in position order,
 * after one gap (with the cursor resumed from) that counts every tick of those pairs it leaves out, the ones
 * this edge missed included: each pair's seq then jumps by the ticks folded plus one, and the jumps add up
 * to the gap. It costs at most one tick per pair, however long the client was away.
 */
export const replayLatest: Replay = (target, history, after, filter, frames, cursorOf, through) => {
  // per pair: the seq the client had (as replayTicks counts it) and the latest tick
  const before = new Map<number, number>()
  const latest = new Map<number, ReplayedTick>()
  history.replayAfter(
    after.position,
    filter,
    (tick) => {
      if (!before.has(tick.pairId)) before.set(tick.pairId, tick.previousSeq > 0 ? tick.previousSeq : tick.seq - 1)
      latest.set(tick.pairId, tick)
      return true
    },
    through,
  )
  const ticks = [...latest.values()].sort((a, b) => a.position - b.position)
  let folded = 0
  for (const tick of ticks) folded += tick.seq - before.get(tick.pairId)! - 1
  const cursor = cursorOf(after.position)
  if (folded > 0 && !target.send('gap', cursor, gapFrame(folded, cursor))) return folded + ticks.length
  const sent = ticks.findIndex((tick) => !sendTick(target, tick, frames, cursorOf))
  return sent === -1 ? 0 : ticks.length - sent
}

function sendTick(target: ReplayTarget, tick: ReplayedTick, frames: ReplayFrames, cursorOf: (position: number) => string): boolean {
  const cursor = cursorOf(tick.position)
  return frames(tick, cursor).every(({ type, frame }) => target.send(type, type === 'static' ? undefined : cursor, frame))
}
