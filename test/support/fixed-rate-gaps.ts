import { isDeepStrictEqual } from 'node:util'

const positionOf = (cursor: string) => Number(cursor.split('-')[1])

/**
 * Checks a slow fixed-rate client's frames (with cursors, batches opened) against a control connection's ticks of the
 * same rate and filter, which read everything: between the last tick it received before a gap and the first after,
 * the control's rows are the ones it was not sent, and the gap must count the seq they advanced their pairs by; every
 * tick it did receive must be the control's frame of that cursor.
 */
export function gapsAgainstControl(
  snapshot: { seq: Record<string, number>; cursor: string },
  frames: readonly any[],
  controlTicks: readonly any[],
): { mismatches: string[]; gapsChecked: number } {
  const controlByCursor = new Map(controlTicks.map((tick) => [tick.cursor, tick]))
  const lastSeq = new Map(Object.entries(snapshot.seq))
  let lastPosition = positionOf(snapshot.cursor)
  let announced = 0
  const mismatches: string[] = []
  let gapsChecked = 0
  for (const frame of frames) {
    if (frame.type === 'gap') {
      announced += frame.dropped
      continue
    }
    const position = positionOf(frame.cursor)
    let advanced = 0
    for (const missed of controlTicks) {
      const at = positionOf(missed.cursor)
      if (at <= lastPosition || at >= position) continue
      advanced += missed.seq - lastSeq.get(missed.data.pair)!
      lastSeq.set(missed.data.pair, missed.seq)
    }
    if (advanced !== announced) mismatches.push(`a gap of ${announced} before position ${position}, where rows advanced ${advanced}`)
    if (announced > 0) gapsChecked++
    if (!isDeepStrictEqual(controlByCursor.get(frame.cursor), frame)) mismatches.push(`tick at ${position} is not the control's frame`)
    lastSeq.set(frame.data.pair, frame.seq)
    lastPosition = position
    announced = 0
  }
  return { mismatches, gapsChecked }
}
