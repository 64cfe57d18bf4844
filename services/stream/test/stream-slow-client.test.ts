import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { bulkyRowBytes, priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { RawStreamClient } from '../../../test/support/raw-ws.ts'
import { openStream, publishUntilLagging, rowsShortOfAWholeWrite } from '../../../test/support/stream-clients.ts'
import { waitFor } from '../../../test/support/wait.ts'

t.test(
  'a paused reader: ticks above the limit are dropped, and after it resumes a gap with the exact count precedes the next tick',
  async (t) => {
    // fan-out never conflates here (the harness's slice; conflation is the next test's subject)
    const edge = await startTestEdge()
    t.teardown(edge.stop)
    const paused = await RawStreamClient.connect(`${edge.streamUrl}?pairs=BTC-USD`)
    const reader = await openStream(`${edge.streamUrl}?pairs=BTC-USD`)
    t.teardown(() => (paused.destroy(), reader.socket.terminate()))
    await paused.frames.waitFor((frame) => frame.json?.type === 'snapshot', 'snapshot')
    paused.pause()

    let published = 0
    const publish = (count: number) => {
      for (let index = 0; index < count; index++) edge.bus.publishTick('BTC-USD', bulkyRowBytes('BTC-USD', ++published))
    }
    // the reading client is read by this process, which also publishes: it is let catch up after every batch, so
    // on a busy machine it stays well below the limit while the paused one crosses it
    await publishUntilLagging(
      edge,
      async () => {
        publish(100)
        await reader.messages.waitFor((message) => message.seq === published, 'the reading client to keep up', { timeoutMs: 20_000 })
      },
      { timeoutMs: 40_000 },
    )
    publish(25)
    const publishedWhilePaused = published
    await reader.messages.waitFor((message) => message.seq === publishedWhilePaused, 'the reading client to get every tick')

    paused.resume()
    await paused.frames.waitFor((frame) => frame.json?.type === 'gap', 'the gap', { timeoutMs: 20_000 })
    // while its buffer hovers at the limit, a tick may be dropped again and announced by another gap
    await waitFor(
      () => {
        if (paused.messages.some((message) => message.type === 'tick' && message.seq > publishedWhilePaused)) return true
        publish(1)
        return false
      },
      { what: 'a tick published after the resume to arrive' },
    )

    // every tick published ends up delivered or announced as dropped
    const accounted = () => paused.messages.slice(1).reduce((sum, frame) => sum + (frame.type === 'gap' ? frame.dropped : 1), 0)
    await paused.frames.until(() => accounted() === published || undefined, 'every tick to be delivered or announced')

    const frames = paused.messages.slice(1)
    const firstGap = frames.findIndex((frame) => frame.type === 'gap')
    t.ok(
      frames.slice(0, firstGap).every((frame, index) => frame.type === 'tick' && frame.seq === index + 1),
      'ticks up to the first gap arrive in order, none missing',
    )
    t.ok(frames[firstGap].dropped >= 25, 'the ticks published while it lagged were dropped')
    const mismatches: string[] = []
    let lastSeq = 0
    let announced = 0
    for (const frame of frames) {
      if (frame.type === 'gap') {
        if (announced > 0) mismatches.push(`two gaps in a row (${announced}, ${frame.dropped})`)
        announced = frame.dropped
        continue
      }
      if (frame.seq !== lastSeq + announced + 1) mismatches.push(`seq ${frame.seq} after ${lastSeq} and a gap of ${announced}`)
      lastSeq = frame.seq
      announced = 0
    }
    t.same(mismatches, [], 'each gap precedes the next tick, and its seq jumps by exactly the count dropped')
    const gaps = frames.filter((frame) => frame.type === 'gap')
    const dropped = gaps.reduce((sum, frame) => sum + frame.dropped, 0)
    t.same(Object.keys(gaps[0]), ['type', 'dropped'])
    t.equal(await metricValue(edge.metrics.streamDroppedTicks), dropped)
    t.equal(await metricValue(edge.metrics.streamLaggingConnections), 0)
    t.ok(
      reader.messages.items.slice(1).every((message, index) => message.type === 'tick' && message.seq === index + 1),
      'the reading client lost nothing',
    )
  },
)

t.test('when fan-out falls behind, waiting ticks conflate to the latest row per pair, with a gap for what was superseded', async (t) => {
  // a zero slice: a turn sends in order only until a connection taking every pair has a whole write (32 frames)
  // queued; the rest waits for the next turn
  const edge = await startTestEdge({ env: { STREAM_FANOUT_SLICE_MS: '0' } })
  t.teardown(edge.stop)
  const everything = await openStream(edge.streamUrl)
  const ethOnly = await openStream(`${edge.streamUrl}?pairs=ETH-USD`)
  const btcOnly = await openStream(`${edge.streamUrl}?pairs=BTC-USD`)
  t.teardown(() => (everything.socket.terminate(), ethOnly.socket.terminate(), btcOnly.socket.terminate()))
  for (const client of [everything, ethOnly, btcOnly]) await client.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')

  // one frame short of a whole write, which the next tick fills
  const fillers = rowsShortOfAWholeWrite()
  for (const row of fillers) edge.bus.publishTick(row.pair, rowBytes(row))
  const rows = [
    priceRow('BTC-USD', { mid: 1 }),
    priceRow('ETH-USD', { mid: 2 }),
    priceRow('BTC-USD', { mid: 3 }),
    priceRow('BTC-USD', { mid: 4 }),
    priceRow('BTC-USD', { mid: 5 }),
  ]
  for (const row of rows) edge.bus.publishTick(row.pair, rowBytes(row))
  await everything.messages.waitFor((message) => message.data?.mid === 5, 'the latest BTC row')
  await btcOnly.messages.waitFor((message) => message.data?.mid === 5, 'the latest BTC row')
  await ethOnly.messages.waitFor((message) => message.data?.mid === 2, 'the ETH row')

  // SOL 1-31 and BTC 1 fill a write (32 frames) and go out at once; ETH and BTC wait, BTC 3 and 4 are superseded by 5, and
  // the waiting rows go out together after one gap for connections that receive every pair
  t.same(everything.messages.items.slice(1), [
    ...fillers.map((row, index) => ({ type: 'tick', seq: index + 1, data: row })),
    { type: 'tick', seq: 1, data: rows[0] },
    { type: 'gap', dropped: 2 },
    { type: 'tick', seq: 1, data: rows[1] },
    { type: 'tick', seq: 4, data: rows[4] },
  ])
  t.same(ethOnly.messages.items.slice(1), [{ type: 'tick', seq: 1, data: rows[1] }], 'no gap where nothing it wanted was dropped')
  t.same(
    btcOnly.messages.items.slice(1),
    [
      { type: 'tick', seq: 1, data: rows[0] },
      { type: 'gap', dropped: 2 },
      { type: 'tick', seq: 4, data: rows[4] },
    ],
    'a filtered connection is told just before the frame of the pair',
  )
  t.equal(await metricValue(edge.metrics.streamConflatedTicks), 2)
})
