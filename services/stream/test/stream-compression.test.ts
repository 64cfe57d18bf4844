import t, { type Test } from 'tap'
import { constants, inflateRawSync } from 'node:zlib'
import { startTestEdge, type TestEdge } from '../../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { RawStreamClient, type ReceivedFrame } from '../../../test/support/raw-ws.ts'
import { openStream, type TestStreamClient } from '../../../test/support/stream-clients.ts'

// permessage-deflate (RFC 7692): what a client offering it negotiates with each STREAM_COMPRESSION, and
// that a client not offering it gets the very frames it gets with compression off.

const OFFER = { 'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits' }
const TICKS = [priceRow('BTC-USD', { mid: 95000.5 }), priceRow('ETH-USD', { mid: 3400.25 }), priceRow('BTC-USD', { mid: 95001 })]
/** the frames after the snapshot, as a client that does not offer compression receives them */
const expectedTicks = TICKS.map((row, index) => `{"type":"tick","seq":${index === 2 ? 2 : 1},"data":${rowBytes(row).toString()}}`)

/** RFC 7692 7.2.2: a message compressed without context is a raw deflate stream, flushed, less the flush's 4-byte tail */
const inflated = (frame: ReceivedFrame) =>
  inflateRawSync(Buffer.concat([frame.payload, Buffer.from([0x00, 0x00, 0xff, 0xff])]), { finishFlush: constants.Z_SYNC_FLUSH }).toString()

async function edgeWith(t: Test, compression: string): Promise<TestEdge> {
  const edge = await startTestEdge({ env: { STREAM_COMPRESSION: compression } })
  t.teardown(edge.stop)
  return edge
}

/** A raw client that offers permessage-deflate, one that does not, and a `ws` client that offers it. */
async function threeClients(t: Test, edge: TestEdge) {
  const offering = await RawStreamClient.connect(edge.streamUrl, { headers: OFFER })
  const plain = await RawStreamClient.connect(edge.streamUrl)
  const library = await openStream(edge.streamUrl, { perMessageDeflate: true })
  t.teardown(() => (offering.destroy(), plain.destroy(), library.socket.terminate()))
  return { offering, plain, library }
}

/** Waits for the snapshot on every client, publishes TICKS, and waits until each client holds all of them. */
async function publishTicks(edge: TestEdge, raw: RawStreamClient[], ws: TestStreamClient[]): Promise<void> {
  for (const client of raw) await client.frames.until(() => client.frames.items.length >= 1 || undefined, 'the snapshot')
  for (const client of ws) await client.messages.waitFor(() => true, 'the snapshot')
  for (const row of TICKS) edge.bus.publishTick(row.pair, rowBytes(row))
  for (const client of raw) await client.frames.until(() => client.frames.items.length >= 1 + TICKS.length || undefined, 'every tick')
  for (const client of ws) await client.messages.until(() => client.messages.items.length >= 1 + TICKS.length || undefined, 'every tick')
}

t.test('shared: a client that offers permessage-deflate gets each snapshot and tick compressed on its own', async (t) => {
  const edge = await edgeWith(t, 'shared')
  edge.bus.publishTick('EUR-USD', rowBytes(priceRow('EUR-USD', { mid: 1.08 })))
  const { offering, plain, library } = await threeClients(t, edge)

  t.equal(
    offering.upgradeHeaders['sec-websocket-extensions'],
    'permessage-deflate; client_no_context_takeover; server_no_context_takeover',
    'negotiated without context on either side',
  )
  t.equal(plain.upgradeHeaders['sec-websocket-extensions'], undefined, 'nothing negotiated with a client that does not offer it')
  t.equal(library.socket.extensions, 'permessage-deflate', 'the ws package accepts the answer')

  await publishTicks(edge, [offering, plain], [library])
  t.same(
    offering.frames.items.map((frame) => frame.compressed),
    [true, true, true, true],
    'snapshot and ticks arrive compressed',
  )
  t.same(
    plain.frames.items.map((frame) => frame.compressed),
    [false, false, false, false],
    'and uncompressed to the client that did not offer it',
  )
  t.same(
    offering.frames.items.map(inflated),
    plain.frames.items.map((frame) => frame.payload.toString()),
    'each inflates to the plain client’s frame, byte for byte',
  )
  t.same(
    plain.frames.items.slice(1).map((frame) => frame.payload.toString()),
    expectedTicks,
    'the plain client’s ticks are the row bytes in a frame',
  )
  t.ok(offering.frames.items[0]!.payload.length * 2 < plain.frames.items[0]!.payload.length, 'the snapshot is less than half its size')
  t.same(library.messages.items, plain.messages, 'the ws package decodes the same JSON')

  // a client message compressed by the client (ws compresses above its threshold, here 0 bytes) is inflated
  const compressing = await openStream(`${edge.streamUrl}?pairs=BTC-USD`, { perMessageDeflate: { threshold: 0 } })
  t.teardown(() => compressing.socket.terminate())
  await compressing.messages.waitFor((message) => message.type === 'snapshot', 'the snapshot')
  compressing.send({ type: 'subscribe', pairs: ['ETH-USD'] })
  t.same(await compressing.messages.waitFor((message) => message.type !== 'snapshot', 'the reply'), {
    type: 'ack',
    for: 'subscribe',
    pairCount: 2,
  })
})

