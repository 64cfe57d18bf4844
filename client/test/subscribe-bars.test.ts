// subscribeBars against a running edge whose clock the test holds: ticks with chosen timestamps go on the bus,
// and moving the clock ends periods. With `heartbeatSeconds`, a link that stops passing anything is given up.
import t from 'tap'
import { startTestEdge } from '../../test/support/edge-harness.ts'
import { MessageLog } from '../../test/support/message-log.ts'
import { metricValue } from '../../test/support/metrics.ts'
import { priceRow, rowBytes } from '../../test/support/price-rows.ts'
import { freePort } from '../../test/support/servers.ts'
import { startTcpProxy } from '../../test/support/tcp-proxy.ts'
import { waitFor } from '../../test/support/wait.ts'
import { nodeSocket } from '../src/node.ts'
import type { OpenSocket } from '../src/price-stream-client.ts'
import { subscribeBars, type Bar } from '../src/subscribe-bars.ts'

/** Wednesday 2026-03-04 10:00 UTC */
const START = Date.UTC(2026, 2, 4, 10, 0) / 1000
let nowMs = START * 1000
const edge = await startTestEdge({ candles: { now: () => nowMs } })
t.teardown(edge.stop)
const tick = (pair: string, mid: number, timestampSeconds: number) =>
  edge.bus.publishTick(pair, rowBytes(priceRow(pair, { bid: mid - 0.5, mid, ask: mid + 0.5, timestampSeconds })))
const options = { baseUrl: edge.baseUrl, openSocket: nodeSocket() }
const openConnections = () => metricValue(edge.metrics.candleStreamConnections)

t.test('bars as TradingView takes them: the forming bar, then the final one, then the next period', async (t) => {
  const bars = new MessageLog<Bar>()
  const resets = new MessageLog<true>()
  const unsubscribe = subscribeBars(
    options,
    'ETH-USD',
    '5',
    (bar) => bars.push(bar),
    () => resets.push(true),
  )
  t.teardown(unsubscribe)
  await waitFor(async () => (await openConnections()) === 1, { what: 'the subscription to connect' })

  tick('ETH-USD', 3000, START + 10)
  tick('ETH-USD', 3012.5, START + 70)
  tick('ETH-USD', 2990, START + 130)
  t.strictSame(await bars.waitFor(() => true, 'the forming bar'), { time: START * 1000, open: 3000, high: 3012.5, low: 2990, close: 2990 })
  nowMs = (START + 300) * 1000
  tick('ETH-USD', 3001, START + 301)
  t.strictSame(await bars.waitFor(() => true, 'the final bar', { from: 1 }), {
    time: START * 1000,
    open: 3000,
    high: 3012.5,
    low: 2990,
    close: 2990,
  })
  t.strictSame(await bars.waitFor(() => true, 'the next bar', { from: 2 }), {
    time: (START + 300) * 1000,
    open: 3001,
    high: 3001,
    low: 3001,
    close: 3001,
  })
  t.equal(resets.items.length, 0, 'nothing missed')

  unsubscribe()
  await waitFor(async () => (await openConnections()) === 0, { what: 'the unsubscribe to close the socket' })
})

t.test('a new subscription starts from the last closed bar and the forming one', async (t) => {
  const bars = new MessageLog<Bar>()
  const unsubscribe = subscribeBars(options, 'ETH-USD', '5', (bar) => bars.push(bar))
  t.teardown(unsubscribe)
  await bars.until(() => (bars.items.length === 2 ? true : undefined), 'two bars from the snapshot')
  t.strictSame(
    bars.items.map((bar) => bar.time),
    [START * 1000, (START + 300) * 1000],
  )
})

t.test('with heartbeats, a quiet subscription stays up and a silent one is dropped after twice the interval', async (t) => {
  const port = await freePort()
  const proxy = await startTcpProxy({ host: '127.0.0.1', port }, { host: '127.0.0.1', port: Number(new URL(edge.baseUrl).port) })
  t.teardown(() => proxy.close())
  // the frames as they reach the client, and how long the first connection had been silent when a second opened
  const frames = new MessageLog<string>()
  let lastFrameAt = 0
  let silentFor: number | undefined
  const openSocket: OpenSocket = (url, onRefused) => {
    if (frames.items.length > 0) {
      silentFor ??= Date.now() - lastFrameAt
      proxy.setDelay(0)
    }
    t.equal(url.searchParams.get('heartbeat'), '1', 'asked for heartbeats')
    const socket = nodeSocket()(url, onRefused)
    socket.addEventListener('message', ({ data }) => {
      lastFrameAt = Date.now()
      frames.push(JSON.parse(String(data)).type)
    })
    return socket
  }
  const resets = new MessageLog<true>()
  const unsubscribe = subscribeBars(
    { baseUrl: `http://127.0.0.1:${port}`, openSocket, heartbeatSeconds: 1, backoff: { initialMs: 20, maxMs: 100 } },
    'NVDA-USD',
    '1',
    () => {},
    () => resets.push(true),
  )
  t.teardown(unsubscribe)
  await frames.until(() => (frames.items.filter((type) => type === 'heartbeat').length >= 3 ? true : undefined), 'three heartbeats')
  t.same(frames.items, ['snapshot', 'heartbeat', 'heartbeat', 'heartbeat'], 'kept over more than twice the interval')
  t.equal(resets.items.length, 0, 'a heartbeat is not a reason to reload')

  // a link that passes nothing any more (a partition: no close, no reset)
  proxy.setDelay(Infinity)
  await resets.waitFor(() => true, 'the reload after the reconnection')
  t.ok(silentFor! >= 2000, `given up only once nothing came for twice the interval (${silentFor} ms)`)
  t.equal(frames.items.filter((type) => type === 'snapshot').length, 2, 'a new connection, with its snapshot')
})

t.test('a refused subscription (an unknown resolution) is reported, not retried', async (t) => {
  const error = await new Promise<Error>((resolve) => subscribeBars({ ...options, onError: resolve }, 'ETH-USD', '2', () => {}))
  t.equal(error.message, 'the candle stream refused the connection with 400')
})
