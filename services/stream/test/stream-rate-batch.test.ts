// `?rate=fixed_rate@<n>ms&batch=true`: each window's frames in one `batch` frame, the frames inside exactly those a
// connection without `batch` gets one by one; a slow client's gaps inside batches stay exact; `batch=true` is
// refused on an event stream (real time's batches: stream-batch-real-time.test.ts).
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { slowClientAgainstControl } from '../../../test/support/slow-client-gaps.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { NO_CONFLATION, openRawFrames, untilTicks } from '../../../test/support/resume-clients.ts'
import { invalidStreamQuery, queryRefusals } from '../../../test/support/stream-refusals.ts'
import { waitFor } from '../../../test/support/wait.ts'

t.test("each window comes as one batch frame, holding the frames of the window's rows as they come unbatched", async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const single = await openRawFrames(`${edge.streamUrl}?cursor=true&rate=fixed_rate@200ms`)
  const batched = await openRawFrames(`${edge.streamUrl}?cursor=true&rate=fixed_rate@200ms&batch=true`)
  const ethOnly = await openRawFrames(`${edge.streamUrl}?pairs=ETH-USD&rate=fixed_rate@200ms&batch=true`)
  const compactSingle = await openRawFrames(`${edge.streamUrl}?format=compact&rate=fixed_rate@200ms`)
  const compactBatched = await openRawFrames(`${edge.streamUrl}?format=compact&rate=fixed_rate@200ms&batch=true`)
  const clients = [single, batched, ethOnly, compactSingle, compactBatched]
  t.teardown(() => clients.forEach((client) => client.socket.terminate()))
  for (const client of clients) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  // published in one turn of the event loop, so within one window: BTC 5 times, ETH 3 times
  let mid = 0
  for (const pair of ['BTC-USD', 'ETH-USD', 'BTC-USD', 'ETH-USD', 'BTC-USD', 'ETH-USD', 'BTC-USD', 'BTC-USD'])
    edge.bus.publishTick(pair, rowBytes(priceRow(pair, { mid: ++mid })))
  await untilTicks(single.frames, 2)
  await batched.frames.waitFor((frame) => frame.json.type === 'batch', 'the batch')
  await ethOnly.frames.waitFor((frame) => frame.json.type === 'batch', "the filtered connection's batch")
  const singles = single.frames.items.slice(1).map((frame) => frame.json)
  t.same(
    singles.map((frame) => [frame.data.pair, frame.seq]),
    [
      ['ETH-USD', 3],
      ['BTC-USD', 5],
    ],
  )
  t.same(
    batched.frames.items.slice(1).map((frame) => frame.json),
    [{ type: 'batch', frames: singles }],
    'one frame after the snapshot, holding the unbatched frames in their order',
  )
  t.equal(
    batched.frames.items[1]!.text,
    `{"type":"batch","frames":[${single.frames.items[1]!.text},${single.frames.items[2]!.text}]}`,
    'the frames inside are the unbatched frames, byte for byte',
  )
  t.same(
    ethOnly.frames.items.slice(1).map((frame) => frame.json),
    [{ type: 'batch', frames: [{ type: 'tick', seq: 3, data: singles[0].data }] }],
    'a filter holds',
  )
  await compactBatched.frames.waitFor((frame) => frame.json.type === 'batch', 'the compact batch')
  await waitFor(() => compactSingle.frames.items.filter((frame) => frame.json.type === 't').length === 2, { what: 'the compact ticks' })
  t.same(
    compactBatched.frames.items.slice(1).map((frame) => frame.json),
    [{ type: 'batch', frames: compactSingle.frames.items.slice(1).map((frame) => frame.json) }],
    'compact: the static parts and compact ticks, in their order, in one batch',
  )
  t.ok(
    compactBatched.frames.items[1]!.json.frames.some((frame: any) => frame.type === 'static'),
    'a static part among them (the rows changed it since the snapshot)',
  )

  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: ++mid })))
  await waitFor(() => batched.frames.items.length === 3, { what: 'the next window' })
  t.same(
    batched.frames.items[2]!.json.frames.map((frame: any) => [frame.seq, frame.data.mid]),
    [[6, mid]],
    'the next window: one tick, a jump of one',
  )
  t.equal(ethOnly.frames.items.length, 2, 'no batch for a window that sent none of its pairs')
  t.equal(
    await metricValue(edge.metrics.streamFrames, { type: 'batch', rate: 'fixed_rate@200ms' }),
    5,
    'batch frames counted by rate: three in the first window, two in the next',
  )
})

t.test('a slow batched client: its gaps count exactly the ticks of the rows it was not sent', async (t) => {
  const { mismatches, gapsChecked, received } = await slowClientAgainstControl(t, { extraQuery: '&batch=true' })
  t.same(mismatches, [], 'every gap counts exactly the seq advanced by the rows it missed, and every tick is the unbatched frame')
  t.ok(gapsChecked >= 1, `gaps checked: ${gapsChecked}`)
  t.ok(
    received.some((frame) => frame.type === 'batch'),
    'ticks came in batches',
  )
})

t.test('batch=true is refused on an event stream, and spelled otherwise; at any rate it upgrades', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const misspelt = {
    status: 400,
    body: invalidStreamQuery({
      code: 'invalid_value',
      values: ['true', 'false'],
      path: ['batch'],
      message: 'Invalid option: expected one of "true"|"false"',
    }),
  }
  t.same(await queryRefusals(edge, 'batch=yes&rate=fixed_rate@200ms'), { upgrade: misspelt, eventStream: misspelt }, 'batch=yes')
  const overEvents = {
    status: 400,
    body: invalidStreamQuery({
      code: 'custom',
      path: ['batch'],
      message: 'batch=true is for WebSocket connections: an event stream sends one event per frame',
    }),
  }
  for (const query of ['batch=true', 'batch=true&rate=real_time', 'rate=fixed_rate@200ms&batch=true']) {
    const answers = await queryRefusals(edge, query)
    t.same(answers.eventStream, overEvents, `${query}, as an event stream`)
    t.equal(answers.upgrade.status, 101, `${query} upgrades`)
  }
})
