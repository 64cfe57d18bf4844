// A worker thread of the stream load test: holds raw WebSocket connections (or event-stream responses), walks
// their frames without decoding rows, and records each tick's latency (see LatencySource). Nothing is added
// to the wire. With `resume` each connection keeps its last cursor and seq baselines across reconnects. On the
// candle stream it counts candle frames, and records each closed candle's latency from its period's end.
import { connect, type Socket } from 'node:net'
import { connect as connectTls } from 'node:tls'
import { parentPort, workerData } from 'node:worker_threads'
import { PAIRS } from '../schemas/pairs.ts'
import { encodeHistogram, latencyHistogram } from './latency.ts'
import { freshCounters, publishedAtSlot, type StreamCommand, type StreamReply, type StreamWorkerInput } from './stream-protocol.ts'
import { EventStreamReader, eventStreamRequest } from './sse-events.ts'
import { clientControlFrame, FrameReader, OPCODE, parseResponseHead, upgradeRequest } from './ws-frames.ts'

const input = workerData as StreamWorkerInput
const publishedAt = input.latency.kind === 'published' ? new Float64Array(input.latency.publishedAt) : undefined
const clockOffsetMs = input.latency.kind === 'row-timestamp' ? input.latency.clockOffsetMs : 0

// `{"type":"` is 9 bytes; the next one tells the frame type. `{"type":"tick","seq":` is 21 bytes.
const TYPE_AT = 9
const SEQ_AT = 21
const [TICK, GAP, SNAPSHOT, RESUMED, HEARTBEAT, CANDLE, BATCH] = ['t', 'g', 's', 'r', 'h', 'c', 'b'].map((letter) =>
  letter.charCodeAt(0),
) as [number, number, number, number, number, number, number]
/** `{"type":"batch","frames":[` is 26 bytes; a row holds no "type" key, so `,{"type":"` only ever starts the next frame */
const BATCH_FRAMES_AT = 26
const NEXT_FRAME = Buffer.from(',{"type":"')
/** `{"type":"resumed","recovered":` is 30 bytes: then `t`rue or `f`alse */
const RECOVERED_AT = 30
const CURSOR_KEY = Buffer.from('"cursor":"')
/** from the end of the seq to the last 8 hex digits of the row's 64-digit feed id */
const FEED_KEY_FROM_SEQ_END = ',"data":{"feed_id":"0x'.length + 56
const TIMESTAMP_KEY = Buffer.from('"timestampSeconds":')
/** Latency is recorded for one tick in this many: recording every one would cost a tenth of a client core. */
const LATENCY_SAMPLE_EVERY = 4
/** a candle frame ends with its `closed` flag: `,"closed":true}}` for the last one of its period */
const CLOSED_CANDLE_END = Buffer.from('"closed":true}}')
const CANDLE_TIME_KEY = Buffer.from('"time":')

/** pair id by the last 8 hex digits of its feed id, learnt from snapshots */
const pairByFeedKey = new Map<number, number>()
const pairIdBySymbol = new Map(PAIRS.map((pair) => [pair.symbol, pair.id]))

interface Connection {
  index: number
  socket: Socket
  reader: FrameReader
  /** the event-stream body's reader (transport sse), once the response head is in */
  events?: EventStreamReader
  /** closed by a `drop` command: reopens at once */
  dropped: boolean
  /** last seq seen per pair id */
  lastSeq: Float64Array
  /** ticks announced by gap frames and not yet seen as seq jumps */
  announced: number
  /** a close frame was received (its code counted) */
  closeSeen: boolean
  /** its first frame (snapshot or resumed) is in: a storm may close it */
  started: boolean
}

const open = new Map<number, Connection>()
/** per query index, kept across its reconnects: the last cursor received and the last seq per pair id */
const cursors: Array<string | undefined> = []
const lastSeqs = input.queries.map(() => new Float64Array(PAIRS.length))
/** query indexes opening, open or waiting to reopen */
const claimed = new Set<number>()
/** query indexes a `drop` closed that have not had their first frame (snapshot or resumed) since */
const reopening = new Set<number>()
/** resolves a `settle` once `reopening` is empty */
let settled: (() => void) | undefined
let closing = false
let counters = freshCounters()
let latency = latencyHistogram()

