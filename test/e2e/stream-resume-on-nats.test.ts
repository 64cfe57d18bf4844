// Resuming on NATS: ticks are numbered once for the deployment (the tick stream's position, the publisher's
// per-pair seq), so a connection that closes and comes back with `?from=` on another edge process, or on an
// edge that was restarted meanwhile, gets exactly the ticks a control connection received after its cursor:
// same pair, seq and row bytes, in order, once. While it is away, the publisher sends 3 s worth of ticks
// (300 at 100 a second), counted by the control connection rather than waited for on the clock.
import t, { type Test } from 'tap'
import { natsPriceBus } from '../../bus/nats-price-bus.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import {
  openRawFrames,
  RESUME_FILTER,
  roundRobinPublisher,
  ticksAfterCursor,
  untilTicks,
  type RawFrameClient,
} from '../support/resume-clients.ts'
import { socketsByPid } from '../support/sockets.ts'
import { freePort, startNats } from '../support/servers.ts'
import { edgeOnNats, serviceProcessStarter } from '../support/service-process.ts'
import { silentLogger } from '../support/silent-logger.ts'
import { waitFor } from '../support/wait.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())

const FILTER = RESUME_FILTER
/** 3 s of ticks at 100 a second, two thirds of them of the filter's pairs */
const AWAY_TICKS = 300
/**
 * A hang detector for ticks to arrive: the slowest seen was 7.2 s (a resumed connection's 200 replayed ticks, in a
 * warm CI run on a slower machine of the kind), and 30 s keeps more than 3 times that.
 */
const TICKS_DEADLINE_MS = 30_000

async function publisherOn(t: Test, namespace: string): Promise<{ bus: PriceBus; publish(count: number): void }> {
  const bus = await natsPriceBus({ servers: nats.url, namespace, name: 'e2e-publisher', publishes: true, logger: silentLogger() })
  t.teardown(() => bus.close())
  return { bus, publish: roundRobinPublisher(bus) }
}

const ticksOf = (client: RawFrameClient) => client.frames.items.filter((frame) => frame.json.type === 'tick').length

/** The resumed connection's frames after `resumed`: the control's tick frames after the cursor, byte for byte. */
/** Resumes after `cursor` and compares with what the control connection received after it; returns what differs. */
async function resumeLikeControl(
  t: Test,
  url: string,
  control: RawFrameClient,
  cursor: string,
): Promise<{ back: RawFrameClient; problems: string[] }> {
  const expected = ticksAfterCursor(control.frames.items, cursor)
  const back = await openRawFrames(`${url}?${FILTER}&from=${cursor}`)
  t.teardown(() => back.socket.terminate())
  await untilTicks(back.frames, expected.length, 0, TICKS_DEADLINE_MS)
  const problems: string[] = []
  const first = JSON.stringify(back.frames.items[0]!.json)
  if (first !== JSON.stringify({ type: 'resumed', recovered: true, cursor })) problems.push(`first frame ${first}`)
  const received = back.frames.items.slice(1).map((frame) => frame.text)
  if (received.length !== expected.length) problems.push(`${received.length} ticks, not ${expected.length}`)
  if (!received.every((text, index) => text === expected[index])) problems.push("not the control's tick frames after the cursor")
  return { back, problems }
}

/** The same, asserted: one check named `what`. */
async function resumedLikeControl(t: Test, url: string, control: RawFrameClient, cursor: string, what: string) {
  const { back, problems } = await resumeLikeControl(t, url, control, cursor)
  t.same(problems, [], `${what}: recovered, the control's tick frames after the cursor, byte for byte, in order, once`)
  return back
}

const establishedByPid = (port: number) => socketsByPid(port, 'established')

