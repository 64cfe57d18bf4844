// permessage-deflate on the price stream: for the same tick load, clients that offer it against clients that do
// not, on one edge per STREAM_COMPRESSION setting, in one run. For each: bytes on the wire per delivered tick,
// the edge's CPU per delivered message and per connection opened (upgrade and snapshot), and the snapshot
// frame's size. The clients are raw TCP readers in this process (they count bytes
// and frames and inflate nothing, so the figures are the edge's); the edge runs as deployed on CPU 0, this
// process (clients and publisher) and nats-server on CPU 1. Rows change every tick (a walk of each pair's
// prices and the second's timestamp), so a compressor's window cannot just repeat the previous tick.
// With --formats full,compact each kind of client is measured with full rows and with compact frames
// (?format=compact); the rows' static parts hold, so a compact client gets no static frame after its snapshot.
// Usage: npm run bench:stream-deflate [-- --clients 100 --rate 300 --seconds 3 --warmup 1
//        --compressions off,snapshots,shared,dedicated-32kb --formats full,compact]
import { connect } from '@nats-io/transport-node'
import type { Socket } from 'node:net'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { rowBytes, syntheticPriceRow } from '../schemas/synthetic-price-row.ts'
import { STREAM_COMPRESSIONS, type StreamCompression } from '../services/stream/compression.ts'
import { loadAverage, processCpuMs } from '../loadtest/cpu-meter.ts'
import { pinRunning } from '../loadtest/pinning.ts'
import { totalCpuMs } from '../loadtest/server-processes.ts'
import { TickPublisher } from '../loadtest/tick-publisher.ts'
import { clientControlFrame, FrameReader, OPCODE } from '../loadtest/ws-frames.ts'
import { rawUpgrade } from '../test/support/raw-ws.ts'
import { freePort, startNats } from '../test/support/servers.ts'
import { waitFor } from '../test/support/wait.ts'
import { reportRows } from './report.ts'
import { startStreamService, type StreamServer } from './stream-servers.ts'

const command = parseCommandLine({
  usage: 'npm run bench:stream-deflate -- [options]',
  summary:
    'permessage-deflate on the price stream: bytes per delivered tick, the edge’s CPU per delivered message and per\n' +
    'connection opened, and the snapshot’s size, for clients offering it against clients not offering it, for each\n' +
    'STREAM_COMPRESSION setting (one edge each), in one run.',
  options: {
    clients: { type: 'string', default: '100', value: 'N', description: 'all-pairs connections of each kind' },
    rate: { type: 'string', default: '300', value: 'N', description: 'ticks/s published' },
    seconds: { type: 'string', default: '3', value: 'S', description: 'seconds measured per kind of client' },
    warmup: { type: 'string', default: '1', value: 'S', description: 'seconds of ticks before each measurement' },
    compressions: {
      type: 'string',
      default: 'off,snapshots,shared,dedicated-32kb',
      value: 'LIST',
      description: `STREAM_COMPRESSION settings, comma-separated: ${STREAM_COMPRESSIONS.join(', ')}`,
    },
    formats: { type: 'string', default: 'full', value: 'LIST', description: 'stream formats, comma-separated: full, compact' },
  },
})
const whole = { min: 1, integer: true }
const clients = command.number('clients', whole)
const rate = command.number('rate', whole)
const measureMs = command.number('seconds', { min: 0.1 }) * 1000
const warmupMs = command.number('warmup', { min: 0 }) * 1000
const compressions = command.values.compressions.split(',').map((text) => command.choice('compressions', STREAM_COMPRESSIONS, text))
const formats = command.values.formats.split(',').map((text) => command.choice('formats', ['full', 'compact'] as const, text))
const progress = progressReporter()
const loadBefore = loadAverage()

/** What a client sends to offer permessage-deflate, as browsers do */
const OFFER = { 'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits' }

// ---- the load: every pair's prices walk, rounded as a feed's are; the row's second moves on

const mids = PAIRS.map((pair) => 100 * (1 + pair.id / 10))
const tickRow = (pairId: number) => {
  const mid = (mids[pairId] = Math.round(mids[pairId]! * (1 + (Math.random() - 0.5) * 2e-4) * 1e4) / 1e4)
  const spread = Math.round(mid * 1e-4 * 1e4) / 1e4
  return rowBytes(syntheticPriceRow(PAIRS[pairId]!.symbol, { bid: mid - spread, mid, ask: mid + spread }))
}

// ---- raw clients: they count what arrives on the socket and the frames in it, and answer pings

interface Counts {
  bytes: number
  ticks: number
  gaps: number
}

class CountingClient {
  readonly counts: Counts = { bytes: 0, ticks: 0, gaps: 0 }
  /** header and payload of the first frame, the snapshot */
  snapshotFrameBytes = 0
  private readonly reader = new FrameReader()

  constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk))
    socket.on('error', () => {})
  }

  /** `negotiates`: whether the edge is to answer with the extension */
  static async open(url: string, offer: boolean, negotiates: boolean): Promise<CountingClient> {
    const upgrade = await rawUpgrade(url, offer ? OFFER : {})
    if (upgrade.status !== 101) throw new Error(`upgrade refused with ${upgrade.status}`)
    const negotiated = upgrade.headers['sec-websocket-extensions'] !== undefined
    if (negotiated !== negotiates)
      throw new Error(
        `permessage-deflate ${negotiated ? 'negotiated' : 'not negotiated'} for a client that ${offer ? 'offers' : 'does not offer'} it`,
      )
    const client = new CountingClient(upgrade.socket)
    if (upgrade.rest.length > 0) client.receive(upgrade.rest)
    return client
  }

  close(): void {
    this.socket.destroy()
  }

  private receive(chunk: Buffer): void {
    this.counts.bytes += chunk.length
    this.reader.push(chunk, (opcode, data, start, end, compressed) => {
      const length = end - start
      if (this.snapshotFrameBytes === 0) this.snapshotFrameBytes = length + (length < 126 ? 2 : length < 65_536 ? 4 : 10)
      else if (opcode === OPCODE.ping) this.socket.write(clientControlFrame(OPCODE.pong, data.subarray(start, end)))
      // gaps go uncompressed; every compressed frame after the snapshot is a tick
      else if (opcode === OPCODE.text) this.counts[!compressed && data[start + 9] === 0x67 /* {"type":"g */ ? 'gaps' : 'ticks']++
    })
  }
}

const sumCounts = (of: CountingClient[]): Counts =>
  of.reduce(
    (sum, client) => ({
      bytes: sum.bytes + client.counts.bytes,
      ticks: sum.ticks + client.counts.ticks,
      gaps: sum.gaps + client.counts.gaps,
    }),
    {
      bytes: 0,
      ticks: 0,
      gaps: 0,
    },
  )

// ---- the run

pinRunning('1', process.pid)
const nats = await startNats()
const nc = await connect({ servers: nats.url, name: 'stream-deflate-bench' })
const rows: Array<Record<string, string | number>> = []

async function measureKind(server: StreamServer, url: string, compression: StreamCompression, format: string, offer: boolean) {
  const kind = offer ? 'offers deflate' : 'does not offer'
  const pids = server.pids()
  progress(`${compression}, ${format}: ${clients} clients that ${kind}: opening`)
  const cpuBeforeOpen = totalCpuMs(pids)
  const connections = await Promise.all(
    Array.from({ length: clients }, () => CountingClient.open(url, offer, offer && compression !== 'off')),
  )
  await waitFor(() => connections.every((client) => client.snapshotFrameBytes > 0), { what: 'every snapshot', timeoutMs: 30_000 })
  const openCpuMs = totalCpuMs(pids) - cpuBeforeOpen

  progress(`${compression}, ${format}: ${clients} clients that ${kind}: ${rate} ticks/s`)
  const publisher = new TickPublisher(nc, server.namespace, tickRow)
  const publishing = publisher.run(rate, warmupMs + measureMs)
  await new Promise((resolve) => setTimeout(resolve, warmupMs))
  const [before, cpuBefore, ownCpuBefore, startedAt] = [
    sumCounts(connections),
    totalCpuMs(pids),
    processCpuMs(process.pid),
    performance.now(),
  ]
  await new Promise((resolve) => setTimeout(resolve, measureMs))
  const [after, cpuAfter, ownCpuAfter, elapsedMs] = [
    sumCounts(connections),
    totalCpuMs(pids),
    processCpuMs(process.pid),
    performance.now() - startedAt,
  ]
  await publishing
  for (const client of connections) client.close()
  await waitFor(async () => (await fetch(server.metricsUrl!).then((response) => response.text())).match(/^venue_stream_connections 0$/m), {
    what: 'every connection closed',
  })

  const ticks = after.ticks - before.ticks
  const row = {
    compression,
    format,
    client: kind,
    'delivered msg/s': Math.round((ticks / elapsedMs) * 1000),
    gaps: after.gaps - before.gaps,
    'bytes/tick': (after.bytes - before.bytes) / ticks,
    'edge CPU µs/msg': ((cpuAfter - cpuBefore) * 1000) / ticks,
    'edge CPU %': Math.round(((cpuAfter - cpuBefore) / elapsedMs) * 100),
    'snapshot bytes': connections[0]!.snapshotFrameBytes,
    'edge CPU ms/open': openCpuMs / clients,
    'bench CPU %': Math.round(((ownCpuAfter - ownCpuBefore) / elapsedMs) * 100),
  }
  rows.push(row)
  console.log(
    Object.entries(row)
      .map(([key, value]) => `${key}=${typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(2) : value}`)
      .join('  '),
  )
}

try {
  for (const compression of compressions) {
    progress(`${compression}: starting the edge`)
    const port = await freePort()
    const server = await startStreamService({ natsUrl: nats.url, workers: 1, port, cpus: '0', env: { STREAM_COMPRESSION: compression } })
    const streamUrl = `ws://127.0.0.1:${port}/v1/prices/stream`
    try {
      // one row per pair first, so every snapshot carries every pair
      const warm = new TickPublisher(nc, server.namespace, tickRow)
      for (const pair of PAIRS) warm.publish(pair.id)
      await waitFor(async () => (await (await fetch(`http://127.0.0.1:${port}/v1/prices`)).json()).prices.length === PAIRS.length, {
        what: 'a row for every pair',
      })
      for (const format of formats) {
        const url = format === 'compact' ? `${streamUrl}?format=compact` : streamUrl
        await measureKind(server, url, compression, format, false)
        // with compression off an offering client gets what the others get
        if (compression !== 'off') await measureKind(server, url, compression, format, true)
      }
    } finally {
      await server.stop()
    }
  }
  reportRows(
    'stream-deflate',
    { clients, rate, seconds: measureMs / 1000, warmup: warmupMs / 1000, compressions, formats },
    rows,
    loadBefore,
    'permessage-deflate on the price stream',
  )
} finally {
  await nc.close()
  await nats.dispose()
}