const increment = (record: Record<string, number>, key: string) => void (record[key] = (record[key] ?? 0) + 1)

function parseDigits(data: Buffer, from: number): [value: number, end: number] {
  let value = 0
  let at = from
  for (let byte = data[at]!; byte >= 48 && byte <= 57; byte = data[++at]!) value = value * 10 + byte - 48
  return [value, at]
}

function hex8At(data: Buffer, from: number): number {
  let value = 0
  for (let at = from; at < from + 8; at++) {
    const byte = data[at]!
    value = value * 16 + (byte <= 57 ? byte - 48 : (byte | 0x20) - 87)
  }
  return value
}

function recordLatency(data: Buffer, start: number, end: number, pairId: number, seq: number, receivedAt: number) {
  let sentAt = 0
  if (publishedAt) sentAt = pairId >= 0 ? publishedAt[publishedAtSlot(pairId, seq)]! : 0
  else {
    const at = data.indexOf(TIMESTAMP_KEY, start)
    if (at > 0 && at < end) sentAt = parseDigits(data, at + TIMESTAMP_KEY.length)[0] * 1000 - clockOffsetMs
  }
  if (sentAt > 0) latency.recordValue(Math.max(1, Math.round((receivedAt - sentAt) * 1000)))
}

function onTick(connection: Connection, data: Buffer, start: number, end: number, receivedAt: number) {
  const [seq, seqEnd] = parseDigits(data, start + SEQ_AT)
  const pairId = pairByFeedKey.get(hex8At(data, seqEnd + FEED_KEY_FROM_SEQ_END)) ?? -1
  if (++counters.ticks % LATENCY_SAMPLE_EVERY === 0) recordLatency(data, start, end, pairId, seq, receivedAt)
  if (pairId < 0) return
  const previous = connection.lastSeq[pairId]!
  connection.lastSeq[pairId] = seq
  const missed = seq - previous - 1
  if (previous === 0 || missed <= 0) return
  const explained = Math.min(missed, connection.announced)
  connection.announced -= explained
  if (input.folds) counters.folded += missed - explained
  else counters.unexplained += missed - explained
}

/** A candle frame; a closed one's latency is from its period's end (`time` + the period, on the service's clock). */
function onCandle(data: Buffer, start: number, end: number, receivedAt: number) {
  counters.ticks++
  if (
    end - start < CLOSED_CANDLE_END.length ||
    data.compare(CLOSED_CANDLE_END, 0, CLOSED_CANDLE_END.length, end - CLOSED_CANDLE_END.length, end) !== 0
  )
    return
  counters.closedCandles++
  const at = data.indexOf(CANDLE_TIME_KEY, start)
  if (at < 0 || at >= end) return
  const periodEnd = parseDigits(data, at + CANDLE_TIME_KEY.length)[0] + input.candlePeriodMs! - clockOffsetMs
  latency.recordValue(Math.max(1, Math.round((receivedAt - periodEnd) * 1000)))
}

function onSnapshot(connection: Connection, text: string) {
  const snapshot = JSON.parse(text) as { seq: Record<string, number>; data: Array<{ feed_id: string; pair: string }> }
  for (const row of snapshot.data) {
    const id = pairIdBySymbol.get(row.pair)
    if (id !== undefined) pairByFeedKey.set(Number.parseInt(row.feed_id.slice(-8), 16), id)
  }
  connection.lastSeq.fill(0)
  for (const [pair, seq] of Object.entries(snapshot.seq)) {
    const id = pairIdBySymbol.get(pair)
    if (id !== undefined) connection.lastSeq[id] = seq
  }
}

/** One frame of the stream (a WebSocket text frame, or an event's data: the same JSON). */
function onFrame(connection: Connection, data: Buffer, start: number, end: number, receivedAt: number) {
  counters.bytes += end - start
  readFrame(connection, data, start, end, receivedAt)
}

