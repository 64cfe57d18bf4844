// The reference client of `WS /v1/prices/stream`: keeps the latest row per pair, notices loss from seq
// jumps and gap frames, recovers by re-reading GET /v1/prices, and reconnects with backoff and jitter,
// resuming after the last tick's cursor so that a reconnect loses nothing the server still retains.
// It runs in browsers (the standard WebSocket) and on Node (`nodeSocket` from ./node.ts).

import { CompactRows } from './compact-rows.ts'
import { reconnectDelayMs } from './reconnect-delay.ts'
import { CLOSED, silenceWatch, type SilenceWatch } from './silence-watch.ts'
import type { PriceRow, ServerFrame, StreamErrorCode } from './stream-frames.ts'
import { TypedEmitter } from './typed-emitter.ts'

/** The part of the standard WebSocket the stream clients use (the `ws` package's WebSocket has it too). */
export interface StreamSocket {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  addEventListener(type: 'open' | 'error', listener: () => void): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
  addEventListener(type: 'close', listener: (event: { code: number }) => void): void
  /** drops the connection without a closing handshake (the `ws` package has it; a browser's close() will do) */
  terminate?(): void
}

/** An upgrade the server refused, when the platform lets the client see it (Node; not browsers). */
export interface Refusal {
  status: number
  retryAfterSeconds: number
}

export type OpenSocket = (url: URL, onRefused: (refusal: Refusal) => void) => StreamSocket

const OPEN = 1
/** the code `disconnected` reports for a connection dropped as silent: abnormal closure, as for a lost connection */
export const SILENT_CLOSE_CODE = 1006

/** `?rate=`: every tick as it comes, or the latest row per pair once per window */
export type StreamRate = 'real_time' | 'fixed_rate@50ms' | 'fixed_rate@200ms' | 'fixed_rate@1000ms'

export interface PriceStreamClientOptions {
  /** the service's base URL, e.g. https://api.example.com; the stream is on the same host (ws or wss) */
  baseUrl: string
  /** receive only these pairs; every pair when omitted */
  pairs?: readonly string[]
  /**
   * reconnect delays double from `initialMs` (default 500) up to `maxMs` (default 30,000); each wait is
   * drawn between 0 and that (full jitter), and is at least a refusal's Retry-After
   */
  backoff?: { initialMs?: number; maxMs?: number }
  /** [0, 1): the backoff's jitter (Math.random by default; a seeded one makes the waits repeatable) */
  random?: () => number
  /**
   * How long after a gap to wait for the ticks that explain it before re-reading GET /v1/prices. A gap
   * from conflation is followed at once by the latest row of each pair concerned; one for a slow reader
   * may leave quiet pairs stale until the re-read.
   */
  recoveryDelayMs?: number
  /** opens the socket: the platform's WebSocket by default; on Node 20, `nodeSocket()` from ./node.ts */
  openSocket?: OpenSocket
  /**
   * Resume after the last tick's cursor on every reconnect (default true). false: every connection starts
   * with a snapshot, and frames carry no cursor (a deployment without resume).
   */
  resume?: boolean
  /**
   * `compact`: ask for compact frames (`?format=compact`), a sixth of the bytes per tick; the client rebuilds
   * the rows, so its events are the same. Default `full`.
   */
  format?: 'full' | 'compact'
  /**
   * Ask for a heartbeat after this many seconds (1 to 60) without a frame (`?heartbeat=`), and take a connection
   * that has sent no frame for twice that as dead: it is dropped (`disconnected` with code 1006) and the client
   * reconnects, resuming after its cursor, which heartbeats carry. Off by default.
   */
  heartbeatSeconds?: number
  /**
   * `?rate=` (default `real_time`). At a fixed rate each pair's row comes at most once per window, and a seq jump
   * is the ticks folded into it, not a loss; gaps still announce losses.
   */
  rate?: StreamRate
  /**
   * Ask for ticks in `batch` frames (`?batch=true`): each window of a fixed rate, or at real time the ticks the
   * server sends together (a read from its bus), in one frame: fewer frames for the server to send and this client
   * to read; its events are the same.
   */
  batch?: boolean
}

