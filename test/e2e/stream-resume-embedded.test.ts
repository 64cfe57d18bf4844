// Resuming in the embedded default (no NATS: the in-process bus numbers the ticks), the compiled service
// with its simulator: a connection that closes, is away 3 s and resumes with `?from=` gets exactly the ticks
// a control connection received after its cursor, byte for byte, in order, once. The simulator ticks on its
// own clock, so the 3 s are waited for on the clock, bounded by a deadline.
import t from 'tap'
import { openRawFrames, RESUME_FILTER, ticksAfterCursor, untilTicks } from '../support/resume-clients.ts'
import { freePort } from '../support/servers.ts'
import { serviceProcessStarter, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { EVENT_DEADLINE_MS } from '../support/wait.ts'

const AWAY_MS = 3_000

t.test('embedded default: a resume after 3 s away gets exactly the control connection’s ticks after its cursor', async (t) => {
  const start = serviceProcessStarter(t, { ...UNUSED_INDEXED_SOURCE, HOST: '127.0.0.1', ONBOARDING_ENABLED: 'false' })
  const port = await freePort()
  const service = start(['ingestor', 'edge'], { PORT: String(port), STREAM_FANOUT_SLICE_MS: '60000' })
  t.equal((await service.waitForLog('starting roles')).bus, 'embedded (in-process; set NATS_URL for NATS)')
  await service.waitForLog('edge listening')
  const url = `ws://127.0.0.1:${port}/v1/prices/stream?${RESUME_FILTER}`

  const control = await openRawFrames(`${url}&cursor=true`)
  t.teardown(() => control.socket.terminate())
  const leaving = await openRawFrames(`${url}&cursor=true`)
  await untilTicks(leaving.frames, 5, 0, 20_000)
  await leaving.close()
  const cursor = leaving.frames.items.at(-1)!.json.cursor as string
  const closedAt = Date.now()
  // the 3 s away, then a hang detector of the default event deadline (84 ms past the 3 s seen at most)
  await control.frames.until(
    () => (Date.now() - closedAt >= AWAY_MS ? true : undefined),
    'the control connection 3 s on',
    AWAY_MS + EVENT_DEADLINE_MS,
  )

  const expected = ticksAfterCursor(control.frames.items, cursor)
  t.ok(expected.length > 0, `the control connection received ${expected.length} ticks meanwhile`)
  const back = await openRawFrames(`${url}&from=${cursor}`)
  t.teardown(() => back.socket.terminate())
  await untilTicks(back.frames, expected.length, 0, 10_000)
  t.same(back.frames.items[0]!.json, { type: 'resumed', recovered: true, cursor })
  t.same(
    back.frames.items.slice(1, expected.length + 1).map((frame) => frame.text),
    expected,
    "the control connection's tick frames after the cursor, byte for byte, in order, once; no snapshot",
  )
})
