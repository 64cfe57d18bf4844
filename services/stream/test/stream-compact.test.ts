// Compact frames (`?format=compact`) on a real edge, read with `ws` beside a connection of full rows: the
// same ticks, seq and cursors, each row rebuilt from the static part the connection holds and the tick's
// positional array to the very text the full connection gets; a static part again only when it changes, or
// for a pair a `subscribe` adds; a bad `format` or `replay` refused with 400 before the upgrade.
import t from 'tap'
import { pairBySymbol } from '../../../schemas/pairs.ts'
import type { PriceRow } from '../../../schemas/price.ts'
import { fullRows, rebuiltRows } from '../../../test/support/compact-rows.ts'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { rawUpgrade } from '../../../test/support/raw-ws.ts'
import {
  isTickFrame,
  NO_CONFLATION,
  openEventStream,
  openRawFrames,
  RESUME_FILTER,
  roundRobinPublisher,
  untilTicks,
} from '../../../test/support/resume-clients.ts'

t.test('compact ticks stand for the very rows, seq and cursors a full connection gets, in at most 100 bytes', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const publish = roundRobinPublisher(edge.bus)
  publish(3) // every pair of the filter has a row before the connections open
  const full = await openRawFrames(`${edge.streamUrl}?${RESUME_FILTER}&cursor=true`)
  t.teardown(() => full.socket.terminate())
  const compact = await openRawFrames(`${edge.streamUrl}?${RESUME_FILTER}&cursor=true&format=compact`)
  t.teardown(() => compact.socket.terminate())
  const plain = await openRawFrames(`${edge.streamUrl}?${RESUME_FILTER}&format=compact`)
  t.teardown(() => plain.socket.terminate())
  for (const client of [full, compact, plain]) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  const [fullSnapshot, compactSnapshot] = [full.frames.items[0]!.json, compact.frames.items[0]!.json]
  t.same(Object.keys(compactSnapshot), ['type', 'seq', 'data', 'ids', 'cursor'], 'the snapshot: full rows, their pair ids, the cursor')
  t.same(compactSnapshot.ids, [pairBySymbol('BTC-USD')!.id, pairBySymbol('ETH-USD')!.id])
  t.same({ ...compactSnapshot, ids: undefined }, { ...fullSnapshot, ids: undefined }, 'seq, rows and cursor as the full snapshot')

  publish(30) // 20 ticks of the filter
  for (const client of [full, compact, plain]) await untilTicks(client.frames, 20)
  const compactTicks = compact.frames.items.filter(isTickFrame)
  t.same(rebuiltRows(compact.frames.items), fullRows(full.frames.items), 'every row rebuilt to the same text, with its seq and cursor')
  t.equal(compact.frames.items.length, 21, 'no static frame: the snapshot had every static part')
  const tick = compactTicks[0]!
  t.same(Object.keys(tick.json), ['type', 'seq', 'p', 'd', 'cursor'])
  t.match(tick.text, /^\{"type":"t","seq":\d+,"p":\d+,"d":\[99\.5,\d+,100\.5,1,-1,\d+\],"cursor":"[0-9a-z]+-\d+"\}$/)
  const plainTicks = plain.frames.items.filter(isTickFrame)
  t.same(
    plainTicks.map((frame) => frame.text),
    compactTicks.map((frame) => frame.text.replace(/,"cursor":"[^"]+"/, '')),
    'without cursor=true: the same frames without the cursor',
  )
  const longest = Math.max(...plainTicks.map((frame) => Buffer.byteLength(frame.text)))
  t.ok(longest <= 100, `at most 100 bytes per tick (${longest}; full rows: ${Buffer.byteLength(full.frames.items[1]!.text)})`)
})

t.test('a static part comes before the first tick of a pair the snapshot had no row for, and again only when it changes', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const full = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD`)
  t.teardown(() => full.socket.terminate())
  const compact = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&format=compact`)
  t.teardown(() => compact.socket.terminate())
  for (const client of [full, compact]) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  t.same(compact.frames.items[0]!.json, { type: 'snapshot', seq: { 'BTC-USD': 0 }, data: [], ids: [] }, 'no row yet')

  const btc = priceRow('BTC-USD', { mid: 100 })
  const moved = priceRow('BTC-USD', { mid: 101, feed_id: '0x' + 'f'.repeat(64) })
  for (const row of [btc, { ...btc, mid: 100.25 }, moved, { ...moved, mid: 101.25 }]) edge.bus.publishTick('BTC-USD', rowBytes(row))
  for (const client of [full, compact]) await untilTicks(client.frames, 4)
  const { feed_id, pair, from, to, schedule } = btc
  const id = pairBySymbol('BTC-USD')!.id
  t.same(
    compact.frames.items.slice(1).map((frame) => frame.json.type),
    ['static', 't', 't', 'static', 't', 't'],
    'a static part before the first tick and before the one whose feed id changed, not otherwise',
  )
  t.equal(compact.frames.items[1]!.text, JSON.stringify({ type: 'static', p: id, data: { feed_id, pair, from, to, schedule } }))
  t.same(compact.frames.items[4]!.json.data.feed_id, moved.feed_id)
  t.same(rebuiltRows(compact.frames.items), fullRows(full.frames.items), 'the rows, rebuilt')
})

