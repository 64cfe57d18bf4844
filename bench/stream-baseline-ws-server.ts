// The stream bench's baseline: the same fan-out on the `ws` package. One frame per tick shared by every
// socket that wants it, the 1 MB rule read from each socket's bufferedAmount, a gap before the next frame.
// Usage (started by bench/stream.ts): tsx bench/stream-baseline-ws-server.ts <nats url> <namespace> <port>
import { pino } from 'pino'
import { WebSocketServer, type WebSocket } from 'ws'
import { natsPriceBus } from '../bus/nats-price-bus.ts'
import { PAIRS, pairBySymbol } from '../schemas/pairs.ts'
import { TickFrameWriter, gapFrame, snapshotFrame } from '../services/stream/frames.ts'
import { wantsPair, type PairFilter } from '../services/stream/pair-filter.ts'
import { PublishedTicks } from '../services/stream/published-ticks.ts'
import { parseStreamQuery } from '../services/stream/stream-query.ts'

const [natsUrl, namespace, port] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])]
const SLOW_CLIENT_BYTES = 1024 * 1024

interface Client {
  socket: WebSocket
  filter: PairFilter
  dropped: number
}

const clients = new Set<Client>()
const published = new PublishedTicks()
const frames = new TickFrameWriter()
const bus = await natsPriceBus({ servers: natsUrl, namespace, name: 'stream-bench-baseline', logger: pino({ level: 'warn' }) })

bus.subscribeTicks((pair, data) => {
  const pairId = pairBySymbol(pair)?.id
  if (pairId === undefined) return
  const row = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  const seq = published.seq[pairId]! + 1
  // ws may still hold a frame while it writes, so each tick gets its own copy (once, not per socket)
  const frame = Buffer.from(frames.write(seq, row))
  published.record(pairId, seq, row)
  for (const client of clients) {
    if (!wantsPair(client.filter, pairId)) continue
    if (client.socket.bufferedAmount > SLOW_CLIENT_BYTES) {
      client.dropped++
      continue
    }
    if (client.dropped > 0) {
      client.socket.send(gapFrame(client.dropped))
      client.dropped = 0
    }
    client.socket.send(frame, { binary: false })
  }
})

const server = new WebSocketServer({ host: '127.0.0.1', port, path: '/v1/prices/stream', maxPayload: 4096 })
server.on('connection', (socket, request) => {
  const query = parseStreamQuery(new URL(request.url ?? '/', 'http://localhost').search.slice(1))
  const client: Client = { socket, filter: query.ok ? query.filter : null, dropped: 0 }
  socket.send(snapshotFrame(published, client.filter), { binary: false })
  clients.add(client)
  socket.on('close', () => clients.delete(client))
  socket.on('error', () => {})
})
server.on('listening', () => console.log(`baseline listening (${PAIRS.length} pairs)`))
