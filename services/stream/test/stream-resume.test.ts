// Resuming after a cursor on one edge, in the embedded default (the in-process bus): a connection that closes
// and comes back with `?from=` gets exactly the ticks a control connection received after that cursor, byte
// for byte, in order and once, and then live ticks; a cursor it cannot recover gets recovered:false and the
// snapshot; a malformed one gets 400 before the upgrade.
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { rawUpgrade } from '../../../test/support/raw-ws.ts'
import {
  NO_CONFLATION,
  openRawFrames,
  RESUME_FILTER,
  roundRobinPublisher,
  ticksAfterCursor,
  untilTicks,
} from '../../../test/support/resume-clients.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { openStream } from '../../../test/support/stream-clients.ts'

const FILTER = RESUME_FILTER
const RESUME_PAIRS_IN_FILTER = ['BTC-USD', 'ETH-USD']

t.test('a resume gets exactly the ticks a control connection received after its cursor, then live ones', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  const publish = roundRobinPublisher(edge.bus)
  t.teardown(edge.stop)
  const control = await openRawFrames(`${edge.streamUrl}?${FILTER}&cursor=true`)
  t.teardown(() => control.socket.terminate())
  const leaving = await openRawFrames(`${edge.streamUrl}?${FILTER}&cursor=true`)
  await leaving.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  await control.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  publish(30) // 20 of the filter's pairs
  await untilTicks(leaving.frames, 20)
  const cursor = leaving.frames.items.at(-1)!.json.cursor as string
  t.match(cursor, /^[0-9a-z]+-\d+$/, 'every frame carries its cursor')
  await leaving.close()

  publish(60) // 40 more of the filter's, while it is away
  await untilTicks(control.frames, 60)
  const missed = ticksAfterCursor(control.frames.items, cursor)
  t.equal(missed.length, 40, 'the control connection received 40 ticks after the cursor')

  const back = await openRawFrames(`${edge.streamUrl}?${FILTER}&from=${cursor}`)
  t.teardown(() => back.socket.terminate())
  await untilTicks(back.frames, 40)
  t.same(back.frames.items[0]!.json, { type: 'resumed', recovered: true, cursor }, 'the first frame says it recovered')
  t.equal(await metricValue(edge.metrics.streamResumes, { outcome: 'recovered' }), 1, 'counted as recovered')
  t.same(
    back.frames.items.slice(1).map((frame) => frame.text),
    missed,
    'then the same tick frames, byte for byte (pair, seq, row, cursor), in order, once, and no snapshot',
  )

  publish(3)
  await untilTicks(back.frames, 42)
  await untilTicks(control.frames, 62)
  t.same(
    back.frames.items.slice(41).map((frame) => frame.text),
    control.frames.items.slice(-2).map((frame) => frame.text),
    'then live ticks, seq continuing',
  )
})

