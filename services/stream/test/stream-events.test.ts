// The stream as Server-Sent Events (GET with Accept: text/event-stream): the WebSocket's frames with their
// cursor as events, the cursor as `id`; an EventSource that comes back with `Last-Event-ID` gets exactly the
// ticks a control connection received after it; at shutdown the response ends.
import t from 'tap'
import { startTestEdge, type TestEdge } from '../../../test/support/edge-harness.ts'
import {
  openEventStream,
  openRawFrames,
  NO_CONFLATION,
  RESUME_FILTER,
  roundRobinPublisher,
  ticksAfterCursor,
  untilTicks,
} from '../../../test/support/resume-clients.ts'

const FILTER = RESUME_FILTER

const eventsUrl = (edge: TestEdge, query: string) => `${edge.baseUrl}/v1/prices/stream?${query}`

t.test('an EventSource back with Last-Event-ID gets exactly the ticks the control connection received after it', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  const publish = roundRobinPublisher(edge.bus)
  t.teardown(edge.stop)
  const control = await openRawFrames(`${edge.streamUrl}?${FILTER}&cursor=true`)
  t.teardown(() => control.socket.terminate())
  await control.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  const leaving = await openEventStream(eventsUrl(edge, FILTER))
  t.equal(leaving.response.status, 200)
  t.equal(leaving.response.headers.get('content-type'), 'text/event-stream')
  t.equal(leaving.response.headers.get('cache-control'), 'no-store')
  const snapshot = await leaving.events.waitFor((event) => event.event === 'snapshot', 'snapshot event')
  t.same(Object.keys(JSON.parse(snapshot.data)), ['type', 'seq', 'data', 'cursor'], 'the snapshot frame, with its cursor')
  t.equal(snapshot.id, JSON.parse(snapshot.data).cursor, 'its id is its cursor')

  publish(30)
  await leaving.events.until(
    () => (leaving.events.items.filter((event) => event.event === 'tick').length >= 20 ? true : undefined),
    '20 ticks',
  )
  const ticks = leaving.events.items.filter((event) => event.event === 'tick')
  t.ok(
    ticks.every((event) => JSON.parse(event.data).cursor === event.id),
    'every tick event: the frame with its cursor, the cursor as id',
  )
  const lastEventId = ticks.at(-1)!.id!
  leaving.abort()
  await leaving.ended

  publish(60)
  await untilTicks(control.frames, 60)
  const missed = ticksAfterCursor(control.frames.items, lastEventId)
  t.equal(missed.length, 40)

  const back = await openEventStream(eventsUrl(edge, FILTER), { 'last-event-id': lastEventId })
  await back.events.until(() => (back.events.items.length >= 41 ? true : undefined), 'the resumed event and 40 ticks')
  t.same(back.events.items[0], {
    event: 'resumed',
    id: lastEventId,
    data: JSON.stringify({ type: 'resumed', recovered: true, cursor: lastEventId }),
  })
  t.same(
    back.events.items.slice(1).map((event) => event.data),
    missed,
    "the control connection's tick frames after the cursor, byte for byte, in order, once; no snapshot",
  )
  t.ok(
    back.events.items.slice(1).every((event) => event.event === 'tick' && event.id === JSON.parse(event.data).cursor),
    'as tick events with their cursor as id',
  )

  const foreign = await openEventStream(eventsUrl(edge, `${FILTER}&from=zzzz-1`))
  await foreign.events.waitFor((event) => event.event === 'snapshot', 'snapshot')
  t.same(
    foreign.events.items[0],
    { event: 'resumed', id: undefined, data: '{"type":"resumed","recovered":false}' },
    '?from= of another epoch',
  )
  foreign.abort()

  await edge.stop()
  await back.ended
  t.pass('at shutdown the response ends, for the EventSource to come back with its Last-Event-ID')
})

t.test('refusals: a plain GET is 426, a malformed Last-Event-ID 400, a browser origin not allowed 403', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const plain = await fetch(eventsUrl(edge, FILTER))
  t.equal(plain.status, 426)
  await plain.arrayBuffer()
  const malformed = await fetch(eventsUrl(edge, FILTER), { headers: { accept: 'text/event-stream', 'last-event-id': 'nope' } })
  t.equal(malformed.status, 400)
  t.same((await malformed.json()).issues[0].path, ['from'])
  const foreign = await fetch(eventsUrl(edge, FILTER), { headers: { accept: 'text/event-stream', origin: 'https://evil.example' } })
  t.equal(foreign.status, 403)
  await foreign.arrayBuffer()
})