t.test('snapshots: the snapshot goes compressed, ticks as they are', async (t) => {
  const edge = await edgeWith(t, 'snapshots')
  const { offering, plain, library } = await threeClients(t, edge)

  t.equal(offering.upgradeHeaders['sec-websocket-extensions'], 'permessage-deflate; client_no_context_takeover; server_no_context_takeover')
  t.equal(plain.upgradeHeaders['sec-websocket-extensions'], undefined)
  await publishTicks(edge, [offering, plain], [library])
  t.same(
    offering.frames.items.map((frame) => frame.compressed),
    [true, false, false, false],
    'only the snapshot is compressed',
  )
  t.equal(inflated(offering.frames.items[0]!), plain.frames.items[0]!.payload.toString(), 'it inflates to the plain snapshot')
  t.same(
    offering.frames.items.slice(1).map((frame) => frame.payload.toString()),
    expectedTicks,
    'the ticks are the plain frames',
  )
  t.same(
    plain.frames.items.map((frame) => frame.compressed),
    [false, false, false, false],
  )
  t.same(library.messages.items, plain.messages, 'the ws package decodes the same JSON')
})

t.test('dedicated-4kb: a window per socket; the ws package decodes the same frames', async (t) => {
  const edge = await edgeWith(t, 'dedicated-4kb')
  const { offering, plain, library } = await threeClients(t, edge)

  t.equal(offering.upgradeHeaders['sec-websocket-extensions'], 'permessage-deflate; client_no_context_takeover; server_max_window_bits=9')
  t.equal(plain.upgradeHeaders['sec-websocket-extensions'], undefined)
  await publishTicks(edge, [offering, plain], [library])
  t.same(
    offering.frames.items.map((frame) => frame.compressed),
    [true, true, true, true],
  )
  t.same(
    plain.frames.items.map((frame) => frame.payload.toString()),
    [plain.frames.items[0]!.payload.toString(), ...expectedTicks],
    'uncompressed to the client that did not offer it',
  )
  t.same(library.messages.items, plain.messages, 'the ws package decodes the same JSON')
})

t.test('off: a client that offers permessage-deflate gets nothing negotiated and the plain frames', async (t) => {
  const edge = await edgeWith(t, 'off')
  const offering = await RawStreamClient.connect(edge.streamUrl, { headers: OFFER })
  const plain = await RawStreamClient.connect(edge.streamUrl)
  t.teardown(() => (offering.destroy(), plain.destroy()))
  t.equal(offering.upgradeHeaders['sec-websocket-extensions'], undefined)
  await publishTicks(edge, [offering, plain], [])
  t.same(
    offering.frames.items.map((frame) => [frame.compressed, frame.payload.toString()]),
    plain.frames.items.map((frame) => [false, frame.payload.toString()]),
  )
  t.same(
    plain.frames.items.slice(1).map((frame) => frame.payload.toString()),
    expectedTicks,
  )
})

t.test('STREAM_COMPRESSION is checked at start', async (t) => {
  await t.rejects(startTestEdge({ env: { STREAM_COMPRESSION: 'gzip' } }), {
    code: 'config_invalid',
    message: /STREAM_COMPRESSION="gzip": Invalid option: expected one of "off"\|"snapshots"\|"shared"\|"dedicated-3kb"/,
  })
})