t.test('a row on the bus that is not a price row: compact connections get the pair’s previous values, counted once', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const compact = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&format=compact`)
  // a fixed rate splits the rows it sends for itself: the same row, malformed there too, is counted once
  const fixedRate = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&format=compact&rate=fixed_rate@50ms`)
  t.teardown(() => [compact, fixedRate].forEach((client) => client.socket.terminate()))
  for (const client of [compact, fixedRate]) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  const rows = [rowBytes(priceRow('BTC-USD', { mid: 100 })), Buffer.from('not a row'), rowBytes(priceRow('BTC-USD', { mid: 102 }))]
  // one at a time, so that each is its window's row
  for (const [index, row] of rows.entries()) {
    edge.bus.publishTick('BTC-USD', row)
    for (const client of [compact, fixedRate]) await untilTicks(client.frames, index + 1)
  }
  for (const client of [compact, fixedRate]) {
    const ticks = client.frames.items.filter(isTickFrame).map(({ json }) => ({ seq: json.seq, mid: json.d[1] }))
    t.same(ticks, [
      { seq: 1, mid: 100 },
      { seq: 2, mid: 100 },
      { seq: 3, mid: 102 },
    ])
  }
  t.equal((await edge.metrics.streamMalformedRows.get()).values[0]?.value, 1, 'venue_stream_malformed_rows_total')
})

t.test('an event stream of compact frames: the static part as an event without id, the tick as `t` with its cursor', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const full = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&cursor=true&format=compact`)
  t.teardown(() => full.socket.terminate())
  const events = await openEventStream(`${edge.baseUrl}/v1/prices/stream?pairs=BTC-USD&format=compact`)
  t.teardown(() => events.abort())
  await events.events.waitFor((event) => event.event === 'snapshot', 'snapshot')
  await full.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: 100 })))
  await events.events.waitFor((event) => event.event === 't', 'a compact tick')
  await untilTicks(full.frames, 1)
  const [staticPart, tick] = full.frames.items.slice(1)
  t.same(events.events.items.slice(1), [
    { event: 'static', id: undefined, data: staticPart!.text },
    { event: 't', id: tick!.json.cursor, data: tick!.text },
  ])
})

t.test('a pair added by subscribe gets its static part before the ack', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  roundRobinPublisher(edge.bus)(3)
  const compact = await openRawFrames(`${edge.streamUrl}?pairs=BTC-USD&format=compact`)
  t.teardown(() => compact.socket.terminate())
  await compact.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  compact.socket.send(JSON.stringify({ type: 'subscribe', pairs: ['ETH-USD', 'BTC-USD'] }))
  await compact.frames.waitFor((frame) => frame.json.type === 'ack', 'ack')
  const eth = JSON.parse(rowBytes(priceRow('ETH-USD')).toString()) as PriceRow
  t.same(
    compact.frames.items.slice(1).map((frame) => frame.json),
    [
      {
        type: 'static',
        p: pairBySymbol('ETH-USD')!.id,
        data: { feed_id: eth.feed_id, pair: 'ETH-USD', from: 'ETH', to: 'USD', schedule: eth.schedule },
      },
      { type: 'ack', for: 'subscribe', pairCount: 2 },
    ],
  )
})

t.test('an unknown format or replay, or either repeated, is refused before the upgrade: 400 in the framework shape', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const cases: Array<[string, object]> = [
    [
      'format=binary',
      { code: 'invalid_value', values: ['full', 'compact'], path: ['format'], message: 'Invalid option: expected one of "full"|"compact"' },
    ],
    [
      'format=compact&format=full',
      { code: 'invalid_value', values: ['full', 'compact'], path: ['format'], message: 'Invalid option: expected one of "full"|"compact"' },
    ],
    [
      'from=abc-1&replay=folded',
      { code: 'invalid_value', values: ['all', 'latest'], path: ['replay'], message: 'Invalid option: expected one of "all"|"latest"' },
    ],
    [
      'replay=latest&replay=latest',
      { code: 'invalid_value', values: ['all', 'latest'], path: ['replay'], message: 'Invalid option: expected one of "all"|"latest"' },
    ],
  ]
  for (const [query, issue] of cases) {
    const refused = await rawUpgrade(`${edge.streamUrl}?pairs=BTC-USD&${query}`)
    refused.socket.destroy()
    t.equal(refused.status, 400, query)
    t.same(
      JSON.parse(refused.rest.toString()),
      { error: 'Bad Request', message: 'invalid query for the price stream', issues: [issue] },
      query,
    )
  }
  const events = await fetch(`${edge.baseUrl}/v1/prices/stream?format=short`, { headers: { accept: 'text/event-stream' } })
  t.equal(events.status, 400, 'the event stream too')
  t.same(((await events.json()) as { issues: Array<{ path: string[] }> }).issues[0]!.path, ['format'])
})
