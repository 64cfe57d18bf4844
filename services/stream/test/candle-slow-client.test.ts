// The candle stream's slow-client rule, on a real uWebSockets.js server with real clients that stop reading.
// CandleDelivery (what sends the candle stream's frames) is given large frames directly: a real feed's candles,
// at most one frame per pair a second, would take minutes to fill a socket's buffers. Past the limit a WebSocket
// leaves its topics and an event stream is skipped; the frames published for it meanwhile are counted, and once
// it has drained it gets a `gap` with that count before the frames that follow.
// A frame is encoded only when some client receives it.
import { createParser } from 'eventsource-parser'
import { get, type IncomingMessage } from 'node:http'
import t, { type Test } from 'tap'
import type { us_listen_socket } from 'uWebSockets.js'
import { createMetrics } from '../../../kit/metrics.ts'
import { PAIRS } from '../../../schemas/pairs.ts'
import { MessageLog } from '../../../test/support/message-log.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { RawStreamClient } from '../../../test/support/raw-ws.ts'
import { EVENT_DEADLINE_MS, withDeadline } from '../../../test/support/wait.ts'
import { loadNativeUws } from '../../http/native-uws.ts'
import { CandleDelivery, type CandleEventStream, type CandleSocket } from '../candle-delivery.ts'
import type { CandleSubscription } from '../candle-query.ts'

const uws = loadNativeUws()
const SLOW_CLIENT_BYTES = 256 * 1024
const SUBSCRIPTION: CandleSubscription = { pairIds: [PAIRS[0]!.id], resolution: '1' }
const SNAPSHOT = '{"type":"snapshot","data":[]}'
const PAD = 'x'.repeat(64 * 1024)
/** Frames are numbered, and large enough to fill a socket's buffers in a few hundred. */
const frame = (n: number) => `{"type":"candle","n":${n},"pad":"${PAD}"}`
/** Sends more than kernel and server buffers can hold for a client that reads nothing: it is cut off long before. */
const MAX_FRAMES_BEFORE_CUT_OFF = 2_000

const app = uws.App()
const metrics = createMetrics()
const delivery = new CandleDelivery({ app, slowClientBytes: SLOW_CLIENT_BYTES, metrics, onAborted: () => {} })
const sockets: CandleSocket[] = []
const eventStreams: CandleEventStream[] = []
let published = 0
const publish = () => {
  const text = frame(++published)
  delivery.publish([{ pairId: SUBSCRIPTION.pairIds[0]!, resolution: '1', encode: () => text }])
}

app.ws<CandleSocket>('/candles', {
  compression: uws.DISABLED,
  // far above the limit: the slow-client rule, not uWS, decides what is dropped
  maxBackpressure: 256 * 1024 * 1024,
  upgrade(res, req, context) {
    const connection: CandleSocket = {
      requestId: 'r',
      budgetKey: 'k',
      subscription: SUBSCRIPTION,
      lagging: false,
      lagBaseline: 0,
      socket: undefined,
    }
    const header = (name: string) => req.getHeader(name)
    res.upgrade(connection, header('sec-websocket-key'), header('sec-websocket-protocol'), header('sec-websocket-extensions'), context)
  },
  open(socket) {
    const connection = socket.getUserData()
    connection.socket = socket
    sockets.push(connection)
    delivery.addSocket(connection, SNAPSHOT)
  },
  drain: (socket) => delivery.drained(socket.getUserData()),
  close(socket) {
    const connection = socket.getUserData()
    connection.socket = undefined
    delivery.removeSocket(connection)
  },
})
app.get('/events', (res) => {
  res.cork(() => res.writeStatus('200 OK').writeHeader('content-type', 'text/event-stream'))
  eventStreams.push(delivery.addEventStream(res, { requestId: 'r', budgetKey: 'k', subscription: SUBSCRIPTION }, SNAPSHOT))
})
const listenSocket = await new Promise<us_listen_socket>((resolve, reject) =>
  app.listen('127.0.0.1', 0, (token) => (token ? resolve(token) : reject(new Error('not listening')))),
)
const port = uws.us_socket_local_port(listenSocket)
t.teardown(() => {
  delivery.endAll()
  uws.us_listen_socket_close(listenSocket)
})

/** What a client received after its snapshot, as frame numbers and `gap <dropped>`. */
const summary = (frames: Array<{ type: string; n?: number; dropped?: number }>) =>
  frames.map((received) => (received.type === 'gap' ? `gap ${received.dropped}` : received.n))

/** An event stream of the candles, its snapshot received: its events as they arrive, and the response. */
async function openEventStream(t: Test) {
  const events = new MessageLog<{ event: string | undefined; data: string }>()
  const parser = createParser({ onEvent: ({ event, data }) => events.push({ event, data }) })
  const response = await withDeadline(
    new Promise<IncomingMessage>((resolve) => get(`http://127.0.0.1:${port}/events`, resolve)),
    EVENT_DEADLINE_MS,
    'the event stream to answer',
  )
  t.teardown(() => response.destroy())
  response.setEncoding('utf8')
  response.on('data', (chunk: string) => parser.feed(chunk))
  await events.waitFor((event) => event.event === 'snapshot', 'snapshot')
  return { events, response }
}

