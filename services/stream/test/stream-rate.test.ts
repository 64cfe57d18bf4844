// `?rate=fixed_rate@<n>ms`: at each window's end, the latest row of each pair that changed in it, as the same
// tick frame a real-time connection got for that tick (so the seq jump is the ticks folded, and no gap for
// them); a slow client's gaps stay exact; a resume replays every tick after the cursor, then windows go on.
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { slowClientAgainstControl } from '../../../test/support/slow-client-gaps.ts'
import { leftAtFixedRate } from '../../../test/support/fixed-rate-resume.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { NO_CONFLATION, openRawFrames, untilTicks, type RawFrame } from '../../../test/support/resume-clients.ts'

const ticksOf = (frames: readonly RawFrame[]) => frames.filter((frame) => frame.json.type === 'tick')

t.test('each window sends the latest row of each pair that changed in it, the real-time frame of that tick', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const control = await openRawFrames(`${edge.streamUrl}?cursor=true`)
  const folded = await openRawFrames(`${edge.streamUrl}?cursor=true&rate=fixed_rate@200ms`)
  const ethOnly = await openRawFrames(`${edge.streamUrl}?pairs=ETH-USD&rate=fixed_rate@200ms`)
  t.teardown(() => [control, folded, ethOnly].forEach((client) => client.socket.terminate()))
  for (const client of [control, folded, ethOnly]) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  t.equal(await metricValue(edge.metrics.streamRateConnections, { rate: 'fixed_rate@200ms' }), 2, 'connections counted by rate')
  t.equal(await metricValue(edge.metrics.streamRateConnections, { rate: 'real_time' }), 1)

  // published in one turn of the event loop, so within one window: BTC 5 times, ETH 3 times
  let mid = 0
  for (const pair of ['BTC-USD', 'ETH-USD', 'BTC-USD', 'ETH-USD', 'BTC-USD', 'ETH-USD', 'BTC-USD', 'BTC-USD'])
    edge.bus.publishTick(pair, rowBytes(priceRow(pair, { mid: ++mid })))
  await untilTicks(control.frames, 8)
  await untilTicks(folded.frames, 2)
  await untilTicks(ethOnly.frames, 1)
  const controlTicks = ticksOf(control.frames.items)
  t.same(
    folded.frames.items.slice(1).map((frame) => frame.text),
    [controlTicks[5]!.text, controlTicks[7]!.text],
    "ETH's latest then BTC's (position order), each the real-time frame of that tick, byte for byte",
  )
  t.same(
    folded.frames.items.slice(1).map((frame) => [frame.json.data.pair, frame.json.seq]),
    [
      ['ETH-USD', 3],
      ['BTC-USD', 5],
    ],
    'seq jumps from the baselines (0) by the ticks folded, with no gap',
  )
  t.same(
    ethOnly.frames.items.slice(1).map((frame) => frame.json),
    [{ type: 'tick', seq: 3, data: controlTicks[5]!.json.data }],
    'a filter holds',
  )

  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: ++mid })))
  await untilTicks(folded.frames, 3)
  t.same([folded.frames.items[3]!.json.seq, folded.frames.items[3]!.json.data.mid], [6, mid], 'the next window: one tick, a jump of one')
  t.same(ticksOf(ethOnly.frames.items).length, 1, 'nothing for a pair that did not change')
  t.equal(await metricValue(edge.metrics.streamFrames, { type: 'tick', rate: 'fixed_rate@200ms' }), 4, 'tick frames counted by rate')
  t.equal(await metricValue(edge.metrics.streamFrames, { type: 'tick', rate: 'real_time' }), 9)
})

t.test('a slow client at a fixed rate: its gaps count exactly the ticks of the rows it was not sent', async (t) => {
  const { mismatches, gapsChecked } = await slowClientAgainstControl(t)
  t.same(mismatches, [], 'every gap counts exactly the seq advanced by the rows it missed, and every tick is the shared frame')
  t.ok(gapsChecked >= 1, `gaps checked: ${gapsChecked}`)
})

t.test('a resume at a fixed rate replays every tick after the cursor, then the windows go on', async (t) => {
  const { query, cursor, missed, nextWindow } = await leftAtFixedRate(t)
  t.equal(missed.length, 40)

  const back = await openRawFrames(`${query}&from=${cursor}`)
  t.teardown(() => back.socket.terminate())
  await untilTicks(back.frames, 40)
  t.same(back.frames.items[0]!.json, { type: 'resumed', recovered: true, cursor })
  t.same(
    back.frames.items.slice(1).map((frame) => frame.text),
    missed,
    'every tick after the cursor, unfolded, byte for byte, in order, once',
  )

  const windowRows = await nextWindow()
  await untilTicks(back.frames, 42)
  t.same(
    back.frames.items.slice(41).map((frame) => frame.text),
    windowRows,
    "then the windows' rows, seq going on",
  )
})