function readFrame(connection: Connection, data: Buffer, start: number, end: number, receivedAt: number) {
  const type = data[start + TYPE_AT]
  if (type === BATCH) readBatch(connection, data, start, end, receivedAt)
  else if (type === TICK) onTick(connection, data, start, end, receivedAt)
  else if (type === CANDLE) onCandle(data, start, end, receivedAt)
  else if (type === GAP) {
    const [dropped] = parseDigits(data, start + '{"type":"gap","dropped":'.length)
    counters.gaps++
    counters.dropped += dropped
    connection.announced += dropped
  } else if (type === SNAPSHOT) {
    back(connection)
    counters.snapshots++
    // a candle snapshot holds no seq: nothing to learn from it
    if (input.candlePeriodMs === undefined) onSnapshot(connection, data.toString('utf8', start, end))
  } else if (type === HEARTBEAT) {
    counters.heartbeats++
  } else if (type === RESUMED) {
    back(connection)
    if (data[start + RECOVERED_AT] === TICK) counters.recovered++
    else counters.notRecovered++
  }
}

/** A window's frames, or ticks sent together, in one (`?batch=true`): each frame inside read as if it came alone. */
function readBatch(connection: Connection, data: Buffer, start: number, end: number, receivedAt: number) {
  const last = end - 2 // before `]}`
  for (let at = start + BATCH_FRAMES_AT; at < last;) {
    const next = data.indexOf(NEXT_FRAME, at + 1)
    const frameEnd = next < 0 || next > last ? last : next
    readFrame(connection, data, at, frameEnd, receivedAt)
    at = frameEnd + 1
  }
}

/** A connection has its first frame: when a `drop` closed it, it is back. */
function back(connection: Connection) {
  connection.started = true
  if (reopening.delete(connection.index) && reopening.size === 0) settled?.()
}

/** A WebSocket frame's trailing cursor (a connection that asked for cursors) is where it resumes next. */
function keepCursor(index: number, data: Buffer, start: number, end: number) {
  const at = data.lastIndexOf(CURSOR_KEY, end)
  if (at >= start) cursors[index] = data.toString('latin1', at + CURSOR_KEY.length, end - 2)
}

function receive(connection: Connection, chunk: Buffer) {
  const receivedAt = performance.timeOrigin + performance.now()
  if (connection.events) {
    return connection.events.push(chunk, (id, data) => {
      if (id !== undefined && input.resume) cursors[connection.index] = id
      onFrame(connection, data, 0, data.length, receivedAt)
    })
  }
  connection.reader.push(chunk, (opcode, data, start, end) => {
    if (opcode === OPCODE.ping) return void connection.socket.write(clientControlFrame(OPCODE.pong, data.subarray(start, end)))
    if (opcode === OPCODE.close) {
      connection.closeSeen = true
      increment(counters.closes, String(end - start >= 2 ? data.readUInt16BE(start) : 1005))
      return void connection.socket.end()
    }
    if (opcode !== OPCODE.text) return
    if (input.resume) keepCursor(connection.index, data, start, end)
    onFrame(connection, data, start, end, receivedAt)
  })
}

/** Every read of every socket lands in this one buffer (no allocation per read); it is parsed at once. */
const readBuffer = Buffer.allocUnsafe(256 * 1024)

function reopenLater(index: number, afterMs: number, dropped = false) {
  if (closing || (!input.reconnect && !dropped)) return void claimed.delete(index)
  setTimeout(() => {
    if (closing) return
    counters.reconnects++
    void openConnection(index)
  }, afterMs).unref()
}

