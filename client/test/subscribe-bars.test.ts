// subscribeBars against a running edge whose clock the test holds: ticks with chosen timestamps go on the bus,
// and moving the clock ends periods.
import t from 'tap'
import { startTestEdge } from '../../test/support/edge-harness.ts'
import { MessageLog } from '../../test/support/message-log.ts'
import { metricValue } from '../../test/support/metrics.ts'
import { priceRow, rowBytes } from '../../test/support/price-rows.ts'
import { waitFor } from '../../test/support/wait.ts'
import { nodeSocket } from '../src/node.ts'
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

t.test('a refused subscription (an unknown resolution) is reported, not retried', async (t) => {
  const error = await new Promise<Error>((resolve) => subscribeBars({ ...options, onError: resolve }, 'ETH-USD', '2', () => {}))
  t.equal(error.message, 'the candle stream refused the connection with 400')
})
