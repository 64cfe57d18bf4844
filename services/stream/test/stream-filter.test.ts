import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { openStream, type TestStreamClient } from '../../../test/support/stream-clients.ts'

// Table 3.4 and the error codes of spec 6.1, through real connections. Replies come in order, one per
// message, so each step sends one message and takes the next frame as its reply.

const edge = await startTestEdge({ env: { STREAM_MESSAGES_PER_SOCKET_PER_MINUTE: '12' } })
t.teardown(edge.stop)

async function connect(query = ''): Promise<TestStreamClient> {
  const client = await openStream(edge.streamUrl + query)
  t.teardown(() => client.socket.terminate())
  await client.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')
  return client
}

/** Sends one message and resolves with the next frame that is not a tick. */
async function request(client: TestStreamClient, message: unknown): Promise<any> {
  const from = client.messages.items.length
  client.send(message)
  return client.messages.waitFor((frame) => frame.type !== 'tick', 'a reply', { from })
}

/** Publishes a tick per pair, then a marker tick every connection wants, and returns the pairs each tick reached before the marker. */
async function ticksReaching(client: TestStreamClient, pairs: string[], marker = 'SOL-USD'): Promise<string[]> {
  const from = client.messages.items.length
  for (const pair of [...pairs, marker]) edge.bus.publishTick(pair, rowBytes(priceRow(pair)))
  const end = await client.messages.waitFor((frame) => frame.type === 'tick' && frame.data.pair === marker, `the ${marker} tick`, { from })
  return client.messages.items.slice(from, client.messages.items.indexOf(end)).map((frame) => frame.data.pair)
}

t.test('unfiltered: subscribe is a no-op ack with pairCount null, whatever it lists; unsubscribe is no_filter', async (t) => {
  const client = await connect()
  t.same(await request(client, { type: 'subscribe', pairs: ['BTC-USD'] }), { type: 'ack', for: 'subscribe', pairCount: null })
  t.same(await request(client, { type: 'subscribe', pairs: ['NOT-A-PAIR'] }), { type: 'ack', for: 'subscribe', pairCount: null })
  t.same(await request(client, { type: 'unsubscribe', pairs: ['BTC-USD'] }), {
    type: 'error',
    code: 'no_filter',
    message: 'this connection receives every asset; to narrow it, reconnect with ?pairs=',
  })
  t.same(await ticksReaching(client, ['BTC-USD', 'EUR-USD']), ['BTC-USD', 'EUR-USD'], 'still every asset')
})

t.test('filtered: subscribe widens, unsubscribe narrows, each acked with the new count', async (t) => {
  const client = await connect('?pairs=BTC-USD,SOL-USD')
  t.same(await ticksReaching(client, ['BTC-USD', 'ETH-USD']), ['BTC-USD'])
  t.same(await request(client, { type: 'subscribe', pairs: ['ETH-USD', 'BTC-USD'] }), { type: 'ack', for: 'subscribe', pairCount: 3 })
  t.same(await ticksReaching(client, ['BTC-USD', 'ETH-USD', 'EUR-USD']), ['BTC-USD', 'ETH-USD'], 'wider')
  t.same(await request(client, { type: 'unsubscribe', pairs: ['BTC-USD', 'XAU-USD'] }), { type: 'ack', for: 'unsubscribe', pairCount: 2 })
  t.same(await ticksReaching(client, ['BTC-USD', 'ETH-USD']), ['ETH-USD'], 'narrower')
})

t.test('legacy spellings name the same asset: counted once, every frame names it by its symbol', async (t) => {
  const client = await connect('?pairs=SPX-USD,US500-USD,SOL-USD')
  t.same(await ticksReaching(client, ['US500-USD', 'WTI-USD']), ['US500-USD'], '?pairs=SPX-USD receives US500-USD')
  t.same(await request(client, { type: 'subscribe', pairs: ['CL-USD', 'WTI-USD'] }), { type: 'ack', for: 'subscribe', pairCount: 3 })
  t.same(await ticksReaching(client, ['US500-USD', 'WTI-USD', 'XCU-USD']), ['US500-USD', 'WTI-USD'])
  t.same(await request(client, { type: 'unsubscribe', pairs: ['SPX-USD'] }), { type: 'ack', for: 'unsubscribe', pairCount: 2 })
  t.same(await ticksReaching(client, ['US500-USD', 'WTI-USD']), ['WTI-USD'], 'unsubscribed by its legacy spelling')
})

