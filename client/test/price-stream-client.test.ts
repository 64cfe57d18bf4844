import t from 'tap'
import type WebSocket from 'ws'
import { startTestEdge } from '../../test/support/edge-harness.ts'
import { readJson } from '../../test/support/http.ts'
import { bulkyRowBytes, priceRow, rowBytes } from '../../test/support/price-rows.ts'
import { freePort } from '../../test/support/servers.ts'
import { openRawFrames, untilTicks } from '../../test/support/resume-clients.ts'
import { publishUntilLagging, rowsShortOfAWholeWrite } from '../../test/support/stream-clients.ts'
import { withDeadline, waitFor } from '../../test/support/wait.ts'
import { nodeSocket } from '../src/node.ts'
import { PriceStreamClient, StreamRequestError, type Loss, type PriceStreamEvents } from '../src/price-stream-client.ts'

/** The arguments of the client's next `event`. */
const next = <E extends keyof PriceStreamEvents>(client: PriceStreamClient, event: E) =>
  withDeadline(
    new Promise<PriceStreamEvents[E]>((resolve) => client.once(event, (...args: PriceStreamEvents[E]) => resolve(args))),
    5_000,
    `the client's ${String(event)} event`,
  )

t.test('baselines from the snapshot, follows ticks, and takes a conflation gap with the rows that follow it', async (t) => {
  // a zero fan-out slice makes ticks published together conflate past the first whole write (32 frames), so the
  // server sends a gap
  const edge = await startTestEdge({ env: { STREAM_FANOUT_SLICE_MS: '0' } })
  t.teardown(edge.stop)
  edge.bus.publishTick('ETH-USD', rowBytes(priceRow('ETH-USD', { mid: 3000 })))
  await waitFor(async () => (await fetch(`${edge.baseUrl}/v1/prices/ETH-USD`)).status === 200)

  const client = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl }).start()
  t.teardown(() => client.close())
  const [snapshot] = await next(client, 'snapshot')
  t.same(
    snapshot.map((row) => row.mid),
    [3000],
  )
  const losses: Loss[] = []
  client.on('loss', (loss) => losses.push(loss))

  // one frame short of a whole write, which the next tick fills
  const fillers = rowsShortOfAWholeWrite()
  const rows = [1, 2, 3, 4].map((mid) => priceRow('BTC-USD', { mid }))
  for (const row of [...fillers, ...rows]) edge.bus.publishTick(row.pair, rowBytes(row))
  await waitFor(() => client.prices.get('BTC-USD')?.mid === 4, { what: 'the latest BTC row' })
  t.same(losses, [{ reason: 'gap', dropped: 2 }], 'the gap, and no unexplained seq jump after it')
  t.equal(client.prices.get('ETH-USD')?.mid, 3000)
})

t.test('after a gap for a slow reader, rows it left stale are re-read from GET /v1/prices', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  let socket: WebSocket | undefined
  const client = new PriceStreamClient({
    baseUrl: edge.baseUrl,
    pairs: ['BTC-USD', 'ETH-USD'],
    recoveryDelayMs: 20,
    openSocket: (url, onRefused) => (socket = nodeSocket()(url, onRefused) as WebSocket),
  }).start()
  t.teardown(() => client.close())
  await next(client, 'snapshot')
  const losses: Loss[] = []
  client.on('loss', (loss) => losses.push(loss))

  socket!.pause()
  let mid = 0
  await publishUntilLagging(edge, () => {
    for (let index = 0; index < 100; index++) edge.bus.publishTick('BTC-USD', bulkyRowBytes('BTC-USD', ++mid))
  })
  edge.bus.publishTick('ETH-USD', rowBytes(priceRow('ETH-USD', { mid: 42 })))
  await waitFor(async () => (await readJson(await fetch(`${edge.baseUrl}/v1/prices/ETH-USD`))).mid === 42)
  const recovered = next(client, 'recovered')
  socket!.resume()
  const [rows] = await recovered
  t.equal(losses[0]?.reason, 'gap')
  t.ok((losses[0]?.dropped ?? 0) > 1, 'the ticks dropped while it lagged, ETH among them')
  t.same(
    rows.map((row) => row.pair),
    ['BTC-USD', 'ETH-USD'],
    'the re-read rows of its pairs',
  )
  t.equal(client.prices.get('ETH-USD')?.mid, 42, 'the ETH row that never came as a tick')
  t.equal(client.prices.get('BTC-USD')?.mid, mid, 'the latest BTC row')
})

t.test('subscribe and unsubscribe resolve with the pair count; a rejected one fails with its code', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const client = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl, pairs: ['BTC-USD'] }).start()
  t.teardown(() => client.close())
  await next(client, 'snapshot')
  t.equal(await client.subscribe(['ETH-USD', 'SOL-USD']), 3)
  t.equal(await client.unsubscribe(['BTC-USD']), 2)
  const refusal = await client.subscribe(['NOT-A-PAIR']).catch((error: unknown) => error)
  t.ok(refusal instanceof StreamRequestError)
  t.equal((refusal as StreamRequestError).code, 'invalid_pairs')
})

