import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { OPCODE, RawStreamClient } from '../../../test/support/raw-ws.ts'
import { openStream } from '../../../test/support/stream-clients.ts'
import { EVENT_DEADLINE_MS, waitFor } from '../../../test/support/wait.ts'

t.test('heartbeat: a connection that does not answer pings is terminated; one that answers stays', async (t) => {
  // 1.5 s between pings: a pong the process read late, after a pause of up to that, still counts
  const edge = await startTestEdge({ env: { STREAM_PING_INTERVAL_MS: '1500' } })
  t.teardown(edge.stop)
  const silent = await RawStreamClient.connect(edge.streamUrl, { answerPings: false })
  const answering = await openStream(edge.streamUrl)
  t.teardown(() => (silent.destroy(), answering.socket.terminate()))
  let pingsAnswered = 0
  answering.socket.on('ping', () => pingsAnswered++)

  await silent.waitForClose(EVENT_DEADLINE_MS)
  const opcodes = silent.frames.items.map((frame) => frame.opcode)
  t.ok(opcodes.includes(OPCODE.ping), 'it was pinged')
  t.notOk(opcodes.includes(OPCODE.close), 'terminated: no close frame')
  t.equal(await metricValue(edge.metrics.streamHeartbeatTerminations), 1)

  const answeredBefore = pingsAnswered
  await waitFor(() => pingsAnswered >= answeredBefore + 3, { what: 'three more pings to the answering client' })
  t.equal(answering.socket.readyState, answering.socket.OPEN, 'the answering connection is still open')
})

t.test('shutdown: upgrades stop, buffered frames drain, every socket is closed with 1001 before stop returns', async (t) => {
  const edge = await startTestEdge()
  const everything = await openStream(edge.streamUrl)
  const btcOnly = await RawStreamClient.connect(`${edge.streamUrl}?pairs=BTC-USD`)
  t.teardown(() => btcOnly.destroy())
  for (let mid = 1; mid <= 50; mid++) edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid })))
  await waitFor(async () => (await metricValue(edge.metrics.streamFrames, { type: 'tick' })) === 100, {
    what: 'fan-out of 50 ticks to 2 connections',
  })

  await edge.stop()
  t.equal(await metricValue(edge.metrics.streamConnections), 0, 'every socket closed when stop returns')
  const closed = await everything.closed
  t.same(closed, { code: 1001, reason: 'going away' })
  t.same(
    everything.messages.items.slice(1).map((frame) => frame.seq),
    Array.from({ length: 50 }, (_, index) => index + 1),
    'every tick arrived first',
  )
  await btcOnly.waitForClose()
  const last = btcOnly.frames.items.at(-1)!
  t.equal(last.opcode, OPCODE.close)
  t.equal(last.payload.readUInt16BE(0), 1001)
  t.equal(btcOnly.messages.length, 51, 'the snapshot and every tick before the close')
  await t.rejects(openStream(edge.streamUrl), 'no new connections')
})
