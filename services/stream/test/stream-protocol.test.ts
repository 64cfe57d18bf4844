import t from 'tap'
import { PAIRS } from '../../../schemas/pairs.ts'
import { SnapshotFrame, TickFrame } from '../../../schemas/stream.ts'
import { startTestEdge, type TestEdge } from '../../../test/support/edge-harness.ts'
import { readJson } from '../../../test/support/http.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { RawStreamClient, rawUpgrade } from '../../../test/support/raw-ws.ts'
import { openStream } from '../../../test/support/stream-clients.ts'
import { waitFor } from '../../../test/support/wait.ts'

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Publishes rows and waits until the REST snapshot shows the last of them. */
async function publishAndSettle(edge: TestEdge, rows: ReturnType<typeof priceRow>[]) {
  for (const row of rows) edge.bus.publishTick(row.pair, rowBytes(row))
  const last = rows.at(-1)!
  await waitFor(
    async () => {
      const response = await fetch(`${edge.baseUrl}/v1/prices/${last.pair}`)
      return response.status === 200 && (await readJson(response)).mid === last.mid
    },
    { what: `${last.pair} at ${last.mid}` },
  )
}

t.test('the first frame is the snapshot: a baseline for every pair received and the rows of GET /v1/prices, byte for byte', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  await publishAndSettle(edge, [priceRow('BTC-USD', { mid: 1 }), priceRow('ETH-USD', { mid: 3400 }), priceRow('BTC-USD', { mid: 95000 })])

  const client = await RawStreamClient.connect(edge.streamUrl)
  t.teardown(() => client.destroy())
  const first = await client.frames.waitFor(() => true, 'the first frame')
  const snapshot = first.json
  t.ok(SnapshotFrame.safeParse(snapshot).success, 'matches spec 6.1')
  t.equal(snapshot.type, 'snapshot')
  t.same(
    Object.keys(snapshot.seq),
    PAIRS.map((pair) => pair.symbol),
    'every listed pair, in pair-id order',
  )
  t.same({ btc: snapshot.seq['BTC-USD'], eth: snapshot.seq['ETH-USD'], eur: snapshot.seq['EUR-USD'] }, { btc: 2, eth: 1, eur: 0 })

  const rest = await (await fetch(`${edge.baseUrl}/v1/prices`)).text()
  const restRows = rest.slice(rest.indexOf('['), rest.lastIndexOf(']') + 1)
  const frame = first.payload.toString()
  t.equal(frame.slice(frame.indexOf('"data":') + 7, -1), restRows, 'data is the snapshot rows, byte for byte')

  const filtered = await openStream(`${edge.streamUrl}?pairs=XAU-USD,ETH-USD`)
  t.teardown(() => filtered.socket.terminate())
  const narrow = await filtered.messages.waitFor(() => true, 'the filtered snapshot')
  t.same(
    narrow,
    { type: 'snapshot', seq: { 'ETH-USD': 1, 'XAU-USD': 0 }, data: [JSON.parse(rest).prices[1]] },
    'a pair without a row has a baseline and no row',
  )
})

t.test(
  'a tick is the row bytes in a frame; every connection of the process sees the same seq; a filter keeps other pairs out',
  async (t) => {
    const edge = await startTestEdge()
    t.teardown(edge.stop)
    await publishAndSettle(edge, [priceRow('BTC-USD', { mid: 1 })])
    const everything = await RawStreamClient.connect(edge.streamUrl)
    const btcOnly = await openStream(`${edge.streamUrl}?pairs=BTC-USD`)
    t.teardown(() => (everything.destroy(), btcOnly.socket.terminate()))
    await everything.frames.waitFor((frame) => frame.json?.type === 'snapshot', 'snapshot')
    await btcOnly.messages.waitFor((message) => message.type === 'snapshot', 'snapshot')

    const eth = rowBytes(priceRow('ETH-USD', { mid: 3400.25 }))
    const btc = rowBytes(priceRow('BTC-USD', { mid: 95000.5 }))
    edge.bus.publishTick('ETH-USD', eth)
    edge.bus.publishTick('BTC-USD', btc)

    const ethTick = await everything.frames.waitFor((frame) => frame.json?.data?.pair === 'ETH-USD', 'the ETH tick')
    t.equal(ethTick.payload.toString(), `{"type":"tick","seq":1,"data":${eth.toString()}}`)
    const btcTick = await everything.frames.waitFor((frame) => frame.json?.data?.pair === 'BTC-USD', 'the BTC tick')
    t.equal(btcTick.payload.toString(), `{"type":"tick","seq":2,"data":${btc.toString()}}`)
    t.ok(TickFrame.safeParse(btcTick.json).success, 'matches spec 6.1')

    const filteredTick = await btcOnly.messages.waitFor((message) => message.type === 'tick', 'a tick on the filtered connection')
    t.same(filteredTick, btcTick.json, 'the same tick with the same seq')
    t.equal(btcOnly.messages.items.indexOf(filteredTick), 1, 'the ETH tick never reached the BTC-only connection')
  },
)

t.test('upgrade responses carry x-request-id and the upgrade budget; an invalid query gets 400 with issues', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const accepted = await rawUpgrade(edge.streamUrl)
  t.teardown(() => accepted.socket.destroy())
  t.equal(accepted.status, 101)
  t.match(accepted.headers['x-request-id'], uuid)
  t.same(
    [accepted.headers['x-ratelimit-limit'], accepted.headers['x-ratelimit-remaining'], accepted.headers['x-ratelimit-reset']],
    ['60', '59', '60'],
  )

  const unknownPair = await rawUpgrade(`${edge.streamUrl}?pairs=BTC-USD,DOGE-USD`)
  unknownPair.socket.destroy()
  t.equal(unknownPair.status, 400)
  t.match(unknownPair.headers['x-request-id'], uuid)
  t.equal(unknownPair.headers['content-type'], 'application/json')
  t.same(JSON.parse(unknownPair.rest.toString()), {
    error: 'Bad Request',
    message: 'invalid query for the price stream',
    issues: [{ code: 'custom', path: ['pairs', 1], message: '"DOGE-USD" is not a listed pair symbol' }],
  })

  const invalid: Array<[string, string]> = [
    ['pairs=', 'custom'],
    ['pair=BTC-USD', 'unrecognized_keys'],
    ['pairs=BTC-USD&pairs=ETH-USD', 'invalid_type'],
  ]
  for (const [query, code] of invalid) {
    const refused = await rawUpgrade(`${edge.streamUrl}?${query}`)
    refused.socket.destroy()
    t.equal(refused.status, 400, query)
    t.equal(JSON.parse(refused.rest.toString()).issues[0].code, code, query)
  }

  const plain = await fetch(`${edge.baseUrl}/v1/prices/stream`)
  t.equal(plain.status, 426, 'a plain GET is told to upgrade')
  t.equal(plain.headers.get('upgrade'), 'websocket')
  t.match(plain.headers.get('x-request-id'), uuid)
  t.same(await readJson(plain), { error: 'Upgrade Required', message: 'this is a WebSocket endpoint: connect with a WebSocket client' })
})