t.test('narrow reconnects with ?pairs=; a server restart is survived with backoff', async (t) => {
  const port = await freePort()
  const env = { PORT: String(port) }
  let edge = await startTestEdge({ env })
  for (const pair of ['BTC-USD', 'ETH-USD']) edge.bus.publishTick(pair, rowBytes(priceRow(pair)))
  await waitFor(async () => (await fetch(`${edge.baseUrl}/v1/prices/ETH-USD`)).status === 200)
  const client = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl, backoff: { initialMs: 20, maxMs: 100 } }).start()
  t.teardown(() => client.close())
  t.equal((await next(client, 'snapshot'))[0].length, 2)

  client.narrow(['ETH-USD'])
  const [narrowed] = await next(client, 'snapshot')
  t.same(
    narrowed.map((row) => row.pair),
    ['ETH-USD'],
  )
  t.same([...client.prices.keys()], ['ETH-USD'])

  const disconnected = next(client, 'disconnected')
  await edge.stop()
  const [info] = await disconnected
  t.equal(info.code, 1001)
  t.ok(info.retryInMs !== undefined && info.retryInMs >= 0 && info.retryInMs <= 100, 'a jittered wait within the backoff ceiling')
  const cursor = client.cursor
  const resumed = next(client, 'resumed')
  const snapshot = next(client, 'snapshot')
  edge = await startTestEdge({ env })
  t.teardown(() => edge.stop())
  // the embedded numbering starts afresh with the process: the old cursor is of another epoch
  t.same(await resumed, [{ recovered: false, cursor }], 'the resume is refused')
  t.same(await snapshot, [[]], 'and a snapshot of the restarted server follows')
  edge.bus.publishTick('ETH-USD', rowBytes(priceRow('ETH-USD', { mid: 7 })))
  await waitFor(() => client.prices.get('ETH-USD')?.mid === 7, { what: 'a tick from the restarted server', timeoutMs: 10_000 })
})

t.test('a dropped connection resumes after its last cursor: no snapshot, and the ticks a control connection received', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const pairs = ['BTC-USD', 'ETH-USD']
  const control = await openRawFrames(`${edge.streamUrl}?pairs=${pairs.join(',')}&cursor=true`)
  t.teardown(() => control.socket.terminate())
  let socket: WebSocket | undefined
  const client = new PriceStreamClient({
    baseUrl: edge.baseUrl,
    pairs,
    backoff: { initialMs: 20, maxMs: 50 },
    openSocket: (url, onRefused) => (socket = nodeSocket()(url, onRefused) as WebSocket),
  }).start()
  t.teardown(() => client.close())
  const received: string[] = []
  client.on('price', (row, seq) => received.push(JSON.stringify({ seq, data: row })))
  const events: string[] = []
  for (const event of ['snapshot', 'resumed', 'loss', 'recovered'] as const) client.on(event, () => events.push(event))
  await next(client, 'snapshot')
  await control.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  let mid = 0
  const publish = (count: number) => {
    for (let index = 0; index < count; index++) {
      const pair = ['BTC-USD', 'ETH-USD', 'XAU-USD'][index % 3]!
      edge.bus.publishTick(pair, rowBytes(priceRow(pair, { mid: ++mid })))
    }
  }
  publish(30)
  await waitFor(() => received.length === 20, { what: '20 ticks' })
  const cursorBefore = client.cursor
  t.match(cursorBefore, /^[0-9a-z]+-\d+$/, 'the client holds the last tick’s cursor')

  const resumed = next(client, 'resumed')
  socket!.terminate()
  publish(30) // 20 more of its pairs, some of them while it is away
  t.same(await resumed, [{ recovered: true, cursor: cursorBefore }])
  await untilTicks(control.frames, 40)
  await waitFor(() => received.length === 40, { what: '40 ticks' })
  const controlTicks = control.frames.items
    .filter((frame) => frame.json.type === 'tick')
    .map(({ json: { seq, data } }) => JSON.stringify({ seq, data }))
  t.same(received, controlTicks, 'every tick of the control connection, in order, once')
  t.same(events, ['snapshot', 'resumed'], 'no second snapshot, no loss')
})

t.test('a refused upgrade: 429 waits at least Retry-After; 400 is not retried', async (t) => {
  const edge = await startTestEdge({ env: { STREAM_MAX_CONNECTIONS_PER_IP: '1' } })
  t.teardown(edge.stop)
  const first = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl }).start()
  t.teardown(() => first.close())
  await next(first, 'snapshot')

  const second = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl }).start()
  const [busy] = await next(second, 'disconnected')
  t.ok(busy.retryInMs !== undefined && busy.retryInMs >= 5_000, 'Retry-After: 5 is respected')
  await second.close()

  const invalid = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl, pairs: ['NOT-A-PAIR'] })
  const failed = next(invalid, 'error')
  const gaveUp = next(invalid, 'disconnected')
  invalid.start()
  t.match((await failed)[0].message, /refused the connection with 400/)
  t.equal((await gaveUp)[0].retryInMs, undefined, 'no retry')
})