t.test('across two edge processes on one port (EDGE_WORKERS=2): every resume recovers the control connection’s ticks', async (t) => {
  const shared = edgeOnNats(nats.url)
  const start = serviceProcessStarter(t, shared)
  const port = await freePort()
  const service = start(['edge'], { PORT: String(port), EDGE_WORKERS: '2' })
  await service.waitForLog('edge listening')
  const url = `ws://127.0.0.1:${port}/v1/prices/stream`
  // the worker's own start: both listening
  await waitFor(() => socketsByPid(port, 'listening').size === 2, { what: 'two processes listening', timeoutMs: 60_000, intervalMs: 100 })
  const publisher = await publisherOn(t, shared.BUS_NAMESPACE)

  const control = await openRawFrames(`${url}?${FILTER}&cursor=true`)
  t.teardown(() => control.socket.terminate())
  const leaving: RawFrameClient[] = []
  // 8, or more until both processes hold connections (the kernel picks the process by a hash of the addresses)
  while (leaving.length < 8 || (establishedByPid(port).size < 2 && leaving.length < 64))
    leaving.push(await openRawFrames(`${url}?${FILTER}&cursor=true`))
  await Promise.all([control, ...leaving].map((client) => client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')))
  t.equal(establishedByPid(port).size, 2, 'the connections are spread over both processes')

  publisher.publish(30)
  await Promise.all([control, ...leaving].map((client) => untilTicks(client.frames, 20, 0, TICKS_DEADLINE_MS)))
  const cursors = leaving.map((client) => client.frames.items.at(-1)!.json.cursor as string)
  t.equal(new Set(cursors).size, 1, 'both processes give the same tick the same cursor')
  await Promise.all(leaving.map((client) => client.close()))

  const controlBefore = ticksOf(control)
  publisher.publish(AWAY_TICKS)
  await untilTicks(control.frames, controlBefore + AWAY_TICKS * (2 / 3), 0, TICKS_DEADLINE_MS)

  // the kernel spreads connections over the two processes by a hash of their addresses, so 8 may all land on
  // one: resumes go on (64 at most) until both processes hold connections, each checked the same way
  const problems: string[] = []
  let resumes = 0
  while (resumes < cursors.length || (establishedByPid(port).size < 2 && resumes < 64)) {
    const { problems: found } = await resumeLikeControl(t, url, control, cursors[resumes % cursors.length]!)
    problems.push(...found.map((problem) => `resume ${resumes}: ${problem}`))
    resumes++
  }
  t.same(problems, [], "every resume recovered, the control's tick frames after its cursor, byte for byte, in order, once")
  t.equal(establishedByPid(port).size, 2, 'the resumes landed on both processes')
})

t.test(
  'across an edge restart: a resume on the restarted edge recovers what the control connection on another edge received',
  async (t) => {
    const shared = edgeOnNats(nats.url)
    const start = serviceProcessStarter(t, shared)
    const [stayingPort, restartedPort] = [await freePort(), await freePort()]
    const staying = start(['edge'], { PORT: String(stayingPort) })
    let restarted = start(['edge'], { PORT: String(restartedPort) })
    await Promise.all([staying.waitForLog('edge listening'), restarted.waitForLog('edge listening')])
    const publisher = await publisherOn(t, shared.BUS_NAMESPACE)
    const stayingUrl = `ws://127.0.0.1:${stayingPort}/v1/prices/stream`
    const restartedUrl = `ws://127.0.0.1:${restartedPort}/v1/prices/stream`

    const control = await openRawFrames(`${stayingUrl}?${FILTER}&cursor=true`)
    t.teardown(() => control.socket.terminate())
    const leaving = await openRawFrames(`${restartedUrl}?${FILTER}&cursor=true`)
    await Promise.all([control, leaving].map((client) => client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')))
    publisher.publish(30)
    await Promise.all([control, leaving].map((client) => untilTicks(client.frames, 20, 0, TICKS_DEADLINE_MS)))
    const cursor = leaving.frames.items.at(-1)!.json.cursor as string
    t.equal(control.frames.items.at(-1)!.json.cursor, cursor, 'both edges give the tick the same cursor')

    await restarted.stop()
    await leaving.close().catch(() => undefined)
    const controlBefore = ticksOf(control)
    publisher.publish(AWAY_TICKS)
    await untilTicks(control.frames, controlBefore + AWAY_TICKS * (2 / 3), 0, TICKS_DEADLINE_MS)
    restarted = start(['edge'], { PORT: String(restartedPort) })
    await restarted.waitForLog('edge listening')

    const back = await resumedLikeControl(t, restartedUrl, control, cursor, 'resume on the restarted edge')
    const backBefore = ticksOf(back)
    const controlNow = ticksOf(control)
    publisher.publish(3)
    await untilTicks(back.frames, backBefore + 2, 0, TICKS_DEADLINE_MS)
    await untilTicks(control.frames, controlNow + 2, 0, TICKS_DEADLINE_MS)
    t.same(
      back.frames.items.slice(-2).map((frame) => frame.text),
      control.frames.items.slice(-2).map((frame) => frame.text),
      'live ticks go on with the same seq and cursor on both edges',
    )
  },
)
