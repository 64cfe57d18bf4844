import type { Test } from 'tap'
import { startTestEdge, type TestEdge } from './edge-harness.ts'
import {
  isTickFrame,
  NO_CONFLATION,
  openRawFrames,
  RESUME_FILTER,
  roundRobinPublisher,
  ticksAfterCursor,
  untilTicks,
  type RawFrameClient,
} from './resume-clients.ts'

/** A connection at `fixed_rate@200ms` that left and is about to come back, with what it missed meanwhile. */
export interface LeftAtFixedRate {
  edge: TestEdge
  /** the stream URL with the filter (RESUME_FILTER) and the rate: add `&from=<cursor>` to come back */
  query: string
  /** the cursor of the last row it received before it left */
  cursor: string
  /** the frames of every tick of the filter after the cursor, as a real-time connection received them */
  missed: string[]
  /** Publishes ticks until the next window's rows (one per pair of the filter); returns the frames of those rows. */
  nextWindow(): Promise<string[]>
}

/**
 * On a fresh edge: a connection at `fixed_rate@200ms` with cursors receives 20 ticks of the filter, leaves after
 * its window's rows, and misses 40 more (20 of each pair) before the rate has sent their windows; beside it, a
 * real-time connection with cursors and one that stays at the rate.
 */
export async function leftAtFixedRate(t: Test): Promise<LeftAtFixedRate> {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const publish = roundRobinPublisher(edge.bus)
  const query = `${edge.streamUrl}?${RESUME_FILTER}&rate=fixed_rate@200ms`
  const control = await openRawFrames(`${edge.streamUrl}?${RESUME_FILTER}&cursor=true`)
  const windows = await openRawFrames(`${query}&cursor=true`)
  const leaving = await openRawFrames(`${query}&cursor=true`)
  t.teardown(() => [control, windows].forEach((client) => client.socket.terminate()))
  for (const client of [control, windows, leaving]) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  /** until a connection has the latest row of both pairs the control connection has */
  const untilCaughtUp = (client: RawFrameClient) => {
    const latest = control.frames.items.filter(isTickFrame).slice(-2)
    return client.frames.until(
      () => (latest.every((tick) => client.frames.items.some((frame) => frame.text === tick.text)) ? true : undefined),
      'the latest rows',
    )
  }

  publish(30) // 20 of the filter's pairs
  await untilTicks(control.frames, 20)
  await untilCaughtUp(leaving)
  const cursor = leaving.frames.items.at(-1)!.json.cursor as string
  await leaving.close()

  publish(60) // 40 more of the filter's, while it is away
  await untilTicks(control.frames, 60)
  await untilCaughtUp(windows)
  const rowsOf = (client: RawFrameClient) => client.frames.items.filter(isTickFrame).map((frame) => frame.text)
  return {
    edge,
    query,
    cursor,
    missed: ticksAfterCursor(control.frames.items, cursor),
    async nextWindow() {
      const before = rowsOf(windows).length
      publish(3)
      await untilTicks(windows.frames, before + 2)
      return rowsOf(windows).slice(before)
    },
  }
}