export interface Loss {
  /** `gap`: the server dropped ticks for this connection; `seq_jump`: a tick's seq skipped ahead unannounced */
  reason: 'gap' | 'seq_jump'
  dropped: number
  pair?: string
}

export interface PriceStreamEvents {
  /** the connection is open and its snapshot applied */
  snapshot: [rows: PriceRow[]]
  price: [row: PriceRow, seq: number]
  loss: [loss: Loss]
  /** rows re-read from GET /v1/prices after a loss */
  recovered: [rows: PriceRow[]]
  /**
   * a reconnect asked to resume: `recovered` true means every tick after `cursor` follows (no snapshot);
   * false means the server no longer had them, and a `snapshot` follows
   */
  resumed: [info: { recovered: boolean; cursor: string }]
  /** a heartbeat frame: nothing else was sent for the interval asked for; `time` is the server's clock */
  heartbeat: [time: number]
  /** the connection closed; another attempt follows in `retryInMs` unless the client was closed */
  disconnected: [info: { code: number; retryInMs: number | undefined }]
  /** a refused upgrade that retrying cannot fix (400, 403), a failed recovery */
  error: [error: Error]
}

/** A subscribe or unsubscribe the server rejected (spec 6.1 error codes). */
export class StreamRequestError extends Error {
  override readonly name = 'StreamRequestError'
  constructor(
    readonly code: StreamErrorCode | 'disconnected',
    message: string,
  ) {
    super(message)
  }
}

type Reply = { resolve(pairCount: number | null): void; reject(error: Error): void }

const REFUSALS_WORTH_RETRYING = new Set([429, 503])

export class PriceStreamClient extends TypedEmitter<PriceStreamEvents> {
  /** the latest row per pair */
  readonly prices = new Map<string, PriceRow>()
  private socket: StreamSocket | undefined
  private pairs: Set<string> | undefined
  /** seq of the last tick seen per pair on this connection */
  private readonly lastSeq = new Map<string, number>()
  /** ticks received so far, and the count when each pair's latest arrived: orders ticks against a re-read */
  private ticksReceived = 0
  private readonly arrivedAt = new Map<string, number>()
  /** ticks announced by gap frames that seq jumps have not yet accounted for */
  private announcedDrops = 0
  /** of those, the ones announced since the last recovery check */
  private unexplainedSinceCheck = 0
  private recoveryCheck: ReturnType<typeof setTimeout> | undefined
  private readonly replies: Reply[] = []
  private attempt = 0
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined
  private recovering = false
  private recoverAgain = false
  /** set by narrow(): the close it causes is followed by a reconnect at once */
  private reconnectNow = false
  /** the cursor of the last frame that carried one: where the next connection resumes */
  private lastCursor: string | undefined
  /** with compact frames: each pair's static part, kept across reconnects for the ticks a resume replays */
  private readonly compactRows = new CompactRows()
  private closed = false
  /** with `heartbeatSeconds`: drops a connection silent for twice the interval */
  private readonly silence: SilenceWatch

  constructor(private readonly options: PriceStreamClientOptions) {
    super()
    this.pairs = options.pairs && new Set(options.pairs)
    this.silence = silenceWatch(options.heartbeatSeconds)
  }

  /** at a fixed rate, a seq jump is ticks folded into the row */
  private get folds(): boolean {
    return this.options.rate !== undefined && this.options.rate !== 'real_time'
  }

  start(): this {
    this.connect()
    return this
  }

  /** The cursor of the last tick (or snapshot) received: where a reconnect resumes. */
  get cursor(): string | undefined {
    return this.lastCursor
  }

  /** Adds pairs to a filtered connection; resolves with the number of pairs now received (null: all). */
  subscribe(pairs: readonly string[]): Promise<number | null> {
    return this.request('subscribe', pairs)
  }

  unsubscribe(pairs: readonly string[]): Promise<number | null> {
    return this.request('unsubscribe', pairs)
  }

  /** Reconnects to receive only `pairs` (every pair when undefined): the only way to narrow an unfiltered connection. */
  narrow(pairs: readonly string[] | undefined): void {
    this.pairs = pairs && new Set(pairs)
    this.lastCursor = undefined // the new filter starts from its snapshot
    if (!this.socket) return this.connect()
    this.reconnectNow = true
    this.socket.close(1000, 'narrowing')
  }

