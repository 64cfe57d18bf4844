// A worker thread of the stream bench's load client: holds raw WebSocket connections, walks their frames
// without decoding rows, and records each tick's latency by looking up when the load generator
// published that (pair, seq). Nothing is added to the wire format.
import { encodeIntoCompressedBase64 } from 'hdr-histogram-js'
import { connect, type Socket } from 'node:net'
import { parentPort, workerData } from 'node:worker_threads'
import { PAIRS } from '../schemas/pairs.ts'
import { OPCODE, FrameReader, clientControlFrame, parseResponseHead, upgradeRequest } from '../test/support/raw-ws.ts'
import { latencyHistogram, publishedAtSlot, type WorkerCommand, type WorkerInput, type WorkerReport } from './stream-load-protocol.ts'

const input = workerData as WorkerInput
const publishedAt = new Float64Array(input.publishedAt)

// `{"type":"` is 9 bytes; the next one tells the frame type. `{"type":"tick","seq":` is 21 bytes.
const TYPE_AT = 9
const SEQ_AT = 21
const [TICK, GAP, SNAPSHOT] = ['t', 'g', 's'].map((letter) => letter.charCodeAt(0)) as [number, number, number]
/** `,"data":{"feed_id":"0x` then 64 hex digits, of which the bench's rows use the last 4 for the pair id */
const PAIR_ID_FROM_SEQ_END = ',"data":{"feed_id":"0x'.length + 60
/** Latency is recorded for one tick in this many: recording every one would cost the load client about a tenth of its core. */
const LATENCY_SAMPLE_EVERY = 4

interface Connection {
  socket: Socket
  reader: FrameReader
  /** last seq seen per pair id */
  lastSeq: Float64Array
  /** ticks announced by gap frames and not yet seen as seq jumps */
  announced: number
}

const connections: Connection[] = []
let counters = freshCounters()

function freshCounters() {
  return { ticks: 0, gaps: 0, dropped: 0, unexplained: 0, closed: 0, latency: latencyHistogram() }
}

function parseDigits(data: Buffer, from: number): [value: number, end: number] {
  let value = 0
  let at = from
  for (let byte = data[at]!; byte >= 48 && byte <= 57; byte = data[++at]!) value = value * 10 + byte - 48
  return [value, at]
}

function hexAt(data: Buffer, from: number): number {
  let value = 0
  for (let at = from; at < from + 4; at++) {
    const byte = data[at]!
    value = value * 16 + (byte <= 57 ? byte - 48 : (byte | 0x20) - 87)
  }
  return value
}

function onTick(connection: Connection, data: Buffer, start: number, receivedAt: number) {
  const [seq, seqEnd] = parseDigits(data, start + SEQ_AT)
  const pairId = hexAt(data, seqEnd + PAIR_ID_FROM_SEQ_END)
  if (++counters.ticks % LATENCY_SAMPLE_EVERY === 0) {
    const sent = publishedAt[publishedAtSlot(pairId, seq)]!
    if (sent > 0) counters.latency.recordValue(Math.max(1, Math.round((receivedAt - sent) * 1000)))
  }
  const previous = connection.lastSeq[pairId]!
  connection.lastSeq[pairId] = seq
  const missed = seq - previous - 1
  if (missed <= 0) return
  const explained = Math.min(missed, connection.announced)
  connection.announced -= explained
  counters.unexplained += missed - explained
}

function receive(connection: Connection, chunk: Buffer) {
  const receivedAt = performance.timeOrigin + performance.now()
  connection.reader.push(chunk, (opcode, data, start, end) => {
    if (opcode === OPCODE.ping) return connection.socket.write(clientControlFrame(OPCODE.pong, data.subarray(start, end)))
    if (opcode === OPCODE.close) return void counters.closed++
    if (opcode !== OPCODE.text) return
    const type = data[start + TYPE_AT]
    if (type === TICK) onTick(connection, data, start, receivedAt)
    else if (type === GAP) {
      const [dropped] = parseDigits(data, start + '{"type":"gap","dropped":'.length)
      counters.gaps++
      counters.dropped += dropped
      connection.announced += dropped
    } else if (type === SNAPSHOT) {
      const snapshot = JSON.parse(data.toString('utf8', start, end)) as { seq: Record<string, number> }
      for (const pair of PAIRS) connection.lastSeq[pair.id] = snapshot.seq[pair.symbol] ?? 0
    }
  })
}

/** Every read of every socket lands in this one buffer (no allocation per read); it is parsed at once. */
const readBuffer = Buffer.allocUnsafe(256 * 1024)

/** Opens one connection and resolves once it is upgraded; reads go straight to the frame reader. */
function open(query: string): Promise<void> {
  const url = new URL(`${input.url}${query}`)
  return new Promise((resolve, reject) => {
    let head: Buffer | undefined = Buffer.alloc(0)
    const connection: Connection = {
      socket: undefined as never,
      reader: new FrameReader(),
      lastSeq: new Float64Array(PAIRS.length),
      announced: 0,
    }
    const onRead = (length: number): boolean => {
      const chunk = readBuffer.subarray(0, length)
      if (!head) {
        receive(connection, chunk)
        return true
      }
      head = Buffer.concat([head, chunk])
      const response = parseResponseHead(head)
      if (!response) return true
      if (response.status !== 101) reject(new Error(`upgrade refused with ${response.status}`))
      const rest = head.subarray(response.bodyStart)
      head = undefined
      connections.push(connection)
      resolve()
      if (rest.length > 0) receive(connection, rest)
      return true
    }
    connection.socket = connect({ host: url.hostname, port: Number(url.port), onread: { buffer: readBuffer, callback: onRead } })
    connection.socket.on('error', reject)
    connection.socket.write(upgradeRequest(url))
  })
}

const reply = (message: WorkerReport) => parentPort!.postMessage(message)

parentPort!.on('message', async (command: WorkerCommand) => {
  switch (command.type) {
    case 'connect': {
      const target = Math.round(input.queries.length * command.share)
      for (let index = connections.length; index < target; index += 50)
        await Promise.all(input.queries.slice(index, Math.min(index + 50, target)).map(open))
      return reply({ type: 'connected', connections: connections.length })
    }
    case 'window':
      counters = freshCounters()
      return reply({ type: 'window' })
    case 'report': {
      const { latency, ...rest } = counters
      return reply({ type: 'report', ...rest, latency: encodeIntoCompressedBase64(latency) })
    }
    case 'pause':
      for (const connection of connections.slice(0, command.count)) connection.socket.pause()
      return reply({ type: 'paused' })
    case 'resume':
      for (const connection of connections) connection.socket.resume()
      return reply({ type: 'resumed' })
    case 'close':
      for (const connection of connections.splice(0)) connection.socket.destroy()
      return reply({ type: 'closed' })
  }
})
