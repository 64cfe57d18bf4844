import { isDeepStrictEqual } from 'node:util'
import type { Test } from 'tap'
import { PAIRS } from '../../schemas/pairs.ts'
import { startTestEdge } from './edge-harness.ts'
import { bulkyRowBytes } from './price-rows.ts'
import { RawStreamClient } from './raw-ws.ts'
import { NO_CONFLATION, openRawFrames } from './resume-clients.ts'
import { publishUntilLagging } from './stream-clients.ts'
import { waitFor } from './wait.ts'

const positionOf = (cursor: string) => Number(cursor.split('-')[1])

/**
 * Checks a slow client's frames (with cursors, batches opened) against a control connection's ticks of the
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

/** A client's frames with every `batch` opened in place. */
const unbatched = (frames: readonly any[]): any[] => frames.flatMap((frame) => (frame.type === 'batch' ? frame.frames : [frame]))

/**
 * A slow client at `rate` (default `fixed_rate@50ms`) with cursors (and `extraQuery`), beside a control connection of
 * that rate which reads everything: a bulky row of every pair per round (a fixed rate's window), one round at a time,
 * until the slow one lags; then it reads again, rounds going on until a tick has followed its last gap. Its frames
 * (after the snapshot, batches opened) checked against the control's ticks with `gapsAgainstControl`, and the frames
 * as they came.
 */
export async function slowClientAgainstControl(
  t: Test,
  { rate = 'fixed_rate@50ms', extraQuery = '' } = {},
): Promise<{ mismatches: string[]; gapsChecked: number; received: any[] }> {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const query = `${edge.streamUrl}?cursor=true&rate=${rate}`
  const paused = await RawStreamClient.connect(`${query}${extraQuery}`)
  const control = await openRawFrames(query)
  t.teardown(() => (paused.destroy(), control.socket.terminate()))
  const snapshot = (await paused.frames.waitFor((frame) => frame.json?.type === 'snapshot', 'snapshot')).json
  await control.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  paused.pause()

  let mid = 0
  const window = async () => {
    mid++
    for (const pair of PAIRS) edge.bus.publishTick(pair.symbol, bulkyRowBytes(pair.symbol, mid, 4000))
    await control.frames.waitFor((frame) => frame.json.type === 'tick' && frame.json.data.mid === mid, 'the window')
  }
  await publishUntilLagging(edge, window, { timeoutMs: 40_000 })
  await window()
  paused.resume()
  await paused.frames.waitFor((frame) => frame.json?.type === 'gap', 'the gap')
  const frames = () => unbatched(paused.messages.slice(1))
  await waitFor(
    async () => {
      const after = frames()
      const lastGap = after.findLastIndex((frame) => frame.type === 'gap')
      if (after.slice(lastGap).some((frame) => frame.type === 'tick')) return true
      await window()
      return false
    },
    { what: 'a tick after the last gap', timeoutMs: 40_000 },
  )
  const controlTicks = control.frames.items.filter((frame) => frame.json.type === 'tick').map((frame) => frame.json)
  return { ...gapsAgainstControl(snapshot, frames(), controlTicks), received: paused.messages.slice(1) }
}
