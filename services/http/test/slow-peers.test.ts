// Half-open and idle peers: a request head that never ends holds a socket only until uWebSockets.js's HTTP
// idle timeout (10 s, checked every 4 s), and the service keeps answering everyone else meanwhile.
import { connect } from 'node:net'
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'

const HALF_OPEN = 200
/** the idle timeout plus the timer's granularity and a margin for a busy machine */
const CUT_WITHIN_MS = 16_000

t.test(`${HALF_OPEN} half-open connections are cut within the idle timeout; other requests keep being answered`, async (t) => {
  const edge = await startTestEdge({ env: { RATE_LIMITS_ENABLED: 'false' } })
  t.teardown(() => edge.stop())
  const port = Number(new URL(edge.baseUrl).port)
  const openedAt = performance.now()
  const cut = await Promise.all(
    Array.from({ length: HALF_OPEN }, () =>
      Promise.resolve().then(() => {
        const socket = connect(port, '127.0.0.1', () => socket.write('GET /v1/status HTTP/1.1\r\nHost: gateway.test\r\nX-Slow: '))
        socket.on('error', () => {})
        const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - openedAt)))
        const timer = setTimeout(() => socket.destroy(), CUT_WITHIN_MS + 2000)
        return { closed: closed.finally(() => clearTimeout(timer)), socket }
      }),
    ),
  )
  // meanwhile ordinary requests are answered, promptly
  const latencies: number[] = []
  for (let n = 0; n < 50; n++) {
    const startedAt = performance.now()
    const response = await fetch(`${edge.baseUrl}/v1/status`)
    t.equal(response.status, 200)
    latencies.push(performance.now() - startedAt)
  }
  t.ok(Math.max(...latencies) < 1000, `the slowest of 50 requests took ${Math.round(Math.max(...latencies))} ms`)
  const closedAfter = await Promise.all(cut.map((peer) => peer.closed))
  const latest = Math.max(...closedAfter)
  t.ok(latest < CUT_WITHIN_MS, `every half-open connection was cut by the server, the last after ${Math.round(latest)} ms`)
  t.ok(Math.min(...closedAfter) > 4000, 'none before the idle timeout could have passed')
})
