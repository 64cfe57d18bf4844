// `?heartbeat=<seconds>`: a connection that asked gets a heartbeat frame once nothing was sent to it for that
// long (with the latest cursor when it carries cursors, so a quiet connection can still resume), none while
// ticks of its pairs flow, and a connection that did not ask never gets one; bad values are refused before
// the upgrade. The candle stream's clients get them the same way, without a cursor.
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { invalidStreamQuery, queryRefusals } from '../../../test/support/stream-refusals.ts'
import { NO_CONFLATION, openEventStream, openRawFrames, untilTicks } from '../../../test/support/resume-clients.ts'

const heartbeats = <F extends { json: any }>(frames: readonly F[]): F[] => frames.filter((frame) => frame.json.type === 'heartbeat')

t.test('a quiet connection gets heartbeats, with the latest cursor when it carries cursors', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const plain = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&heartbeat=1`)
  const withCursor = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&heartbeat=1&cursor=true`)
  const without = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD`)
  t.teardown(() => [plain, withCursor, without].forEach((client) => client.socket.terminate()))
  await without.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  // a tick of another pair: the latest position moves on, and these connections stay quiet
  const control = await openRawFrames(`${edge.streamUrl}?pairs=ETH-USD&cursor=true`)
  t.teardown(() => control.socket.terminate())
  await control.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  edge.bus.publishTick('ETH-USD', rowBytes(priceRow('ETH-USD', { mid: 3000 })))
  const ethCursor = (await control.frames.waitFor((frame) => frame.json.type === 'tick', 'the ETH tick')).json.cursor

  const before = Date.now()
  await plain.frames.until(() => (heartbeats(plain.frames.items).length >= 2 ? true : undefined), 'two heartbeats')
  await withCursor.frames.until(() => (heartbeats(withCursor.frames.items).length >= 2 ? true : undefined), 'two heartbeats')
  const [first] = heartbeats(plain.frames.items)
  t.same(Object.keys(first!.json), ['type', 'time'], 'the frame: type and time')
  t.equal(first!.text, `{"type":"heartbeat","time":${first!.json.time}}`)
  t.ok(first!.json.time >= before - 1000 && first!.json.time <= Date.now(), 'time is the server clock in ms')
  const [withItsCursor] = heartbeats(withCursor.frames.items)
  t.equal(
    withItsCursor!.text,
    `{"type":"heartbeat","time":${withItsCursor!.json.time},"cursor":"${ethCursor}"}`,
    'with cursors: the cursor of the latest tick sent, even of a pair it does not receive',
  )
  t.same(
    plain.frames.items.map((frame) => frame.json.type),
    ['snapshot', 'heartbeat', 'heartbeat'],
    'nothing else',
  )
  t.same(
    without.frames.items.map((frame) => frame.json.type),
    ['snapshot'],
    'a connection that did not ask gets none',
  )
  const received = heartbeats(plain.frames.items).length + heartbeats(withCursor.frames.items).length
  t.ok((await metricValue(edge.metrics.streamFrames, { type: 'heartbeat', rate: 'real_time' })) >= received, 'counted as heartbeat frames')
  t.equal(await metricValue(edge.metrics.streamHeartbeatConnections), 2, 'two connections asked for heartbeats')

  // resuming after the heartbeat's cursor loses nothing: the tick of its pair after it is replayed
  const cursor = withItsCursor!.json.cursor
  await withCursor.close()
  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: 1 })))
  const back = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&heartbeat=1&from=${cursor}`)
  t.teardown(() => back.socket.terminate())
  await untilTicks(back.frames, 1)
  t.same(back.frames.items[0]!.json, { type: 'resumed', recovered: true, cursor })
  t.same([back.frames.items[1]!.json.type, back.frames.items[1]!.json.data.mid], ['tick', 1], 'the tick published while it was away')
})

