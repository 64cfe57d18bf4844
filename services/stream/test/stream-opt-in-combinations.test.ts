// The opt-ins together on a real edge: compact frames at a fixed rate stand for the very rows, seq jumps and
// cursors a full connection at that rate gets, with a static part exactly where the rate's rows need one;
// heartbeats on compact connections, at real time and at a fixed rate, over WebSocket and Server-Sent Events;
// `replay=latest` at a fixed rate: the folded replay up to the rate's latest window, then its windows.
import t from 'tap'
import { pairBySymbol } from '../../../schemas/pairs.ts'
import { fullRows, rebuiltRows } from '../../../test/support/compact-rows.ts'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { leftAtFixedRate } from '../../../test/support/fixed-rate-resume.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { NO_CONFLATION, openEventStream, openRawFrames, untilTicks, type RawFrameClient } from '../../../test/support/resume-clients.ts'

const untilSnapshot = (client: RawFrameClient) => client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

t.test('compact frames at fixed_rate@200ms rebuild to the rows a full connection at that rate gets, seq jumps and all', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const query = `${edge.streamUrl}?pairs=BTC-USD,ETH-USD&cursor=true&rate=fixed_rate@200ms`
  const full = await openRawFrames(query)
  const compact = await openRawFrames(`${query}&format=compact`)
  t.teardown(() => [full, compact].forEach((client) => client.socket.terminate()))
  const events = await openEventStream(`${edge.baseUrl}/v1/prices/stream?pairs=BTC-USD,ETH-USD&format=compact&rate=fixed_rate@200ms`)
  t.teardown(() => events.abort())
  for (const client of [full, compact]) await untilSnapshot(client)
  await events.events.waitFor((event) => event.event === 'snapshot', 'snapshot')
  t.same(compact.frames.items[0]!.json.ids, [], 'no row yet: no static part held')

  const btc = priceRow('BTC-USD', { mid: 100 })
  const eth = priceRow('ETH-USD', { mid: 3000 })
  const moved = { ...btc, feed_id: '0x' + 'f'.repeat(64) }
  /** publishes rows in one turn (so into one window), and waits for the full connection's row of that window */
  const window = async (rows: Array<typeof btc>, ticks: number) => {
    for (const row of rows) edge.bus.publishTick(row.pair, rowBytes(row))
    await untilTicks(full.frames, ticks)
  }
  // BTC 3 times and ETH twice: one row each, ETH's first (its latest comes first)
  await window([btc, eth, { ...btc, mid: 101 }, { ...eth, mid: 3001 }, { ...btc, mid: 102 }], 2)
  // BTC's static part changes and changes back within the window: the row sent has the part the client holds
  await window(
    [
      { ...moved, mid: 103 },
      { ...btc, mid: 104 },
    ],
    3,
  )
  // it changes and stays changed
  await window(
    [
      { ...moved, mid: 105 },
      { ...moved, mid: 106 },
    ],
    4,
  )
  await untilTicks(compact.frames, 4)

  t.same(
    full.frames.items.slice(1).map(({ json }) => [json.type, json.data.pair, json.seq, json.data.mid]),
    [
      ['tick', 'ETH-USD', 2, 3001],
      ['tick', 'BTC-USD', 3, 102],
      ['tick', 'BTC-USD', 5, 104],
      ['tick', 'BTC-USD', 7, 106],
    ],
    'the full connection: the latest row per pair per window, its seq jumping by the ticks folded',
  )
  const staticOf = (row: typeof btc) =>
    JSON.stringify({
      type: 'static',
      p: pairBySymbol(row.pair)!.id,
      data: { feed_id: row.feed_id, pair: row.pair, from: row.from, to: row.to, schedule: row.schedule },
    })
  const compactFrames = compact.frames.items.slice(1)
  t.same(
    compactFrames.map(({ json }) => [json.type, json.seq]),
    [
      ['static', undefined],
      ['t', 2],
      ['static', undefined],
      ['t', 3],
      ['t', 5],
      ['static', undefined],
      ['t', 7],
    ],
    'a static part before the first row of a pair and before the row whose part changed, not for a change folded away',
  )
  t.same(
    compactFrames.filter(({ json }) => json.type === 'static').map((frame) => frame.text),
    [staticOf(eth), staticOf(btc), staticOf(moved)],
  )
  t.same(rebuiltRows(compact.frames.items), fullRows(full.frames.items), 'every row rebuilt to the same text, with its seq and cursor')

  await events.events.until(() => (events.events.items.filter((event) => event.event === 't').length >= 4 ? true : undefined), '4 ticks')
  t.same(
    events.events.items.slice(1).map(({ event, id, data }) => [event, id, data]),
    compactFrames.map(({ json, text }) => [json.type, json.cursor, text]),
    'the event stream: the same frames as events, the cursor as id (none on a static part)',
  )
  t.equal(await metricValue(edge.metrics.streamFrames, { type: 'static', rate: 'fixed_rate@200ms' }), 3, 'static frames counted by rate')
})

