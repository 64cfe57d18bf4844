// The client against real edge processes on NATS: its edge is restarted while ticks keep coming, and it comes
// back by itself with ?from=<its last cursor>: recovered, no snapshot, and exactly the ticks a control
// connection on the other edge received (pair, seq and row), in order, once.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { natsPriceBus } from '../../bus/nats-price-bus.ts'
import { priceRow, rowBytes } from '../../test/support/price-rows.ts'
import { openRawFrames, untilTicks } from '../../test/support/resume-clients.ts'
import { freePort, startNats } from '../../test/support/servers.ts'
import { edgeOnNats, serviceProcessStarter } from '../../test/support/service-process.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'
import { waitFor, withDeadline } from '../../test/support/wait.ts'
import { nodeSocket } from '../src/node.ts'
import { PriceStreamClient, type PriceStreamEvents } from '../src/price-stream-client.ts'

const PAIRS = ['BTC-USD', 'ETH-USD']
const AWAY_TICKS = 300

t.test('a client whose edge restarts resumes on it with recovered:true and loses or repeats no tick', async (t) => {
  const nats = await startNats()
  t.teardown(() => nats.dispose())
  const namespace = `client${randomUUID().slice(0, 8)}`
  const start = serviceProcessStarter(t, edgeOnNats(nats.url, namespace))
  const [stayingPort, restartedPort] = [await freePort(), await freePort()]
  const staying = start(['edge'], { PORT: String(stayingPort) })
  let restarted = start(['edge'], { PORT: String(restartedPort) })
  await Promise.all([staying.waitForLog('edge listening'), restarted.waitForLog('edge listening')])
  const bus = await natsPriceBus({ servers: nats.url, namespace, name: 'client-test-publisher', publishes: true, logger: silentLogger() })
  t.teardown(() => bus.close())
  let mid = 1000
  const publish = (count: number) => {
    for (let index = 0; index < count; index++) {
      const pair = [...PAIRS, 'XAU-USD'][index % 3]!
      bus.publishTick(pair, rowBytes(priceRow(pair, { mid: mid++ })))
    }
  }

  const control = await openRawFrames(`ws://127.0.0.1:${stayingPort}/v1/prices/stream?pairs=${PAIRS.join(',')}&cursor=true`)
  t.teardown(() => control.socket.terminate())
  const client = new PriceStreamClient({
    baseUrl: `http://127.0.0.1:${restartedPort}`,
    pairs: PAIRS,
    backoff: { initialMs: 100, maxMs: 200 },
    openSocket: nodeSocket(),
  })
  t.teardown(() => client.close())
  const received: string[] = []
  const events: Array<[string, unknown]> = []
  client.on('price', (row, seq) => received.push(JSON.stringify({ seq, data: row })))
  for (const event of ['snapshot', 'resumed', 'loss', 'disconnected'] as const)
    client.on(event, (...args: PriceStreamEvents[typeof event]) => events.push([event, event === 'snapshot' ? undefined : args[0]]))
  const snapshot = withDeadline(new Promise((resolve) => client.once('snapshot', resolve)), 10_000, 'the snapshot')
  client.start()
  await snapshot
  await control.frames.waitFor((frame) => frame.json.type === 'snapshot', 'snapshot')

  publish(30)
  await waitFor(() => received.length === 20, { what: '20 ticks', timeoutMs: 20_000 })
  const cursor = client.cursor

  await restarted.stop()
  await waitFor(() => events.some(([event]) => event === 'disconnected'), { what: 'the client to notice' })
  publish(AWAY_TICKS)
  await untilTicks(control.frames, 20 + AWAY_TICKS * (2 / 3), 0, 20_000)
  restarted = start(['edge'], { PORT: String(restartedPort) })
  await restarted.waitForLog('edge listening')
  await waitFor(() => events.some(([event]) => event === 'resumed'), { what: 'the resume', timeoutMs: 20_000 })
  publish(3)
  const total = 20 + AWAY_TICKS * (2 / 3) + 2
  await untilTicks(control.frames, total, 0, 20_000)
  await waitFor(() => received.length >= total, { what: `${total} ticks`, timeoutMs: 20_000 })

  t.same(
    events.filter(([event]) => event !== 'disconnected'),
    [
      ['snapshot', undefined],
      ['resumed', { recovered: true, cursor }],
    ],
    'one snapshot, then a recovered resume (reconnect attempts while the edge was down aside), no loss',
  )
  const controlTicks = control.frames.items
    .filter((frame) => frame.json.type === 'tick')
    .map(({ json: { seq, data } }) => JSON.stringify({ seq, data }))
  t.equal(received.length, controlTicks.length, `${controlTicks.length} ticks, none more`)
  t.ok(
    received.every((tick, index) => tick === controlTicks[index]),
    'the control connection’s ticks: pair, seq and row, in order, once',
  )
})
