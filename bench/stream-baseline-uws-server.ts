// The stream benches' baseline, the ceiling of the stream on one core: a bare uWebSockets.js app that takes
// each row off NATS, numbers it and publishes one tick frame to the sockets taking its pair (a uWS topic
// per pair, chosen by the `pairs` query), with nothing else (no slow-client rule, no metrics, no
// conflation, no limits). The same load client drives both.
// With a window (`<ms>:per-pair` or `<ms>:one-frame`, bench/stream-rate.ts) it plays a fixed rate instead: each
// pair's latest row of the window goes out at the window's end, either as one tick frame per pair (what the
// service sends by default) or as one `batch` frame holding every changed pair's tick frame (the service's
// `batch=true`), to the sockets taking every pair: the two shapes' cost to uWS, everything else equal.
// Usage (started by the stream benches): tsx bench/stream-baseline-uws-server.ts <nats url> <namespace> <port> [<window>]
import { connect } from '@nats-io/transport-node'
import { busNames } from '../bus/subjects.ts'
import { PAIRS, pairBySymbol } from '../schemas/pairs.ts'
import { loadNativeUws } from '../services/http/native-uws.ts'
import { TickFrameWriter, snapshotFrame } from '../services/stream/frames.ts'
import { PublishedTicks } from '../services/stream/published-ticks.ts'
import { atWindowEnds } from '../services/stream/rate-window.ts'

const [natsUrl, namespace, port, window] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4]), process.argv[5]]
const names = busNames(namespace)
const published = new PublishedTicks()
const frames = new TickFrameWriter()
const app = loadNativeUws().App()
// sockets taking every pair share one topic, as in the stream bench's all-pairs regime
const EVERY_PAIR = 'ticks'
const topicOf = (pairId: number) => `pair:${pairId}`

/** The pair ids of a `pairs` query; null without one (every pair). */
function pairIdsOf(query: string): number[] | null {
  const symbols = new URLSearchParams(query).get('pairs')
  return symbols ? symbols.split(',').flatMap((symbol) => pairBySymbol(symbol)?.id ?? []) : null
}

const [WINDOW_HEAD, COMMA, WINDOW_TAIL] = ['{"type":"batch","frames":[', ',', ']}'].map((text) => Buffer.from(text)) as [
  Buffer,
  Buffer,
  Buffer,
]

/** Sends one tick at once (real time), or keeps it as its pair's latest of the window. */
let take = (pairId: number, seq: number, row: Buffer) => {
  const frame = frames.write(seq, row)
  app.publish(EVERY_PAIR, frame)
  app.publish(topicOf(pairId), frame)
}
if (window !== undefined) {
  const [windowMs, shape] = window.split(':')
  if (!Number(windowMs) || (shape !== 'per-pair' && shape !== 'one-frame'))
    throw new Error(`a window is <ms>:per-pair or <ms>:one-frame, not ${window}`)
  const latest = new Map<number, { seq: number; row: Buffer }>()
  take = (pairId, seq, row) => void latest.set(pairId, { seq, row })
  const endWindow = () => {
    const ticks = [...latest.values()]
    latest.clear()
    if (ticks.length === 0) return
    if (shape === 'per-pair') for (const { seq, row } of ticks) app.publish(EVERY_PAIR, frames.write(seq, row))
    else
      app.publish(
        EVERY_PAIR,
        Buffer.concat([
          WINDOW_HEAD,
          ...ticks.flatMap(({ seq, row }) => [Buffer.from(frames.write(seq, row)), COMMA]).slice(0, -1),
          WINDOW_TAIL,
        ]),
      )
  }
  // windows end where the edge's do: on multiples of their length in wall-clock time
  atWindowEnds(Number(windowMs), endWindow)
}

const nc = await connect({ servers: natsUrl, name: 'stream-bench-baseline' })
nc.subscribe(names.allTicks, {
  callback: (error, message) => {
    if (error) return
    const pairId = pairBySymbol(names.pairOfTickSubject(message.subject))?.id
    if (pairId === undefined) return
    const row = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength)
    const seq = published.seq[pairId]! + 1
    take(pairId, seq, row)
    published.record(pairId, seq, row)
  },
})

app
  .ws<{ pairIds: number[] | null }>('/v1/prices/stream', {
    compression: 0,
    idleTimeout: 0,
    maxBackpressure: 64 * 1024 * 1024,
    upgrade(res, req, context) {
      const key = req.getHeader('sec-websocket-key')
      const [protocol, extensions] = [req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions')]
      res.upgrade({ pairIds: pairIdsOf(req.getQuery() ?? '') }, key, protocol, extensions, context)
    },
    open(socket) {
      const { pairIds } = socket.getUserData()
      socket.send(snapshotFrame(published, pairIds && new Set(pairIds)))
      if (pairIds === null) socket.subscribe(EVERY_PAIR)
      else for (const pairId of pairIds) socket.subscribe(topicOf(pairId))
    },
  })
  .get('/healthz', (res) => void res.end('ok'))
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) throw new Error(`cannot listen on ${port}`)
    console.log(`baseline listening (${PAIRS.length} pairs)`)
  })