  async close(): Promise<void> {
    this.closed = true
    this.silence.stop()
    clearTimeout(this.reconnectTimer)
    clearTimeout(this.recoveryCheck)
    const socket = this.socket
    if (!socket || socket.readyState === CLOSED) return
    await new Promise<void>((resolve) => {
      socket.addEventListener('close', () => resolve())
      socket.close(1000, 'client closing')
    })
  }

  private connect(): void {
    if (this.closed) return
    if (this.pairs?.size === 0) return // nothing wanted: wait for narrow()
    const url = new URL('/v1/prices/stream', this.options.baseUrl.replace(/^http/, 'ws'))
    if (this.pairs) url.searchParams.set('pairs', [...this.pairs].join(','))
    if (this.options.format === 'compact') url.searchParams.set('format', 'compact')
    if (this.options.resume !== false) {
      if (this.lastCursor === undefined) url.searchParams.set('cursor', 'true')
      else url.searchParams.set('from', this.lastCursor)
    }
    if (this.options.heartbeatSeconds !== undefined) url.searchParams.set('heartbeat', String(this.options.heartbeatSeconds))
    if (this.options.rate !== undefined) url.searchParams.set('rate', this.options.rate)
    if (this.options.batch) url.searchParams.set('batch', 'true')
    let refusal: Refusal | undefined
    const socket = (this.options.openSocket ?? platformSocket)(url, (refused) => (refusal = refused))
    this.socket = socket
    this.silence.opened(socket, () => closed(SILENT_CLOSE_CODE))

    socket.addEventListener('message', ({ data }) => {
      if (this.socket !== socket) return
      this.silence.heard()
      this.receive(JSON.parse(String(data)) as ServerFrame)
    })
    socket.addEventListener('error', () => {}) // every failure also closes the socket, which decides what follows
    socket.addEventListener('close', ({ code }) => closed(code))
    const closed = (code: number) => {
      if (this.socket !== socket) return
      this.socket = undefined
      for (const reply of this.replies.splice(0))
        reply.reject(new StreamRequestError('disconnected', 'the connection closed before the reply'))
      if (refusal && !REFUSALS_WORTH_RETRYING.has(refusal.status)) {
        this.emit('error', new Error(`the stream refused the connection with ${refusal.status}`))
        this.closed = true
      }
      const retryInMs = this.closed ? undefined : this.reconnectNow ? 0 : this.nextDelay(refusal?.retryAfterSeconds)
      this.reconnectNow = false
      this.emit('disconnected', { code, retryInMs })
      if (retryInMs !== undefined) this.reconnectTimer = setTimeout(() => this.connect(), retryInMs)
    }
  }

  private nextDelay(retryAfterSeconds: number | undefined): number {
    return reconnectDelayMs({
      attempt: this.attempt++,
      initialMs: this.options.backoff?.initialMs ?? 500,
      maxMs: this.options.backoff?.maxMs ?? 30_000,
      retryAfterSeconds,
      random: this.options.random ?? Math.random,
    })
  }

  private receive(frame: ServerFrame): void {
    if ('cursor' in frame && frame.cursor !== undefined) this.lastCursor = frame.cursor
    switch (frame.type) {
      case 'snapshot': {
        this.attempt = 0
        this.announcedDrops = 0
        this.unexplainedSinceCheck = 0
        this.lastSeq.clear()
        for (const [pair, seq] of Object.entries(frame.seq)) this.lastSeq.set(pair, seq)
        this.prices.clear()
        for (const row of frame.data) this.prices.set(row.pair, row)
        if ('ids' in frame) this.compactRows.fromSnapshot(frame)
        this.emit('snapshot', frame.data)
        return
      }
      case 'resumed': {
        const cursor = this.lastCursor!
        // recovered: the ticks after the cursor follow, and seq goes on from this client's baselines
        if (frame.recovered) this.attempt = 0
        this.emit('resumed', { recovered: frame.recovered, cursor })
        return
      }
      case 'tick':
        return this.receiveTick(frame.data, frame.seq)
      case 'static':
        return this.compactRows.fromStatic(frame)
      case 't': {
        const row = this.compactRows.row(frame)
        if (row) return this.receiveTick(row, frame.seq)
        this.emit('error', new Error(`a compact tick of pair id ${frame.p}, whose static part never came`))
        return
      }
      case 'gap':
        this.announcedDrops += frame.dropped
        this.unexplainedSinceCheck += frame.dropped
        this.emit('loss', { reason: 'gap', dropped: frame.dropped })
        this.recoveryCheck ??= setTimeout(() => this.checkRecovery(), this.options.recoveryDelayMs ?? 250)
        return
      case 'heartbeat':
        this.emit('heartbeat', frame.time)
        return
      case 'batch':
        for (const inner of frame.frames) this.receive(inner)
        return
      case 'ack':
        this.replies.shift()?.resolve(frame.pairCount)
        return
      case 'error':
        this.replies.shift()?.reject(new StreamRequestError(frame.code, frame.message))
    }
  }