t.test('removing the last asset leaves a filtered connection with 0 assets; a later subscribe resumes delivery', async (t) => {
  const client = await connect('?pairs=BTC-USD')
  t.same(await request(client, { type: 'unsubscribe', pairs: ['BTC-USD'] }), { type: 'ack', for: 'unsubscribe', pairCount: 0 })
  for (const pair of ['BTC-USD', 'ETH-USD', 'EUR-USD']) edge.bus.publishTick(pair, rowBytes(priceRow(pair)))
  const from = client.messages.items.length
  // the ticks above were fanned out before this message was read, so any delivered would come first
  const reply = await request(client, { type: 'unsubscribe', pairs: ['ETH-USD'] })
  t.same(client.messages.items.slice(from), [reply], 'nothing delivered with 0 assets')
  t.same(reply, { type: 'ack', for: 'unsubscribe', pairCount: 0 })
  t.same(await request(client, { type: 'subscribe', pairs: ['EUR-USD'] }), { type: 'ack', for: 'subscribe', pairCount: 1 })
  t.same(
    await ticksReaching(client, ['BTC-USD'], 'EUR-USD'),
    [],
    'delivery resumed without reconnecting: EUR-USD arrives, BTC-USD does not',
  )
})

t.test('every error code; a rejected message leaves the filter unchanged', async (t) => {
  const client = await connect('?pairs=BTC-USD,SOL-USD')
  const cases: Array<[string, unknown, string, string]> = [
    ['not JSON', 'subscribe BTC-USD', 'malformed', 'the message is not valid JSON'],
    ['not an object', '["subscribe"]', 'malformed', 'the message must be a JSON object with a type'],
    ['no type', { pairs: ['ETH-USD'] }, 'malformed', 'the message must have a string type'],
    ['no pairs', { type: 'subscribe' }, 'malformed', 'subscribe takes exactly { type, pairs: [pair symbols] }'],
    ['pairs not symbols', { type: 'subscribe', pairs: 'ETH-USD' }, 'malformed', 'subscribe takes exactly { type, pairs: [pair symbols] }'],
    [
      'an extra field',
      { type: 'unsubscribe', pairs: ['BTC-USD'], all: true },
      'malformed',
      'unsubscribe takes exactly { type, pairs: [pair symbols] }',
    ],
    [
      'an unknown type',
      { type: 'snapshot', pairs: ['ETH-USD'] },
      'unknown_type',
      'unknown message type "snapshot"; use subscribe or unsubscribe',
    ],
    [
      'an unknown symbol',
      { type: 'subscribe', pairs: ['ETH-USD', 'DOGE-USD'] },
      'invalid_pairs',
      'unknown pair symbols: DOGE-USD; symbols look like BTC-USD',
    ],
    ['no symbols', { type: 'unsubscribe', pairs: [] }, 'invalid_pairs', 'pairs must list at least one pair symbol'],
  ]
  for (const [what, message, code, text] of cases) {
    t.same(await request(client, message), { type: 'error', code, message: text }, what)
  }
  const binary = client.messages.items.length
  client.socket.send(Buffer.from('{"type":"subscribe","pairs":["ETH-USD"]}'), { binary: true })
  t.same(
    await client.messages.waitFor((frame) => frame.type !== 'tick', 'a reply', { from: binary }),
    {
      type: 'error',
      code: 'malformed',
      message: 'messages are JSON text frames',
    },
    'a binary frame',
  )
  t.same(await ticksReaching(client, ['BTC-USD', 'ETH-USD']), ['BTC-USD'], 'the filter is as it was')

  // 10 messages so far; the budget is 12 per minute
  t.same(await request(client, { type: 'subscribe', pairs: ['ETH-USD'] }), { type: 'ack', for: 'subscribe', pairCount: 3 })
  t.same(await request(client, { type: 'unsubscribe', pairs: ['ETH-USD'] }), { type: 'ack', for: 'unsubscribe', pairCount: 2 })
  const limited = await request(client, { type: 'subscribe', pairs: ['EUR-USD'] })
  t.match(limited, { type: 'error', code: 'rate_limited', message: /^more than 12 messages in a minute: retry in \d+ seconds$/ })
  t.same(await ticksReaching(client, ['BTC-USD', 'ETH-USD', 'EUR-USD']), ['BTC-USD'], 'the rate-limited subscribe changed nothing')
  const from = client.messages.items.length
  for (let index = 0; index < 3; index++) client.send({ type: 'unsubscribe', pairs: ['BTC-USD'] })
  await client.messages.until(() => (client.messages.items.length - from === 3 ? true : undefined), 'three replies')
  t.same(
    client.messages.items.slice(from).map((frame) => frame.code),
    ['rate_limited', 'rate_limited', 'rate_limited'],
    'exactly one reply each',
  )
})
