// `?batch=true` at real time: the ticks fan-out sends together (a read's) come in `batch` frames holding exactly the
// frames a connection without `batch` gets one by one, in position order (a cursor inside means what it means alone),
// ticks sent together past 16 KiB of frames come in several batches, and a slow client's gaps stay exact.
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { slowClientAgainstControl } from '../../../test/support/slow-client-gaps.ts'
import { NO_CONFLATION, openRawFrames, untilTicks, type RawFrame } from '../../../test/support/resume-clients.ts'
import { waitFor } from '../../../test/support/wait.ts'

/** The texts of the frames inside every batch received, in order. */
const framesInBatches = (items: readonly RawFrame[]) =>
  items
    .filter((frame) => frame.json.type === 'batch')
    .flatMap((frame) => (frame.json.frames as unknown[]).map((inner) => JSON.stringify(inner)))

t.test('ticks sent together come in one batch, holding the unbatched frames byte for byte, in position order', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const single = await openRawFrames(`${edge.streamUrl}?cursor=true`)
  const batched = await openRawFrames(`${edge.streamUrl}?cursor=true&batch=true`)
  const ethOnly = await openRawFrames(`${edge.streamUrl}?pairs=ETH-USD&batch=true`)
  const compactSingle = await openRawFrames(`${edge.streamUrl}?format=compact`)
  const compactBatched = await openRawFrames(`${edge.streamUrl}?format=compact&batch=true`)
  const clients = [single, batched, ethOnly, compactSingle, compactBatched]
  t.teardown(() => clients.forEach((client) => client.socket.terminate()))
  for (const client of clients) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  const pairs = ['BTC-USD', 'ETH-USD', 'BTC-USD', 'ETH-USD', 'BTC-USD']
  pairs.forEach((pair, index) => edge.bus.publishTick(pair, rowBytes(priceRow(pair, { mid: 100 + index }))))
  await untilTicks(single.frames, pairs.length)
  const singles = single.frames.items.slice(1).map((frame) => frame.text)
  t.same(
    single.frames.items.slice(1).map((frame) => [frame.json.data.pair, frame.json.seq]),
    [
      ['BTC-USD', 1],
      ['ETH-USD', 1],
      ['BTC-USD', 2],
      ['ETH-USD', 2],
      ['BTC-USD', 3],
    ],
    'every tick, in position order, one frame each',
  )
  await waitFor(() => framesInBatches(batched.frames.items).length === pairs.length, { what: 'the batched ticks' })
  const batches = batched.frames.items.slice(1)
  t.ok(
    batches.every((frame) => frame.json.type === 'batch'),
    'after the snapshot, batch frames only',
  )
  t.equal(
    batches.map((frame) => frame.text.slice('{"type":"batch","frames":['.length, -2)).join(','),
    singles.join(','),
    'the frames inside, joined, are the unbatched frames byte for byte, cursors included, in their order',
  )
  t.ok(batches.length < pairs.length, `fewer frames than ticks: ${batches.length} batches for ${pairs.length} ticks`)

  await waitFor(() => framesInBatches(ethOnly.frames.items).length === 2, { what: "the filtered connection's ticks" })
  t.same(
    framesInBatches(ethOnly.frames.items).map((text) => JSON.parse(text).data.mid),
    [101, 103],
    'a filter holds inside the batches',
  )

  await untilTicks(compactSingle.frames, pairs.length)
  const compactSingles = compactSingle.frames.items.slice(1).map((frame) => JSON.stringify(frame.json))
  await waitFor(() => framesInBatches(compactBatched.frames.items).length === compactSingles.length, { what: 'the compact batches' })
  t.same(framesInBatches(compactBatched.frames.items), compactSingles, 'compact: the static parts and compact ticks, in their order')
})

t.test('ticks sent together past 16 KiB of frames come in several batches, none losing a tick', async (t) => {
  const edge = await startTestEdge({ env: NO_CONFLATION })
  t.teardown(edge.stop)
  const single = await openRawFrames(edge.streamUrl)
  const batched = await openRawFrames(`${edge.streamUrl}?batch=true`)
  t.teardown(() => [single, batched].forEach((client) => client.socket.terminate()))
  for (const client of [single, batched]) await client.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  // about 460 bytes a frame: 400 of them are eleven times the limit
  const count = 400
  for (let index = 0; index < count; index++) edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: 1000 + index })))
  await untilTicks(single.frames, count)
  await waitFor(() => framesInBatches(batched.frames.items).length === count, { what: 'every tick in batches' })
  const batches = batched.frames.items.slice(1)
  const largestFrame = Math.max(...single.frames.items.slice(1).map((frame) => frame.text.length))
  t.ok(batches.length >= 11, `${batches.length} batches for ${count} ticks of about ${largestFrame} bytes`)
  t.ok(
    batches.every((frame) => frame.text.length <= 16 * 1024 + largestFrame + 100),
    'none holds more than 16 KiB and the frame that reached it',
  )
  t.same(
    framesInBatches(batched.frames.items).map((text) => JSON.parse(text).seq),
    Array.from({ length: count }, (_, index) => index + 1),
    'every seq, in order, without a gap',
  )
})

t.test('a slow batched client at real time: its gaps count exactly the ticks it was not sent', async (t) => {
  const { mismatches, gapsChecked, received } = await slowClientAgainstControl(t, { rate: 'real_time', extraQuery: '&batch=true' })
  t.same(mismatches, [], 'every gap counts exactly the seq advanced by the ticks it missed, and every tick is the unbatched frame')
  t.ok(gapsChecked >= 1, `gaps checked: ${gapsChecked}`)
  t.ok(
    received.some((frame) => frame.type === 'batch'),
    'ticks came in batches',
  )
})
