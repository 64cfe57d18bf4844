import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { openStream, type TestStreamClient } from '../../../test/support/stream-clients.ts'

// What a client message gets by its size and encoding (README "Hostile input"): up to 64 KiB an `error`
// reply, above it a close frame 1009 with the reason. Above 1 MiB (maxPayloadLength), and for a text
// message that is not UTF-8, uWebSockets.js closes the TCP connection itself before any handler of ours
// runs: no reply, no close frame, so the client reports 1006. For invalid UTF-8 that is handleFragment in
// uWS's src/WebSocketContext.h calling forceClose(..., ERR_INVALID_TEXT), a plain us_socket_close, in both
// its single-frame and fragmented paths, with no option or hook before it; RFC 6455 8.1 requires failing
// the connection and 7.1.7 allows doing it without a close frame. No ticks are published here, so every
// frame a connection receives after its snapshot is a reply or nothing.

const edge = await startTestEdge()
t.teardown(edge.stop)

async function connect(): Promise<TestStreamClient> {
  const client = await openStream(`${edge.streamUrl}?pairs=BTC-USD`)
  t.teardown(() => client.socket.terminate())
  await client.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')
  return client
}

/** A subscribe to ETH-USD padded to exactly `bytes` bytes with an extra field. */
function subscribeOfSize(bytes: number): string {
  const bare = '{"type":"subscribe","pairs":["ETH-USD"],"pad":""}'
  return `${bare.slice(0, -2)}${'x'.repeat(bytes - bare.length)}"}`
}

/** Sends a message and resolves with the next frame, a reply. */
async function reply(client: TestStreamClient, message: string): Promise<unknown> {
  const from = client.messages.items.length
  client.send(message)
  return client.messages.waitFor(() => true, 'a reply', { from })
}

/** Sends raw bytes as a text message and resolves with the close and what arrived before it. */
async function closeAfter(client: TestStreamClient, send: () => void): Promise<{ code: number; reason: string; frames: unknown[] }> {
  const from = client.messages.items.length
  send()
  const { code, reason } = await client.closed
  return { code, reason, frames: client.messages.items.slice(from) }
}

t.test('over 4 KiB and up to 64 KiB: a malformed error naming the size; the connection and its filter stay', async (t) => {
  const client = await connect()
  t.same(
    await reply(client, subscribeOfSize(4096)),
    { type: 'error', code: 'malformed', message: 'subscribe takes exactly { type, pairs: [pair symbols] }' },
    '4096 bytes are read (and refused for the extra field)',
  )
  for (const size of [4097, 64 * 1024]) {
    t.same(
      await reply(client, subscribeOfSize(size)),
      { type: 'error', code: 'malformed', message: `the message is ${size} bytes; client messages are at most 4096 bytes` },
      `${size} bytes`,
    )
  }
  t.same(
    await reply(client, '{"type":"subscribe","pairs":["ETH-USD"]}'),
    { type: 'ack', for: 'subscribe', pairCount: 2 },
    'still open, one pair added',
  )
})

t.test('over 64 KiB: no reply, a close frame 1009 with the reason', async (t) => {
  const client = await connect()
  t.same(await closeAfter(client, () => client.send(subscribeOfSize(64 * 1024 + 1))), {
    code: 1009,
    reason: 'message of 65537 bytes; client messages are at most 4096 bytes',
    frames: [],
  })
})

t.test('over 1 MiB: uWebSockets.js drops the TCP connection before reading the message (1006, no close frame)', async (t) => {
  const client = await connect()
  t.same(await closeAfter(client, () => client.send(subscribeOfSize(1024 * 1024 + 1))), { code: 1006, reason: '', frames: [] })
})

t.test('a text message that is not UTF-8: the TCP connection is dropped, no reply, no close frame (1006)', async (t) => {
  const whole = await connect()
  t.same(
    await closeAfter(whole, () => whole.socket.send(Buffer.from([0xc0, 0xaf]), { binary: false })),
    { code: 1006, reason: '', frames: [] },
    'in one frame: an overlong encoding of "/"',
  )
  const fragmented = await connect()
  t.same(
    await closeAfter(fragmented, () => {
      fragmented.socket.send('{"type":"subscribe","pairs":["', { fin: false })
      fragmented.socket.send(Buffer.from([0xed, 0xa0, 0x80, 0x22, 0x5d, 0x7d]), { binary: false, fin: true })
    }),
    { code: 1006, reason: '', frames: [] },
    'in fragments: a UTF-16 surrogate in the last one',
  )
  const other = await connect()
  t.same(
    await reply(other, '{"type":"subscribe","pairs":["ETH-USD"]}'),
    { type: 'ack', for: 'subscribe', pairCount: 2 },
    'other connections go on',
  )
})