t.test('a compact connection gets heartbeats, at real time and at a fixed rate, with the cursor of the latest row', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const realTime = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&format=compact&cursor=true&heartbeat=1`)
  const fixedRate = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&format=compact&cursor=true&heartbeat=1&rate=fixed_rate@1000ms`)
  const plain = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&format=compact&heartbeat=1`)
  t.teardown(() => [realTime, fixedRate, plain].forEach((client) => client.socket.terminate()))
  const events = await openEventStream(`${edge.baseUrl}/v1/prices/stream?pairs=BTC-USD&format=compact&heartbeat=1&rate=fixed_rate@1000ms`)
  t.teardown(() => events.abort())
  for (const client of [realTime, fixedRate, plain]) await untilSnapshot(client)
  await events.events.waitFor((event) => event.event === 'snapshot', 'snapshot')

  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: 100 })))
  /** a heartbeat after the tick (a fixed rate's window may come after a heartbeat of the quiet before it) */
  const heartbeatAfterTick = (client: RawFrameClient) =>
    client.frames.until(() => {
      const frames = client.frames.items
      return (
        frames.findIndex((frame) => frame.json.type === 't') < frames.findLastIndex((frame) => frame.json.type === 'heartbeat') || undefined
      )
    }, 'a heartbeat after the tick')
  for (const client of [realTime, fixedRate, plain]) await heartbeatAfterTick(client)
  const tick = realTime.frames.items.find((frame) => frame.json.type === 't')!.json
  const snapshotCursor = realTime.frames.items[0]!.json.cursor
  const heartbeatText = (time: number, cursor?: string) =>
    cursor === undefined ? `{"type":"heartbeat","time":${time}}` : `{"type":"heartbeat","time":${time},"cursor":"${cursor}"}`
  /** the frames up to the first heartbeat after the tick, heartbeats of the quiet before it read as their cursor */
  const framesOf = (frames: ReadonlyArray<{ text: string; json: any }>) => {
    const tickAt = frames.findIndex((frame) => frame.json.type === 't')
    return frames
      .slice(0, tickAt + 2)
      .map(({ json, text }) =>
        json.type === 'heartbeat'
          ? text === heartbeatText(json.time, json.cursor)
            ? `heartbeat at ${json.cursor}`
            : text
          : json.type === 't'
            ? text
            : json.type,
      )
  }
  for (const [name, client] of [
    ['real time', realTime],
    ['fixed rate', fixedRate],
  ] as const) {
    const quiet = client.frames.items.slice(1).findIndex((frame) => frame.json.type !== 'heartbeat')
    t.same(
      framesOf(client.frames.items),
      [
        'snapshot',
        ...Array<string>(quiet).fill(`heartbeat at ${snapshotCursor}`),
        'static',
        JSON.stringify(tick),
        `heartbeat at ${tick.cursor}`,
      ],
      `${name}: the static part and the tick, then a heartbeat carrying the tick's cursor`,
    )
    t.equal(client.frames.items[0]!.json.cursor, snapshotCursor)
  }
  const plainTick = plain.frames.items.findIndex((frame) => frame.json.type === 't')
  const plainHeartbeat = plain.frames.items[plainTick + 1]!
  t.equal(plainHeartbeat.text, heartbeatText(plainHeartbeat.json.time), 'without cursors: type and time')

  await events.events.until(() => {
    const items = events.events.items
    return items.findIndex((event) => event.event === 't') < items.findLastIndex((event) => event.event === 'heartbeat') || undefined
  }, 'a heartbeat event after the tick')
  const eventFrames = events.events.items.map(({ event, id, data }) => ({ text: data, json: { ...JSON.parse(data), type: event, id } }))
  const quietEvents = eventFrames.slice(1).findIndex((frame) => frame.json.type !== 'heartbeat')
  t.same(
    framesOf(eventFrames),
    [
      'snapshot',
      ...Array<string>(quietEvents).fill(`heartbeat at ${snapshotCursor}`),
      'static',
      JSON.stringify(tick),
      `heartbeat at ${tick.cursor}`,
    ],
    'the event stream at a fixed rate: the static part, the tick, then a heartbeat event',
  )
  t.same(
    events.events.items.filter((event) => event.event !== 'static').map((event) => event.id),
    events.events.items.filter((event) => event.event !== 'static').map((event) => JSON.parse(event.data).cursor),
    'every id the cursor its data carries, and none on the static part',
  )
  t.equal(events.events.items.find((event) => event.event === 'static')!.id, undefined)
})

t.test('replay=latest at a fixed rate: the folded replay up to the latest window, then the windows go on', async (t) => {
  const { query, cursor, missed, nextWindow } = await leftAtFixedRate(t)
  t.equal(missed.length, 40, '20 ticks of each pair missed')

  const back = await openRawFrames(`${query}&from=${cursor}&replay=latest`)
  t.teardown(() => back.socket.terminate())
  await untilTicks(back.frames, 2)
  t.same(
    back.frames.items.map((frame) => frame.text),
    [`{"type":"resumed","recovered":true,"cursor":"${cursor}"}`, `{"type":"gap","dropped":38,"cursor":"${cursor}"}`, ...missed.slice(-2)],
    'resumed, one gap counting the 38 ticks folded, then the latest tick of each pair, byte for byte',
  )

  const windowRows = await nextWindow()
  await untilTicks(back.frames, 4)
  t.same(
    back.frames.items.slice(4).map((frame) => frame.text),
    windowRows,
    "then the rate's windows, seq going on, with no gap",
  )
})