t.test('a resume replays the ticks that conflated away from live connections while the edge fell behind', async (t) => {
  // a slice of 0: past the first whole write (32 frames) of a read, the rest of it conflates to the latest row per pair
  const edge = await startTestEdge({ env: { STREAM_FANOUT_SLICE_MS: '0' } })
  const publish = roundRobinPublisher(edge.bus)
  t.teardown(edge.stop)
  const live = await openRawFrames(`${edge.streamUrl}?${FILTER}&cursor=true`)
  t.teardown(() => live.socket.terminate())
  const snapshot = (await live.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')).json
  // in one read, 42 of them of the filter's pairs: the first 32 fill a write (22 of the filter's), the other 30 conflate
  publish(62)
  await live.frames.waitFor((frame) => frame.json.type === 'gap', 'the gap for the conflated ticks')
  await untilTicks(live.frames, 24)
  const liveTicks = live.frames.items.filter((frame) => frame.json.type === 'tick')
  t.equal(liveTicks.length, 24, "live: the filter's ticks of the first write, then the latest of each filtered pair")

  const back = await openRawFrames(`${edge.streamUrl}?${FILTER}&from=${snapshot.cursor}`)
  t.teardown(() => back.socket.terminate())
  await untilTicks(back.frames, 42)
  t.same(back.frames.items[0]!.json, { type: 'resumed', recovered: true, cursor: snapshot.cursor })
  const replayed = back.frames.items.slice(1)
  t.same(
    replayed.map((frame) => [frame.json.type, frame.json.data.pair, frame.json.seq]),
    Array.from({ length: 42 }, (_, index) => {
      const pair = RESUME_PAIRS_IN_FILTER[index % 2]!
      return ['tick', pair, snapshot.seq[pair] + 1 + Math.floor(index / 2)]
    }),
    'every tick of the filter after the cursor, the conflated ones included, seq going up by one',
  )
  t.same(
    [replayed.at(-2)!.text, replayed.at(-1)!.text],
    liveTicks.slice(-2).map((frame) => frame.text),
    'ending with the frames the live connection got, byte for byte',
  )
})

t.test('without opting in, frames carry no cursor', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  const publish = roundRobinPublisher(edge.bus)
  t.teardown(edge.stop)
  const plain = await openRawFrames(`${edge.streamUrl}?${FILTER}`)
  t.teardown(() => plain.socket.terminate())
  const cursors = await openRawFrames(`${edge.streamUrl}?${FILTER}&cursor=true`)
  t.teardown(() => cursors.socket.terminate())
  await cursors.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  publish(3)
  await untilTicks(plain.frames, 2)
  await untilTicks(cursors.frames, 2)
  t.same(Object.keys(plain.frames.items[0]!.json), ['type', 'seq', 'data'])
  t.same(Object.keys(plain.frames.items[1]!.json), ['type', 'seq', 'data'])
  t.same(Object.keys(cursors.frames.items[0]!.json), ['type', 'seq', 'data', 'cursor'])
  t.same(Object.keys(cursors.frames.items[1]!.json), ['type', 'seq', 'data', 'cursor'])
  t.equal(cursors.frames.items[1]!.text, plain.frames.items[1]!.text.slice(0, -1) + `,"cursor":"${cursors.frames.items[1]!.json.cursor}"}`)
})

t.test('a cursor of another epoch is not recovered: recovered:false, then the snapshot', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  const publish = roundRobinPublisher(edge.bus)
  t.teardown(edge.stop)
  publish(3)
  const client = await openStream(`${edge.streamUrl}?${FILTER}&from=zzzzzz-2`)
  t.teardown(() => client.socket.terminate())
  await client.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')
  t.same(client.messages.items[0], { type: 'resumed', recovered: false })
  t.equal(await metricValue(edge.metrics.streamResumes, { outcome: 'other_epoch' }), 1, 'counted as of another epoch')
  t.equal(client.messages.items[1].type, 'snapshot')
  t.match(client.messages.items[1].cursor, /^[0-9a-z]+-\d+$/, 'the snapshot carries the cursor to resume from next time')
})

t.test('a cursor this edge never reaches is not recovered, after a short wait', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const probe = await openStream(`${edge.streamUrl}?${FILTER}&cursor=true`)
  const epoch = (await probe.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')).cursor.split('-')[0]
  probe.socket.terminate()
  const client = await openStream(`${edge.streamUrl}?${FILTER}&from=${epoch}-999999`)
  t.teardown(() => client.socket.terminate())
  await client.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')
  t.same(client.messages.items[0], { type: 'resumed', recovered: false })
  t.equal(await metricValue(edge.metrics.streamResumes, { outcome: 'edge_behind' }), 1, 'counted as this edge behind the cursor')
})

t.test('a malformed cursor is refused before the upgrade: 400 in the framework shape', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  for (const bad of ['nope', 'abc-', 'ABC-1', 'abc-01', 'abc-1-2']) {
    const refused = await rawUpgrade(`${edge.streamUrl}?pairs=BTC-USD&from=${bad}`)
    refused.socket.destroy()
    t.equal(refused.status, 400, bad)
    t.same(JSON.parse(refused.rest.toString()), {
      error: 'Bad Request',
      message: 'invalid query for the price stream',
      issues: [{ code: 'custom', path: ['from'], message: "not a cursor: a cursor is a frame's `cursor` (`<epoch>-<position>`)" }],
    })
  }
})
