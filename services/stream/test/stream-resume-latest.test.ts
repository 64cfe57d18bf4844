// Resuming with `?replay=latest`, and resuming a connection of compact frames, on a real edge with `ws` and the
// event stream: after `resumed`, one gap whose `dropped` is exactly the ticks folded, then each pair's latest
// tick (the control connection's very frame), each pair's seq jumping by its folded ticks plus one; a compact
// resume replays compact ticks, with a static part only for a pair whose part changed while it was away.
import t, { type Test } from 'tap'
import { pairBySymbol } from '../../../schemas/pairs.ts'
import { startTestEdge, type TestEdge } from '../../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import {
  isTickFrame,
  NO_CONFLATION,
  openEventStream,
  openRawFrames,
  RESUME_FILTER,
  roundRobinPublisher,
  ticksAfterCursor,
  untilTicks,
  type RawFrame,
  type RawFrameClient,
} from '../../../test/support/resume-clients.ts'

const PAIRS_IN_FILTER = ['BTC-USD', 'ETH-USD']

/** The pair a tick frame is of, full or compact. */
const pairOf = (json: any): string => json.data?.pair ?? (json.p === pairBySymbol('BTC-USD')!.id ? 'BTC-USD' : 'ETH-USD')

/**
 * A control connection and one that leaves after 20 ticks of the filter, at `cursor`, with each pair's seq
 * then; 40 more of the filter's are published while it is away (20 per pair), of which the control connection
 * has the frames.
 */
async function leaveAndMiss(t: Test, query: string) {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const publish = roundRobinPublisher(edge.bus)
  const control = await openRawFrames(`${edge.streamUrl}?${RESUME_FILTER}&cursor=true&${query}`)
  t.teardown(() => control.socket.terminate())
  const leaving = await openRawFrames(`${edge.streamUrl}?${RESUME_FILTER}&cursor=true&${query}`)
  for (const client of [control, leaving]) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')
  publish(30)
  await untilTicks(leaving.frames, 20)
  const cursor = leaving.frames.items.at(-1)!.json.cursor as string
  const seqAtCursor = Object.fromEntries(PAIRS_IN_FILTER.map((pair) => [pair, lastSeqOf(leaving.frames.items, pair)]))
  await leaving.close()
  publish(60)
  await untilTicks(control.frames, 60)
  return { edge, control, cursor, seqAtCursor, publish }
}

const lastSeqOf = (frames: readonly RawFrame[], pair: string): number =>
  frames.filter(isTickFrame).findLast((frame) => pairOf(frame.json) === pair)?.json.seq

/** The control connection's last tick frame of each pair, in the order they came. */
const latestOfEachPair = (control: RawFrameClient) =>
  control.frames.items
    .filter(isTickFrame)
    .filter((frame, index, ticks) => !ticks.slice(index + 1).some((later) => pairOf(later.json) === pairOf(frame.json)))

for (const format of ['full', 'compact']) {
  t.test(`replay=latest (${format}): one gap for the folded ticks, then each pair's latest tick, and the seq jumps add up`, async (t) => {
    const { edge, control, cursor, seqAtCursor, publish } = await leaveAndMiss(t, `format=${format}`)
    const back = await openRawFrames(`${edge.streamUrl}?${RESUME_FILTER}&format=${format}&from=${cursor}&replay=latest`)
    t.teardown(() => back.socket.terminate())
    await untilTicks(back.frames, 2)
    const latest = latestOfEachPair(control)
    t.same(
      back.frames.items.map((frame) => frame.text),
      [
        JSON.stringify({ type: 'resumed', recovered: true, cursor }),
        JSON.stringify({ type: 'gap', dropped: 38, cursor }),
        ...latest.map((frame) => frame.text),
      ],
      "resumed, a gap of 38 (19 folded per pair), then the control connection's last frame of each pair",
    )
    const jumps = latest.map((frame) => frame.json.seq - seqAtCursor[pairOf(frame.json)]!)
    t.same(jumps, [20, 20], 'each seq jumps by its folded ticks plus one')
    t.equal(
      jumps.reduce((sum, jump) => sum + jump - 1, 0),
      back.frames.items[1]!.json.dropped,
      'the jumps add up to the gap',
    )

    publish(3)
    await untilTicks(back.frames, 4)
    await untilTicks(control.frames, 62)
    t.same(
      back.frames.items.slice(-2).map((frame) => frame.text),
      control.frames.items.slice(-2).map((frame) => frame.text),
      'then live ticks',
    )
  })
}

t.test('a compact resume replays compact ticks, with a static part only for the pair whose part changed meanwhile', async (t) => {
  const { edge, control, cursor } = await leaveAndMiss(t, 'format=compact')
  const moved = priceRow('ETH-USD', { feed_id: '0x' + 'e'.repeat(64) })
  edge.bus.publishTick('ETH-USD', rowBytes(moved))
  await untilTicks(control.frames, 61)
  const missed = ticksAfterCursor(control.frames.items, cursor)
  t.equal(missed.length, 41)
  const back = await openRawFrames(`${edge.streamUrl}?${RESUME_FILTER}&format=compact&from=${cursor}`)
  t.teardown(() => back.socket.terminate())
  await untilTicks(back.frames, 41)
  const staticPart = control.frames.items.at(-2)!
  t.same(staticPart.json, {
    type: 'static',
    p: pairBySymbol('ETH-USD')!.id,
    data: { feed_id: moved.feed_id, pair: 'ETH-USD', from: 'ETH', to: 'USD', schedule: moved.schedule },
  })
  t.same(
    back.frames.items.map((frame) => frame.text),
    [JSON.stringify({ type: 'resumed', recovered: true, cursor }), ...missed.slice(0, -1), staticPart.text, missed.at(-1)],
    'the compact frames the control connection got, byte for byte, the static part before the tick that changed it',
  )
})

const eventsUrl = (edge: TestEdge, query: string) => `${edge.baseUrl}/v1/prices/stream?${RESUME_FILTER}&${query}`

for (const format of ['full', 'compact']) {
  t.test(`an event stream back with Last-Event-ID and replay=latest (${format}): the same gap and latest ticks`, async (t) => {
    const { edge, control, cursor, publish } = await leaveAndMiss(t, `format=${format}`)
    const back = await openEventStream(eventsUrl(edge, `format=${format}&replay=latest`), { 'last-event-id': cursor })
    t.teardown(() => back.abort())
    await back.events.until(() => (back.events.items.length >= 4 ? true : undefined), 'resumed, gap and two ticks')
    const tickEvent = format === 'full' ? 'tick' : 't'
    t.same(
      back.events.items,
      [
        { event: 'resumed', id: cursor, data: JSON.stringify({ type: 'resumed', recovered: true, cursor }) },
        { event: 'gap', id: cursor, data: JSON.stringify({ type: 'gap', dropped: 38, cursor }) },
        ...latestOfEachPair(control).map((frame) => ({ event: tickEvent, id: frame.json.cursor, data: frame.text })),
      ],
      'resumed, a gap of 38, then the latest frame of each pair, its cursor as id',
    )
    publish(3)
    await back.events.until(() => (back.events.items.length >= 6 ? true : undefined), 'two live ticks')
    await untilTicks(control.frames, 62)
    t.same(
      back.events.items.slice(-2).map((event) => event.data),
      control.frames.items.slice(-2).map((frame) => frame.text),
      'then live ticks',
    )
  })
}