/** Opens connection `index`; resolves once it is upgraded or refused. */
function openConnection(index: number): Promise<void> {
  claimed.add(index)
  const url = new URL(`${input.url}${input.queries[index]}`)
  const cursor = input.resume ? cursors[index] : undefined
  if (input.resume && input.transport === 'ws') {
    if (cursor === undefined) url.searchParams.set('cursor', 'true')
    else url.searchParams.set('from', cursor)
  }
  const sse = input.transport === 'sse'
  const localAddress = input.localAddresses.length > 0 ? input.localAddresses[index % input.localAddresses.length] : undefined
  return new Promise((resolve) => {
    let head: Buffer | undefined = Buffer.alloc(0)
    const connection: Connection = {
      index,
      socket: undefined as never,
      reader: new FrameReader(),
      dropped: false,
      lastSeq: lastSeqs[index]!,
      announced: 0,
      closeSeen: false,
      started: false,
    }
    const onChunk = (chunk: Buffer) => {
      if (!head) return receive(connection, chunk)
      head = Buffer.concat([head, chunk])
      const response = parseResponseHead(head)
      if (!response) return
      const rest = head.subarray(response.bodyStart)
      head = undefined
      if (response.status !== (sse ? 200 : 101)) {
        increment(counters.refused, String(response.status))
        connection.closeSeen = true
        connection.socket.destroy()
        return reopenLater(index, Math.max(1, Number(response.headers['retry-after']) || 1) * 1000)
      }
      counters.upgrades++
      if (sse) connection.events = new EventStreamReader(response.headers['transfer-encoding'] === 'chunked')
      open.set(index, connection)
      resolve()
      if (rest.length > 0) receive(connection, rest)
    }
    const port = Number(url.port) || (url.protocol === 'wss:' ? 443 : 80)
    const options = { host: url.hostname, port, ...(localAddress && { localAddress }) }
    if (url.protocol === 'wss:') {
      connection.socket = connectTls({ ...options, servername: url.hostname })
      connection.socket.on('data', onChunk)
    } else {
      // plain sockets read straight into the shared buffer
      const onread = { buffer: readBuffer, callback: (length: number) => (onChunk(readBuffer.subarray(0, length)), true) }
      connection.socket = connect({ ...options, onread })
    }
    connection.socket.on('error', () => {
      if (head) increment(counters.refused, 'error')
    })
    connection.socket.on('close', () => {
      resolve()
      const wasOpen = open.delete(index)
      if (closing) return
      if (wasOpen && !connection.closeSeen) increment(counters.closes, '1006')
      if (connection.dropped) reopenLater(index, 0, true)
      else if (wasOpen || head) reopenLater(index, 1000)
    })
    connection.socket.write(sse ? eventStreamRequest(url, cursor) : upgradeRequest(url))
  })
}

function openUpTo(count: number): Promise<void>[] {
  const opening: Promise<void>[] = []
  for (let index = 0; index < Math.min(count, input.queries.length); index++) if (!claimed.has(index)) opening.push(openConnection(index))
  return opening
}

const reply = (message: StreamReply) => parentPort!.postMessage(message)

async function handle(command: StreamCommand & { id: number }): Promise<void> {
  const { id } = command
  switch (command.type) {
    case 'connect':
      void Promise.all(openUpTo(command.count))
      return reply({ id, type: 'done', open: open.size })
    case 'connect-all': {
      // in batches, so a large count does not open thousands of handshakes at once
      for (let opened = 0; opened < command.count; opened += 50) await Promise.all(openUpTo(Math.min(opened + 50, command.count)))
      return reply({ id, type: 'done', open: open.size })
    }
    case 'report': {
      const report = { ...counters, open: open.size }
      const encoded = encodeHistogram(latency)
      if (command.reset) {
        counters = freshCounters()
        latency = latencyHistogram()
      }
      return reply({ id, type: 'report', counters: report, latency: encoded })
    }
    case 'drop':
      // only connections that have their first frame: one closed again before its snapshot or resumed frame
      // would reopen once for two closes, and its first reopening would never be counted back
      for (const connection of [...open.values()].filter((open) => open.started).slice(0, command.count)) {
        reopening.add(connection.index)
        counters.stormClosed++
        connection.dropped = true
        connection.closeSeen = true
        connection.socket.destroy()
      }
      return reply({ id, type: 'done', open: open.size })
    case 'settle':
      if (reopening.size > 0) {
        await new Promise<void>((resolve) => {
          settled = resolve
          setTimeout(resolve, command.withinMs).unref()
        })
        settled = undefined
      }
      return reply({ id, type: 'done', open: open.size })
    case 'pause':
      for (const connection of [...open.values()].slice(0, command.count)) connection.socket.pause()
      return reply({ id, type: 'done', open: open.size })
    case 'resume':
      for (const connection of open.values()) connection.socket.resume()
      return reply({ id, type: 'done', open: open.size })
    case 'close':
      closing = true
      for (const connection of open.values()) connection.socket.destroy()
      open.clear()
      return reply({ id, type: 'done', open: 0 })
  }
}

parentPort!.on('message', (command: StreamCommand & { id: number }) => void handle(command))
