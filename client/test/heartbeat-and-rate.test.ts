// The client's `heartbeatSeconds`: a quiet connection is kept (heartbeats arrive), a silent one is dropped after
// twice the interval and the client reconnects, resuming after the cursor the heartbeats carried. Its `rate`: at a
// fixed rate a seq jump is ticks folded, not a loss, with full rows and with compact frames.
import t from 'tap'
import { startTestEdge } from '../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../test/support/price-rows.ts'
import { freePort } from '../../test/support/servers.ts'
import { startTcpProxy } from '../../test/support/tcp-proxy.ts'
import { withDeadline } from '../../test/support/wait.ts'
import { nodeSocket } from '../src/node.ts'
import { PriceStreamClient, SILENT_CLOSE_CODE, type Loss, type PriceStreamEvents } from '../src/price-stream-client.ts'

/**
 * Hang detector: the client gives a silent connection up after 2 s (twice its 1 s interval) and reconnects within
 * its 100 ms backoff ceiling; a heartbeat comes every 1 to 1.25 s. 10 s is over 3 times the slowest of these.
 */
const EVENT_DEADLINE_MS = 10_000

const next = <E extends keyof PriceStreamEvents>(client: PriceStreamClient, event: E) =>
  withDeadline(
    new Promise<PriceStreamEvents[E]>((resolve) => client.once(event, (...args: PriceStreamEvents[E]) => resolve(args))),
    EVENT_DEADLINE_MS,
    `the client's ${String(event)} event`,
  )

t.test('a quiet connection stays up on heartbeats; a silent one is dropped after twice the interval and resumed', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const port = await freePort()
  const proxy = await startTcpProxy({ host: '127.0.0.1', port }, { host: '127.0.0.1', port: Number(new URL(edge.baseUrl).port) })
  t.teardown(() => proxy.close())
  const client = new PriceStreamClient({
    openSocket: nodeSocket(),
    baseUrl: `http://127.0.0.1:${port}`,
    pairs: ['BTC-USD'],
    heartbeatSeconds: 1,
    backoff: { initialMs: 20, maxMs: 100 },
  })
  const disconnects: number[] = []
  client.on('disconnected', ({ code }) => disconnects.push(code))
  let lastFrameAt = 0
  for (const event of ['snapshot', 'heartbeat', 'price', 'resumed'] as const) client.on(event, () => (lastFrameAt = Date.now()))
  client.start()
  t.teardown(() => client.close())
  await next(client, 'snapshot')
  for (let count = 0; count < 3; count++) await next(client, 'heartbeat')
  t.same(disconnects, [], 'three heartbeats, over more than twice the interval, and still connected')
  const cursor = client.cursor
  t.match(cursor, /^[0-9a-z]+-\d+$/, 'the heartbeats carry the cursor')

  // a link that passes nothing any more (a partition: no close, no reset)
  proxy.setDelay(Infinity)
  const cutAt = Date.now()
  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: 7 })))
  const disconnected = next(client, 'disconnected')
  const resumedEvent = next(client, 'resumed')
  const price = next(client, 'price')
  client.once('disconnected', () => proxy.setDelay(0))
  const [info] = await disconnected
  const silentFor = Date.now() - lastFrameAt
  t.comment(`dropped ${Date.now() - cutAt} ms after the link was cut, ${silentFor} ms after the last frame`)
  t.equal(info.code, SILENT_CLOSE_CODE, 'dropped by the client as silent')
  t.ok(silentFor >= 2000, 'only once nothing came for twice the interval')

  const [resumed] = await resumedEvent
  t.same(resumed, { recovered: true, cursor }, "resumed after the last heartbeat's cursor")
  const [row, seq] = await price
  t.same([row.pair, row.mid, seq], ['BTC-USD', 7, 1], 'the tick published while the link was cut')
})

for (const [format, batch] of [
  ['full', false],
  ['compact', false],
  ['full', true],
  ['compact', true],
] as const) {
  t.test(`at a fixed rate a seq jump is ticks folded, not a loss (${format} frames${batch ? ', in batches' : ''})`, async (t) => {
    const edge = await startTestEdge()
    t.teardown(edge.stop)
    const options = { openSocket: nodeSocket(), baseUrl: edge.baseUrl, pairs: ['BTC-USD'], rate: 'fixed_rate@50ms', format, batch } as const
    const client = new PriceStreamClient(options)
    const losses: Loss[] = []
    client.on('loss', (loss) => losses.push(loss))
    client.start()
    t.teardown(() => client.close())
    await next(client, 'snapshot')
    // the rows are made once: each is stamped with the second it is made in
    const rows = [1, 2, 3, 4, 5].map((mid) => rowBytes(priceRow('BTC-USD', { mid })))
    for (const row of rows) edge.bus.publishTick('BTC-USD', row)
    const [row, seq] = await next(client, 'price')
    t.same([JSON.stringify(row), seq], [rows[4]!.toString(), 5], 'one row for the window, its seq five on from the baseline')
    t.same(losses, [], 'no loss')
  })
}

for (const format of ['full', 'compact'] as const) {
  t.test(`at real time, batch=true hands over every tick as without it (${format} frames)`, async (t) => {
    const edge = await startTestEdge()
    t.teardown(edge.stop)
    const client = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl, pairs: ['BTC-USD'], format, batch: true })
    const losses: Loss[] = []
    const prices: Array<[string, number]> = []
    client.on('loss', (loss) => losses.push(loss))
    client.on('price', (row, seq) => prices.push([JSON.stringify(row), seq]))
    client.start()
    t.teardown(() => client.close())
    await next(client, 'snapshot')
    const rows = [1, 2, 3, 4, 5].map((mid) => rowBytes(priceRow('BTC-USD', { mid })))
    for (const row of rows) edge.bus.publishTick('BTC-USD', row)
    await withDeadline(
      new Promise<void>((resolve) => client.on('price', () => prices.length === rows.length && resolve())),
      EVENT_DEADLINE_MS,
      'every tick',
    )
    t.same(
      prices,
      rows.map((row, index) => [row.toString(), index + 1]),
      'each row, with its seq',
    )
    t.same(losses, [], 'no loss')
  })
}