t.test('a WebSocket past the limit leaves its topics; once drained it is told in one gap what it missed', async (t) => {
  const client = await RawStreamClient.connect(`ws://127.0.0.1:${port}/candles`)
  t.teardown(() => client.destroy())
  await client.frames.waitFor((received) => received.json?.type === 'snapshot', 'snapshot')
  const connection = sockets.at(-1)!
  client.pause()
  published = 0
  // in one turn of the event loop, so nothing is read meanwhile: until the frame it is cut off at, then five more
  while (!connection.lagging && published < MAX_FRAMES_BEFORE_CUT_OFF) publish()
  t.ok(connection.lagging, `cut off at frame ${published}`)
  const firstMissed = published
  for (let more = 0; more < 5; more++) publish()

  client.resume()
  await client.frames.waitFor((received) => received.json?.type === 'gap', 'the gap')
  publish()
  await client.frames.waitFor((received) => received.json?.n === published, 'the frame after the gap')
  const delivered = Array.from({ length: firstMissed - 1 }, (_, index) => index + 1)
  t.strictSame(summary(client.messages.slice(1)), [...delivered, 'gap 6', published], 'every frame before, one gap, then the next')
  t.strictSame(
    client.messages.find((received) => received.type === 'gap'),
    { type: 'gap', dropped: 6 },
    'the gap frame',
  )
  t.equal(await metricValue(metrics.candleStreamDroppedFrames), 6, 'counted as dropped')
  t.equal(await metricValue(metrics.candleStreamFrames, { type: 'gap' }), 1)
})

t.test('an event stream past the limit is skipped; once writable it gets a gap event, and every frame is accounted for', async (t) => {
  const { events, response } = await openEventStream(t)
  const eventStream = eventStreams.at(-1)!
  response.pause()
  const droppedBefore = await metricValue(metrics.candleStreamDroppedFrames)
  published = 0
  // until more than the limit may be held for it: the next frames are skipped
  while (eventStream.held <= SLOW_CLIENT_BYTES && published < MAX_FRAMES_BEFORE_CUT_OFF) publish()
  t.ok(eventStream.held > SLOW_CLIENT_BYTES, `past the limit after frame ${published}`)
  const lastSent = published
  for (let more = 0; more < 5; more++) publish()

  response.resume()
  await events.waitFor((event) => event.event === 'gap', 'the gap event')
  // while what uWS holds hovers at the limit, a frame may be skipped again and told by another gap
  const candles = () => events.items.filter((event) => event.event === 'candle').map((event) => JSON.parse(event.data))
  while (!candles().some((candle) => candle.n > lastSent + 5)) {
    publish()
    await events.waitFor((event) => event.event !== 'snapshot', 'the next event', { from: events.items.length })
  }
  const frames = events.items.slice(1).map((event) => JSON.parse(event.data))
  const accounted = frames.reduce((sum, received) => sum + (received.type === 'gap' ? received.dropped : 1), 0)
  t.equal(accounted, published, 'every frame published was delivered or told in a gap')
  const firstGap = frames.findIndex((received) => received.type === 'gap')
  t.strictSame(
    summary(frames.slice(0, firstGap)),
    Array.from({ length: lastSent }, (_, index) => index + 1),
    'the frames up to the limit arrive in order, none missing',
  )
  t.ok(frames[firstGap].dropped >= 5, `the frames published past the limit were skipped (${frames[firstGap].dropped})`)
  const mismatches: string[] = []
  let expected = 1
  for (const received of frames) {
    if (received.type === 'gap') expected += received.dropped
    else if (received.n !== expected++) mismatches.push(`frame ${received.n} where ${expected - 1} was due`)
  }
  t.same(mismatches, [], 'each gap counts exactly the frames missing before the next')
  const gaps = frames.filter((received) => received.type === 'gap')
  t.equal(
    (await metricValue(metrics.candleStreamDroppedFrames)) - droppedBefore,
    gaps.reduce((sum, gap) => sum + gap.dropped, 0),
    'counted as dropped',
  )
})

t.test('a frame is encoded only when some client receives it, and once for all of them', async (t) => {
  const client = await RawStreamClient.connect(`ws://127.0.0.1:${port}/candles`)
  t.teardown(() => client.destroy())
  await client.frames.waitFor((received) => received.json?.type === 'snapshot', 'snapshot')
  const { events } = await openEventStream(t)

  const encoded: string[] = []
  const candle = (pairId: number, n: number) => ({
    pairId,
    resolution: SUBSCRIPTION.resolution,
    encode: () => (encoded.push(`${pairId}:${n}`), `{"type":"candle","n":${n}}`),
  })
  const unwatched = PAIRS[1]!.id
  delivery.publish([candle(unwatched, 1), candle(SUBSCRIPTION.pairIds[0]!, 2)])
  t.strictSame(encoded, [`${SUBSCRIPTION.pairIds[0]}:2`], 'the series nobody receives is not encoded; the other once')
  await client.frames.waitFor((received) => received.json?.n === 2, 'the frame on the WebSocket')
  const event = await events.waitFor((received) => received.event === 'candle', 'the frame on the event stream')
  t.equal(event.data, '{"type":"candle","n":2}')
})