t.test('a connection whose pairs tick more often than its interval gets no heartbeat', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const busy = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&heartbeat=1`)
  const quiet = await openRawFrames(`${edge.streamUrl}?pairs=ETH-USD&heartbeat=1`)
  t.teardown(() => [busy, quiet].forEach((client) => client.socket.terminate()))
  await busy.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  // a tick of BTC every 200 ms until the quiet connection has had three heartbeats (some 3 s)
  let mid = 0
  const ticking = setInterval(() => edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: ++mid }))), 200)
  t.teardown(() => clearInterval(ticking))
  await quiet.frames.until(() => (heartbeats(quiet.frames.items).length >= 3 ? true : undefined), 'three heartbeats')
  clearInterval(ticking)
  const ticks = busy.frames.items.filter((frame) => frame.json.type === 'tick')
  t.ok(ticks.length >= 10, `ticks kept it busy (${ticks.length})`)
  t.same(heartbeats(busy.frames.items), [], 'no heartbeat while its pair ticks')
})

t.test('an event stream gets heartbeat events with the cursor as id', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const events = await openEventStream(`${edge.baseUrl}/v1/prices/stream?pairs=BTC-USD&heartbeat=1`)
  t.teardown(() => events.abort())
  const snapshot = await events.events.waitFor((event) => event.event === 'snapshot', 'snapshot')
  const heartbeat = await events.events.waitFor((event) => event.event === 'heartbeat', 'a heartbeat event')
  const frame = JSON.parse(heartbeat.data)
  t.equal(heartbeat.id, snapshot.id, "its id: the latest cursor, here the snapshot's")
  t.equal(heartbeat.data, `{"type":"heartbeat","time":${frame.time},"cursor":"${snapshot.id}"}`)
})

t.test('a quiet candle-stream client gets heartbeats on either transport, without a cursor', async (t) => {
  const edge = await startTestEdge({ candles: { now: Date.now } })
  t.teardown(edge.stop)
  // no tick reaches this edge's bus: its candles stay as they are
  const candles = `${edge.baseUrl}/v1/candles/stream?pairs=NVDA-USD&resolution=1`
  const asked = await openRawFrames(`${candles.replace('http', 'ws')}&heartbeat=1`)
  const without = await openRawFrames(candles.replace('http', 'ws'))
  const events = await openEventStream(`${candles}&heartbeat=1`)
  t.teardown(() => {
    for (const client of [asked, without]) client.socket.terminate()
    events.abort()
  })
  await without.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  const before = Date.now()
  await asked.frames.until(() => (heartbeats(asked.frames.items).length >= 2 ? true : undefined), 'two heartbeats')
  const [first] = heartbeats(asked.frames.items)
  t.equal(first!.text, `{"type":"heartbeat","time":${first!.json.time}}`, 'the frame: type and time')
  t.ok(first!.json.time >= before - 1000 && first!.json.time <= Date.now(), 'time is the server clock in ms')
  t.same(
    asked.frames.items.map((frame) => frame.json.type),
    ['snapshot', 'heartbeat', 'heartbeat'],
    'nothing else',
  )
  const heartbeat = await events.events.waitFor((event) => event.event === 'heartbeat', 'a heartbeat event')
  t.equal(heartbeat.data, `{"type":"heartbeat","time":${JSON.parse(heartbeat.data).time}}`, 'the same frame as data')
  t.equal(heartbeat.id, undefined, 'no id: the candle stream has no cursor')
  t.same(
    without.frames.items.map((frame) => frame.json.type),
    ['snapshot'],
    'a client that did not ask gets none',
  )
  t.ok((await metricValue(edge.metrics.candleStreamFrames, { type: 'heartbeat' })) >= 3, 'counted as heartbeat frames')
})

t.test('a heartbeat out of range or not a whole number, an unknown rate, or either twice is refused before the upgrade', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const message = 'a whole number of seconds from 1 to 60'
  const notWhole = { origin: 'string', code: 'invalid_format', format: 'regex', pattern: '/^[1-9][0-9]?$/', path: ['heartbeat'], message }
  const twice = (name: string) => ({
    code: 'invalid_type',
    expected: 'string',
    path: [name],
    message: 'Invalid input: expected string, received array',
  })
  const rates = ['real_time', 'fixed_rate@50ms', 'fixed_rate@200ms', 'fixed_rate@1000ms']
  const unknownRate = {
    code: 'invalid_value',
    values: rates,
    path: ['rate'],
    message: `Invalid option: expected one of ${rates.map((rate) => `"${rate}"`).join('|')}`,
  }
  const cases: Array<[string, object]> = [
    ['heartbeat=0', notWhole],
    ['heartbeat=61', { code: 'custom', path: ['heartbeat'], message }],
    ['heartbeat=1.5', notWhole],
    ['heartbeat=05', notWhole],
    ['heartbeat=', notWhole],
    ['heartbeat=5&heartbeat=5', twice('heartbeat')],
    ['rate=fixed_rate@100ms', unknownRate],
    ['rate=FIXED_RATE@200ms', unknownRate],
    ['rate=real_time&rate=real_time', twice('rate')],
  ]
  for (const [query, issue] of cases) {
    const refused = { status: 400, body: invalidStreamQuery(issue) }
    t.same(await queryRefusals(edge, query), { upgrade: refused, eventStream: refused }, query)
  }
})
