import type { Cursor } from './cursor.ts'
import { TickFrameWriter } from './frames.ts'
import type { PairFilter } from './pair-filter.ts'
import { compactReplayFrames, fullReplayFrames, RetainedRowParts } from './replay-frames.ts'
import { replayLatest, replayTicks, type ReplayTarget } from './resume.ts'
import type { TickHistory } from './tick-history.ts'

/** What a resuming connection (WebSocket or event stream) asked for. */
export interface Resuming {
  filter: PairFilter
  /** `?format=compact` */
  compact: boolean
  /** `?replay=latest` */
  foldReplay: boolean
}

/**
 * A recovered resume's replay, as the connection asked for it: full rows or compact frames, every tick or each
 * pair's latest, from the retained ticks after `after` up to `through` (the latest its rate has sent: its live
 * frames go on from there, a fixed rate's next window). Returns the ticks it did not send.
 */
export type ConnectionReplay = (target: ReplayTarget, connection: Resuming, after: Cursor, through: number) => number

export function connectionReplay(
  history: TickHistory,
  cursorOf: (position: number) => string,
  malformedRow: (error: unknown) => void,
): ConnectionReplay {
  const writer = new TickFrameWriter()
  const parts = new RetainedRowParts(malformedRow)
  return (target, connection, after, through) => {
    const frames = connection.compact ? compactReplayFrames(history, after.position, parts) : fullReplayFrames(writer)
    const replay = connection.foldReplay ? replayLatest : replayTicks
    return replay(target, history, after, connection.filter, frames, cursorOf, through)
  }
}
