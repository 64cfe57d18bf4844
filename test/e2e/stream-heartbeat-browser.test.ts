// A page in a real Chromium reading the price stream with EventSource and `?heartbeat=1` tells a quiet edge from a
// stopped one: heartbeat events keep arriving while nothing ticks, and once the edge process is stopped (SIGSTOP:
// its sockets stay open, nothing is sent, as with a hung process or a dead link) the page notices the silence
// after twice the interval. The edge runs alone from the compiled build, with no feed, so only heartbeats come.
import t from 'tap'
import { launchChromium } from '../support/browser.ts'
import { freePort } from '../support/servers.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'

/**
 * Hang detectors. Heartbeats come every 1 to 1.25 s, so three within 4 s; the page notices a stopped edge 2 s
 * after its last event. 15 s is over 3 times either.
 */
const HEARTBEATS_DEADLINE_MS = 15_000
const NOTICED_DEADLINE_MS = 15_000

const browser = await launchChromium()
t.teardown(() => browser.close())
const port = await freePort()
const base = `http://127.0.0.1:${port}`
const edge = startServiceProcess(['edge'], { ...UNUSED_INDEXED_SOURCE, PORT: String(port), HOST: '127.0.0.1', ONBOARDING_ENABLED: 'false' })
t.teardown(() => edge.stop())
await edge.waitForLog('edge listening')

/** What the page runs: the stream as events, and a check that takes 2 s without an event for a dead edge. */
function watchStream(intervalSeconds: number) {
  const state = { heartbeats: [] as Array<{ id: string; data: string }>, lastEventAt: 0, deadAt: 0, silentFor: 0 }
  Object.assign(window, { stream: state })
  const source = new EventSource(`/v1/prices/stream?heartbeat=${intervalSeconds}`)
  const seen = () => (state.lastEventAt = Date.now())
  source.addEventListener('snapshot', seen)
  source.addEventListener('heartbeat', (event) => {
    seen()
    state.heartbeats.push({ id: event.lastEventId, data: event.data })
  })
  const check = setInterval(() => {
    const silentFor = Date.now() - state.lastEventAt
    if (state.lastEventAt === 0 || silentFor <= 2 * intervalSeconds * 1000) return
    state.deadAt = Date.now()
    state.silentFor = silentFor
    clearInterval(check)
    source.close()
  }, 100)
}

type PageState = { heartbeats: Array<{ id: string; data: string }>; deadAt: number; silentFor: number }
const pageState = (page: import('playwright-core').Page) => page.evaluate(() => (window as unknown as { stream: PageState }).stream)

t.test('heartbeat events keep a quiet stream alive; a stopped edge is noticed after twice the interval', async (t) => {
  const page = await browser.newPage()
  t.teardown(() => page.close())
  await page.goto(`${base}/v1/status`)
  await page.evaluate(watchStream, 1)
  await page.waitForFunction(() => (window as unknown as { stream: PageState }).stream.heartbeats.length >= 3, undefined, {
    timeout: HEARTBEATS_DEADLINE_MS,
  })
  const alive = await pageState(page)
  t.equal(alive.deadAt, 0, 'three heartbeats, and the page never took the stream for dead')
  const frames = alive.heartbeats.map(({ data }) => JSON.parse(data))
  t.same(
    frames.map((frame) => Object.keys(frame)),
    [
      ['type', 'time', 'cursor'],
      ['type', 'time', 'cursor'],
      ['type', 'time', 'cursor'],
    ].slice(0, frames.length),
  )
  t.ok(
    alive.heartbeats.every(({ id, data }) => id === JSON.parse(data).cursor),
    'each event: the heartbeat frame with its cursor, the cursor as id',
  )
  t.comment(`heartbeat times ${frames.map((frame) => frame.time).join(', ')}`)

  process.kill(edge.child.pid!, 'SIGSTOP')
  const stoppedAt = Date.now()
  t.teardown(() => process.kill(edge.child.pid!, 'SIGCONT'))
  await page.waitForFunction(() => (window as unknown as { stream: PageState }).stream.deadAt > 0, undefined, {
    timeout: NOTICED_DEADLINE_MS,
  })
  const dead = await pageState(page)
  t.comment(`noticed ${dead.deadAt - stoppedAt} ms after the edge stopped, ${dead.silentFor} ms after its last event`)
  t.ok(dead.silentFor > 2000, 'after twice the interval without an event')
})
