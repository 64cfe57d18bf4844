// The stream bench's baseline, the ceiling of the stream on one core: a bare uWebSockets.js app that takes
// each row off NATS, numbers it and publishes one tick frame to every socket, with nothing else (no
// filters, no slow-client rule, no metrics, no conflation). The same load client drives both.
// Usage (started by bench/stream.ts): tsx bench/stream-baseline-uws-server.ts <nats url> <namespace> <port>
import { connect } from '@nats-io/transport-node'
import { busNames } from '../bus/subjects.ts'
import { PAIRS, pairBySymbol } from '../schemas/pairs.ts'
import { loadNativeUws } from '../services/http/native-uws.ts'
import { TickFrameWriter, snapshotFrame } from '../services/stream/frames.ts'
import { PublishedTicks } from '../services/stream/published-ticks.ts'

const [natsUrl, namespace, port] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])]
const names = busNames(namespace)
const published = new PublishedTicks()
const frames = new TickFrameWriter()
const app = loadNativeUws().App()

const nc = await connect({ servers: natsUrl, name: 'stream-bench-baseline' })
nc.subscribe(names.allTicks, {
  callback: (error, message) => {
    if (error) return
    const pairId = pairBySymbol(names.pairOfTickSubject(message.subject))?.id
    if (pairId === undefined) return
    const row = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength)
    const seq = published.seq[pairId]! + 1
    app.publish('ticks', frames.write(seq, row))
    published.record(pairId, seq, row)
  },
})

app
  .ws('/v1/prices/stream', {
    compression: 0,
    idleTimeout: 0,
    maxBackpressure: 64 * 1024 * 1024,
    open(socket) {
      socket.send(snapshotFrame(published, null))
      socket.subscribe('ticks')
    },
  })
  .get('/healthz', (res) => void res.end('ok'))
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) throw new Error(`cannot listen on ${port}`)
    console.log(`baseline listening (${PAIRS.length} pairs)`)
  })