  private receiveTick(row: PriceRow, seq: number): void {
    const pair = row.pair
    const previous = this.lastSeq.get(pair)
    this.lastSeq.set(pair, seq)
    this.arrivedAt.set(pair, ++this.ticksReceived)
    this.prices.set(pair, row)
    this.emit('price', row, seq)
    // a pair subscribed after the snapshot has no baseline: its first tick becomes one
    const missed = previous === undefined ? 0 : seq - previous - 1
    if (missed <= 0) return
    const explained = Math.min(missed, this.announcedDrops)
    this.announcedDrops -= explained
    this.unexplainedSinceCheck = Math.max(0, this.unexplainedSinceCheck - explained)
    // at a fixed rate, the rest of the jump is the ticks folded into this row
    if (missed > explained && this.folds) return
    if (missed > explained) {
      this.emit('loss', { reason: 'seq_jump', dropped: missed - explained, pair })
      void this.recover()
    }
  }

  /** Re-reads the snapshot if ticks announced by a gap have not turned up as seq jumps since. */
  private checkRecovery(): void {
    this.recoveryCheck = undefined
    if (this.unexplainedSinceCheck === 0 || this.closed) return
    this.unexplainedSinceCheck = 0
    void this.recover()
  }

  /** Re-reads the REST snapshot; losses while a re-read is running are covered by one more after it. */
  private async recover(): Promise<void> {
    if (this.recovering) {
      this.recoverAgain = true
      return
    }
    this.recovering = true
    do {
      this.recoverAgain = false
      await this.readSnapshot()
    } while (this.recoverAgain && !this.closed)
    this.recovering = false
  }

  private async readSnapshot(): Promise<void> {
    try {
      const requestedAt = this.ticksReceived
      const response = await fetch(new URL('/v1/prices', this.options.baseUrl))
      if (response.status !== 200) throw new Error(`GET /v1/prices answered ${response.status}`)
      const { prices } = (await response.json()) as { prices: PriceRow[] }
      const wanted = prices.filter((row) => !this.pairs || this.pairs.has(row.pair))
      // a tick that arrived after the request went out is at least as new as the re-read row: keep it
      for (const row of wanted) if ((this.arrivedAt.get(row.pair) ?? 0) <= requestedAt) this.prices.set(row.pair, row)
      this.emit('recovered', wanted)
    } catch (error) {
      this.emit('error', error instanceof Error ? error : new Error(String(error)))
    }
  }

  private request(type: 'subscribe' | 'unsubscribe', pairs: readonly string[]): Promise<number | null> {
    const socket = this.socket
    if (!socket || socket.readyState !== OPEN) {
      return Promise.reject(new StreamRequestError('disconnected', 'the stream is not connected'))
    }
    return new Promise((resolve, reject) => {
      this.replies.push({
        resolve: (pairCount) => {
          // a reconnect asks for the filter as it now is
          for (const pair of this.pairs ? pairs : []) {
            if (type === 'subscribe') this.pairs?.add(pair)
            else this.pairs?.delete(pair)
          }
          resolve(pairCount)
        },
        reject,
      })
      socket.send(JSON.stringify({ type, pairs }))
    })
  }
}

export function platformSocket(url: URL): StreamSocket {
  const { WebSocket } = globalThis as { WebSocket?: new (url: string) => StreamSocket }
  if (!WebSocket) throw new Error('this platform has no WebSocket: pass openSocket (nodeSocket() on Node 20)')
  return new WebSocket(url.toString())
}
